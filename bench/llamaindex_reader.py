"""Benchmark: DocReadReader / DocReadToolSpec against the floor (the library called directly and
wrapped in LlamaIndex objects by hand, as PyMuPDFReader or SimpleDirectoryReader's default text
path do) and against the docread core they wrap.

    python bench/llamaindex_reader.py        # table: seconds, ratio to the floor and core, peak RSS

Each measurement is a fresh subprocess (best of 3), so peak RSS is per case. docread cases first
read a one-page PDF (worker start-up is a per-process cost, not a per-read one); cache off.
"""

from __future__ import annotations

import base64
import json
import resource
import sys
import time
from pathlib import Path

from _harness import best_of

DATA = Path(__file__).resolve().parent / "data" / "llamaindex"
CONFIG = {"cache": {"enabled": False}}
CASES = {
    "pdf-300p": ("floor", "core", "reader"),
    "sdr-200-text": ("floor", "core", "reader"),
    "notebook-40-plots": ("floor", "core", "reader"),
    "tool-png": ("floor", "core", "tool"),
}


def make_data() -> None:
    """A 300-page PDF, 200 markdown files, a notebook with 40 PNG plots, a 1200x800 PNG."""
    import io

    import pymupdf
    from PIL import Image

    DATA.mkdir(parents=True, exist_ok=True)
    for name, pages in (("big.pdf", 300), ("tiny.pdf", 1)):
        if not (DATA / name).exists():
            pdf = pymupdf.open()
            for n in range(pages):
                page = pdf.new_page()
                for line in range(30):
                    page.insert_text(
                        (50, 60 + line * 24), f"Page {n + 1} line {line}: revenue and outlook."
                    )
            pdf.save(DATA / name)
            pdf.close()
    texts = DATA / "texts"
    if not texts.exists():
        texts.mkdir()
        for i in range(200):
            (texts / f"note{i}.md").write_text(
                "".join(f"note {i} line {k}\n" for k in range(200)), encoding="utf-8"
            )
    if not (DATA / "plots.ipynb").exists():
        buf = io.BytesIO()
        Image.effect_noise((400, 300), 40).convert("RGB").save(buf, "PNG")
        plot = base64.b64encode(buf.getvalue()).decode()
        cells = [
            {"cell_type": "code", "execution_count": i, "metadata": {}, "source": f"plot({i})",
             "outputs": [{"output_type": "display_data", "metadata": {}, "data": {"image/png": plot}}]}
            for i in range(40)
        ]  # fmt: skip
        nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
        (DATA / "plots.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    if not (DATA / "chart.png").exists():
        Image.effect_noise((1200, 800), 40).convert("RGB").save(DATA / "chart.png")


def floor(case: str) -> int:
    """The hand-written baseline: the parsing library plus LlamaIndex objects, nothing else."""
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.base.llms.types import ImageBlock
    from llama_index.core.schema import Document, ImageDocument

    if case == "pdf-300p":
        import pymupdf

        with pymupdf.open(DATA / "big.pdf") as pdf:
            docs = [
                Document(text=p.get_text(), metadata={"page_label": str(i + 1)})
                for i, p in enumerate(pdf)
            ]
        return len(docs)
    if case == "sdr-200-text":
        return len(SimpleDirectoryReader(str(DATA / "texts")).load_data())
    if case == "notebook-40-plots":
        nb = json.loads((DATA / "plots.ipynb").read_text(encoding="utf-8"))
        docs: list[Document] = []
        for i, cell in enumerate(nb["cells"], 1):
            docs.append(Document(text="".join(cell["source"]), metadata={"cell_index": i}))
            for out in cell.get("outputs", []):
                png = out.get("data", {}).get("image/png")
                if png:
                    docs.append(
                        ImageDocument(
                            image=png, image_mimetype="image/png", metadata={"cell_index": i}
                        )
                    )
        return len(docs)
    return len([ImageBlock(image=(DATA / "chart.png").read_bytes(), image_mimetype="image/png")])


def docread_case(case: str, impl: str) -> int:
    """The docread core alone ("core") or through the LlamaIndex wrapper ("reader" / "tool")."""
    import docread

    if impl == "core":
        if case == "tool-png":
            return 1 + len(docread.read("chart.png", workspace=DATA, config=CONFIG).media)
        target = {
            "pdf-300p": "big.pdf",
            "sdr-200-text": "texts",
            "notebook-40-plots": "plots.ipynb",
        }[case]
        return sum(1 for _ in docread.iter_units(target, workspace=DATA, config=CONFIG))
    from llama_index.core import SimpleDirectoryReader

    from llama_index_docread import DocReadReader, DocReadToolSpec

    reader = DocReadReader(config=CONFIG, media_dir=DATA / "media")
    if case == "pdf-300p":
        return len(reader.load_data(DATA / "big.pdf"))
    if case == "sdr-200-text":
        return len(
            SimpleDirectoryReader(
                str(DATA / "texts"), file_extractor=reader.file_extractor()
            ).load_data()
        )
    if case == "notebook-40-plots":
        return len(reader.load_data(DATA / "plots.ipynb"))
    tool = DocReadToolSpec(DATA, config=CONFIG).to_tool_list()[0]
    return len(tool.call(file_path="chart.png").blocks)


def run_case(case: str, impl: str) -> int:
    """One timed measurement in this process; prints seconds, peak RSS and units produced."""
    import llama_index.core  # noqa: F401 - import cost is not what we measure

    if impl != "floor":
        import docread

        docread.read("tiny.pdf", workspace=DATA, config=CONFIG)
    start = time.perf_counter()
    count = floor(case) if impl == "floor" else docread_case(case, impl)
    elapsed = time.perf_counter() - start
    rss = (
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        + resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    )
    print(json.dumps({"seconds": elapsed, "rss_mb": rss / 1024, "count": count}))
    return 0


def main() -> int:
    if len(sys.argv) == 3:
        return run_case(sys.argv[1], sys.argv[2])
    make_data()
    print(
        f"{'case':<18} {'impl':<7} {'seconds':>8} {'x floor':>8} {'x core':>7} {'peak RSS MB':>12} {'units':>6}"
    )
    for case, impls in CASES.items():
        best = {impl: best_of(__file__, case, impl) for impl in impls}
        base, core = best["floor"]["seconds"], best["core"]["seconds"]
        for impl, r in best.items():
            vs_core = f"{r['seconds'] / core:7.2f}" if impl not in ("floor", "core") else " " * 7
            print(
                f"{case:<18} {impl:<7} {r['seconds']:8.3f} {r['seconds'] / base:8.2f} {vs_core} "
                f"{r['rss_mb']:12.1f} {int(r['count']):6d}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
