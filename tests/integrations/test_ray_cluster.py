"""docread.integrations.ray_data on a real 2-node Ray cluster on this machine (``ray.cluster_utils.Cluster``,
1 CPU and a capped object store per node, each node its own HOME and so its own docread cache):
read tasks run on both nodes, rows equal the loader's, small files share read tasks while a big
one has a task of its own, a re-run is served by a node's cache where Ray sends a file back to
its node, and wholly by a cache folder the nodes share."""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docread
import pymupdf
import pytest
from factories import pdf

# the [ray] extra (installed in the dev environment); Ray itself is imported by the tests that
# use it, not at collection (2 s of CPU in every pytest process)
if importlib.util.find_spec("ray") is None:
    pytest.skip("Ray is not installed: pip install 'docread[ray]'", allow_module_level=True)


STORE = 96 * 1024 * 1024  # object store per node (Ray's floor is 75 MiB)
CACHED: dict[str, Any] = {"cache": {"enabled": True}}  # ~/.cache/docread of each node's HOME


@pytest.fixture(scope="module")
def homes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """A 2-node cluster for the module, the driver connected: node id -> that node's HOME."""
    import ray
    from ray.cluster_utils import Cluster

    homes = [tmp_path_factory.mktemp(f"node{i}") for i in range(2)]
    # no log monitor (the driver takes no worker logs: log_to_driver=False) and no autoscaler
    # monitor (a fixed cluster): ~0.5 s of CPU each at its start, and they poll while it lives
    node: dict[str, Any] = {
        "num_cpus": 1, "object_store_memory": STORE, "include_log_monitor": False,
    }  # fmt: skip
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            **node,
            "include_dashboard": False,
            "no_monitor": True,
            "env_vars": {"HOME": str(homes[0])},
        },
    )
    second = cluster.add_node(**node, env_vars={"HOME": str(homes[1])})
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    try:
        yield {cluster.head_node.node_id: homes[0], second.node_id: homes[1]}
    finally:
        ray.shutdown()
        cluster.shutdown()


def read(folder: Path, config: dict[str, Any] = CACHED) -> list[dict[str, Any]]:
    """The Dataset's rows, each with the node and the task that read it (fused into the read
    task; defined here so Ray pickles it by value: workers cannot import this module)."""
    import pyarrow as pa
    import ray
    from docread.integrations.ray_data import read_documents

    def where(batch: pa.Table) -> pa.Table:
        here = ray.get_runtime_context()
        n = batch.num_rows
        batch = batch.append_column("node", pa.array([here.get_node_id()] * n))
        return batch.append_column("task", pa.array([here.get_task_id()] * n))

    ds = read_documents(folder, config=config).map_batches(
        where, batch_format="pyarrow", batch_size=None
    )
    rows = ds.take_all()
    assert "Read_DocumentSource->MapBatches(where)" in ds.stats()  # fused: ids are the read's
    return rows


def cache_times(where: Path) -> list[tuple[float, float]]:
    """(store time, last access time) of every entry in a docread cache folder, or in the
    default one of a node's HOME."""
    db = where / "cache.db" if (where / "cache.db").exists() else where / ".cache/docread/cache.db"
    if not db.exists():
        return []
    with sqlite3.connect(db) as con:
        return list(con.execute("SELECT store_time, access_time FROM Cache"))


def test_both_nodes_read_the_loaders_rows_into_their_own_caches(
    homes: dict[str, Path], tmp_path: Path
) -> None:
    for i in range(12):
        pdf(tmp_path / f"doc{i:02}.pdf", [f"Document {i} page one", f"Document {i} page two"])
    with pymupdf.open(tmp_path / "doc05.pdf") as doc:  # a 3 MB file amid 11 of 1 KB
        doc.embfile_add("blob.bin", os.urandom(3_000_000))
        doc.save(tmp_path / "big.pdf")
    first = read(tmp_path)
    want = {
        u.id: u.text for u in docread.iter_units(tmp_path, config={"cache": {"enabled": False}})
    }
    assert {r["id"]: r["text"] for r in first} == want and len(first) == 26
    files = {json.loads(r["metadata"])["source"]: (r["node"], r["task"]) for r in first}
    assert {node for node, _ in files.values()} == set(homes)  # both nodes read
    tasks = Counter(task for _, task in files.values())  # size-aware: the big file alone,
    assert tasks[files[str(tmp_path / "big.pdf")][1]] == 1  # the small ones share tasks
    assert len(tasks) < len(files) - 1
    for node, home in homes.items():  # each node cached what it read, in its own folder
        assert len(cache_times(home)) == sum(1 for n, _ in files.values() if n == node)

    rerun = time.time()
    second = read(tmp_path)
    assert sorted((r["id"], r["text"]) for r in second) == sorted(want.items())
    on = {json.loads(r["metadata"])["source"]: r["node"] for r in second}
    for node, home in homes.items():  # a file back on its node is served from that node's
        times = cache_times(home)  # cache; one the other node read before is read and stored
        served = sum(1 for store, access in times if store < rerun <= access)
        stored = sum(1 for store, _ in times if store >= rerun)
        here = [source for source, n in on.items() if n == node]
        again = sum(1 for source in here if files[source][0] == node)
        assert (served, stored) == (again, len(here) - again)


def test_a_shared_cache_folder_serves_a_rerun_on_any_node(
    homes: dict[str, Path], tmp_path: Path
) -> None:
    """Ray does not send a file to the node that read it last time (SPREAD starts anywhere):
    nodes that share one cache folder (a shared filesystem) serve a re-run wholly from it."""
    docs, shared = tmp_path / "docs", tmp_path / "cache"
    docs.mkdir()
    for i in range(6):
        pdf(docs / f"doc{i}.pdf", [f"Shared cache document {i}"])
    config = {"cache": {"enabled": True, "directory": str(shared)}}
    first = read(docs, config)
    assert {r["node"] for r in first} == set(homes) and len(cache_times(shared)) == 6
    rerun = time.time()
    again = read(docs, config)
    assert sorted(r["id"] for r in again) == sorted(r["id"] for r in first)
    assert all(store < rerun <= access for store, access in cache_times(shared))
