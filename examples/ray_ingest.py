"""Ingestion with Ray Data: a folder -> docread.integrations.ray_data.read_documents -> chunks -> embeddings
-> Parquet. The same script runs on a laptop and on a cluster.

    python examples/ray_ingest.py examples/samples out.parquet      # local Ray, 2 CPUs
    ray job submit --working-dir . -- python examples/ray_ingest.py s3://bucket/docs s3://bucket/out

On a laptop it starts Ray with ``ray.init(num_cpus=2)``; under ``ray job submit`` (RAY_ADDRESS
set) it joins the cluster. On a cluster, name the input with a URI every node can read (S3, GCS,
HDFS) or a shared mount at the same path on every node. The output is a Parquet dataset (a
folder of files, one per write task): ``pyarrow.parquet.read_table(out)`` reads it whole.

The embedding is NOT a real model: ``embed`` hashes words into 256 buckets (deterministic, no
network, no download). Swap in a real model in ``map_batches`` for real retrieval. Chunks come
from ``docread.rag.chunking``, as in the LangChain and LlamaIndex loaders.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import ray
from docread.integrations.ray_data import read_documents
from docread.model import Document
from docread.rag.chunking import Chunker

CHUNKER = Chunker(chunk_size=1000, chunk_overlap=100)
DIM = 256


def chunk(row: dict[str, Any]) -> list[dict[str, Any]]:
    """One Document row -> its chunks by docread's chunker, the row read alone (Ray hands rows
    out one by one, so a section never runs on into the next page as in the loaders): cut at
    its headings, a table never inside a row, each chunk with a stable id and the unit's
    metadata plus ``headings``, ``chunk_index``/``chunk_count``/``char_start``."""
    doc = Document(row["text"], json.loads(row["metadata"]), row["id"])
    return [
        {
            "id": part.id,
            "doc_id": row["id"],
            "chunk_index": part.metadata["chunk_index"],
            "text": part.text,
            "source": part.metadata["source"],
            "metadata": json.dumps(part.metadata, default=str),
        }  # fmt: skip
        for part in CHUNKER.split(doc)
    ]


def embed(batch: pa.Table) -> pa.Table:
    """A stand-in embedding: words hashed (BLAKE2b, the same in every process) into DIM
    buckets, L2-normalised."""
    vectors = []
    for text in batch.column("text").to_pylist():
        vec = [0.0] * DIM
        for word in re.findall(r"\w+", text.lower()):
            vec[int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest()) % DIM] += 1
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        vectors.append([v / norm for v in vec])
    return batch.append_column("embedding", pa.array(vectors, type=pa.list_(pa.float32())))


def main(folder: str, out: str) -> None:
    if os.environ.get("RAY_ADDRESS"):
        ray.init()  # ray job submit, or a cluster you named
    else:
        ray.init(num_cpus=2)  # a laptop: a local Ray with 2 CPUs
    # a local path as this folder means it: the write tasks run in Ray's worker processes, in
    # the cluster's folder (a joined cluster's is not ours)
    where = out if "://" in out else os.path.abspath(out)
    docs = read_documents(folder)
    chunks = docs.flat_map(chunk)
    vectors = chunks.map_batches(embed, batch_format="pyarrow")
    vectors.write_parquet(where)  # runs the whole pipeline, streaming, once
    print(f"{folder} -> {out}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(f"usage: python {sys.argv[0]} FOLDER_OR_URI OUT_PARQUET")
    folder = sys.argv[1]
    if folder == "examples/samples" and not Path(folder).exists():  # the generated samples
        sys.path.insert(0, str(Path(__file__).parent))
        from make_samples import make_samples

        make_samples(Path(folder))
    main(folder, sys.argv[2])
