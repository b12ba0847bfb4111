"""Benchmark: DocReadLoader / ReadDocumentTool against the floor (the library called directly,
as PyMuPDFLoader or DirectoryLoader+TextLoader would) and against the docread core they wrap.

    python bench/langchain_loader.py            # prints a table: seconds, ratio to the floor, peak RSS

Every measurement runs in its own subprocess, so peak RSS is per case. docread cases warm up the
worker pool on a one-page PDF first (pool start-up is a per-process cost, not a per-read one) and
run with the cache off. Peak RSS: the measuring process's own, and its largest live worker's (VmHWM).
Imports and tool construction happen before the clock starts.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

from _harness import best_of

DATA = Path(__file__).resolve().parent / "data" / "langchain"
CONFIG = {"cache": {"enabled": False}}
CASES = {
    "pdf-300p": ("floor", "core", "loader"),
    "dir-200-text": ("floor", "core", "loader"),
    "tool-text-window": ("floor", "core", "tool"),
    "tool-png": ("floor", "core", "tool"),
}


def make_data() -> None:
    """A 300-page text PDF, 200 text files in 10 folders, a 2,000-line log and a 1200x800 PNG."""
    import pymupdf
    from PIL import Image

    DATA.mkdir(parents=True, exist_ok=True)
    if not (DATA / "big.pdf").exists():
        pdf = pymupdf.open()
        for n in range(300):
            page = pdf.new_page()
            for line in range(30):
                page.insert_text(
                    (50, 60 + line * 24),
                    f"Page {n + 1} line {line}: quarterly revenue and outlook.",
                )
        pdf.save(DATA / "big.pdf")
        pdf.close()
    if not (DATA / "tiny.pdf").exists():
        pdf = pymupdf.open()
        pdf.new_page().insert_text((72, 72), "warm-up")
        pdf.save(DATA / "tiny.pdf")
        pdf.close()
    folder = DATA / "texts"
    if not folder.exists():
        for i in range(200):
            sub = folder / f"d{i % 10}"
            sub.mkdir(parents=True, exist_ok=True)
            (sub / f"note{i}.md").write_text(
                "".join(f"note {i} line {k}\n" for k in range(200)), encoding="utf-8"
            )
    (DATA / "app.log").write_text(
        "".join(f"2026-01-01 INFO request {k} ok\n" for k in range(2000)), encoding="utf-8"
    )
    if not (DATA / "chart.png").exists():
        Image.effect_noise((1200, 800), 40).convert("RGB").save(DATA / "chart.png")


def run_case(case: str, impl: str) -> int:
    """One measurement in this process; returns the number of documents/blocks produced."""
    import base64

    import docread
    import pymupdf
    from langchain_core.documents import Document

    from langchain_docread import DocReadLoader, ReadDocumentTool

    if impl != "floor":
        docread.read("tiny.pdf", workspace=DATA, config=CONFIG)  # warm the worker pool
    tool = ReadDocumentTool(workspace=str(DATA), config=CONFIG)  # imports and set-up: not timed
    start = time.perf_counter()
    if case == "pdf-300p":
        if impl == "floor":
            with pymupdf.open(DATA / "big.pdf") as pdf:
                n = len(pdf)
                docs = [
                    Document(
                        page.get_text(), metadata={"source": "big.pdf", "page": i, "total_pages": n}
                    )
                    for i, page in enumerate(pdf)
                ]
        elif impl == "core":
            docs = list(docread.iter_documents("big.pdf", workspace=DATA, config=CONFIG))
        else:
            docs = DocReadLoader("big.pdf", workspace=DATA, config=CONFIG).load()
        count = len(docs)
    elif case == "dir-200-text":
        if impl == "floor":
            files = sorted((DATA / "texts").rglob("*.md"))
            count = len(
                [
                    Document(f.read_text(encoding="utf-8"), metadata={"source": str(f)})
                    for f in files
                ]
            )
        elif impl == "core":
            count = sum(1 for _ in docread.iter_documents("texts", workspace=DATA, config=CONFIG))
        else:
            count = len(DocReadLoader("texts", workspace=DATA, config=CONFIG).load())
    else:
        name, args = (
            ("app.log", {"offset": 1001, "limit": 200})
            if case == "tool-text-window"
            else ("chart.png", {})
        )
        if impl == "floor":
            if name == "app.log":
                with (DATA / name).open(encoding="utf-8") as f:
                    lines = f.read().split("\n")[1000:1200]
                out = "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(lines, 1001))
            else:
                out = base64.b64encode((DATA / name).read_bytes()).decode()
            count = 1 if out else 0
        elif impl == "core":
            result = docread.read(name, workspace=DATA, config=CONFIG, **args)
            count = len(result.render()) and 1 + len(result.media)
        else:
            msg = tool.invoke(
                {
                    "type": "tool_call",
                    "id": "b",
                    "name": tool.name,
                    "args": {"file_path": name, **args},
                }
            )
            count = len(msg.content)
    elapsed = time.perf_counter() - start
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = max([_peak_mb(pid) for pid in _children()] or [0.0])
    print(json.dumps({"seconds": elapsed, "rss_mb": own, "worker_mb": workers, "count": count}))
    return 0


def _children() -> list[int]:
    """Live worker processes of this process (the pool stays up until exit)."""
    import psutil

    return [p.pid for p in psutil.Process().children(recursive=True)]


def _peak_mb(pid: int) -> float:
    """A process's peak resident set (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> int:
    if len(sys.argv) == 3:
        return run_case(sys.argv[1], sys.argv[2])
    make_data()
    print(
        f"{'case':<18} {'impl':<7} {'seconds':>8} {'x floor':>8} {'x core':>7} {'RSS MB':>7} {'worker MB':>9} {'units':>6}"
    )
    for case, impls in CASES.items():
        results = {impl: best_of(__file__, case, impl) for impl in impls}
        for impl, r in results.items():
            floor, core = results["floor"]["seconds"], results["core"]["seconds"]
            vs_core = f"{r['seconds'] / core:7.2f}" if impl not in ("floor", "core") else "       "
            print(
                f"{case:<18} {impl:<7} {r['seconds']:8.3f} {r['seconds'] / floor:8.2f} {vs_core} "
                f"{r['rss_mb']:7.1f} {r['worker_mb']:9.1f} {r['count']:6d}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
