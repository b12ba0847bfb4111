"""Benchmark: seconds per DOCX/PPTX/EPUB for docread vs pandoc called directly (the floor) vs
markitdown when installed, plus docread's cached re-read. One child process per measurement so
peak RSS is per case (self + children, which covers pandoc and isolated workers).

    .venv/bin/python bench/office.py [--reps 3]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "office"
CORPUS = HERE.parents[1] / "shared" / "corpus"
FILES = ("word/test.docx", "word/word_tables.docx", "slides/test.pptx", "ebooks/winter-sports.epub")


def _make_big_docx(target: Path) -> None:
    """A generated 200-section DOCX with tables (bigger than the corpus samples)."""
    import docx

    d = docx.Document()
    for i in range(200):
        d.add_heading(f"Section {i}", level=1)
        d.add_paragraph(f"Paragraph {i} " + "lorem ipsum dolor sit amet " * 40)
        t = d.add_table(rows=3, cols=3)
        for r in range(3):
            for c in range(3):
                t.cell(r, c).text = f"r{r}c{c}"
    d.save(target)


def _peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def child(tool: str, path: str, reps: int) -> None:
    """Run one measurement in this process and print JSON {seconds, peak_mb, chars}."""
    times, chars = [], 0
    if tool == "pandoc":
        import pypandoc

        exe, fmt = pypandoc.get_pandoc_path(), Path(path).suffix.lstrip(".")
        for _ in range(reps):
            t = time.perf_counter()
            out = subprocess.run(
                [exe, "--sandbox", "-f", fmt, "-t", "gfm", path], capture_output=True, check=True
            )
            times.append(time.perf_counter() - t)
            chars = len(out.stdout)
    elif tool == "markitdown":
        from markitdown import MarkItDown

        md = MarkItDown()
        for _ in range(reps):
            t = time.perf_counter()
            chars = len(md.convert(path).text_content)
            times.append(time.perf_counter() - t)
    else:
        import docread

        p = Path(path)
        cached = tool == "docread-cached"
        config = {"cache": {"enabled": cached, "directory": str(DATA / "cache")}}
        with docread.Reader(p.parent, config=config) as reader:
            if cached:
                reader.read(p.name, dedupe=False)  # fill the cache
            for _ in range(reps):
                t = time.perf_counter()
                result = reader.read(p.name, dedupe=False)
                chars = len(result.render())
                times.append(time.perf_counter() - t)
            if cached and not result.cached:
                raise SystemExit("expected a cached result")
    print(json.dumps({"seconds": min(times), "peak_mb": _peak_mb(), "chars": chars}))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--child", nargs=2, metavar=("TOOL", "PATH"))
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.reps)
        return
    DATA.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(DATA / "cache", ignore_errors=True)
    files = []
    for rel in FILES:
        if (CORPUS / rel).is_file():
            shutil.copy(CORPUS / rel, DATA / Path(rel).name)
            files.append(DATA / Path(rel).name)
    big = DATA / "generated-200-sections.docx"
    if not big.exists():
        _make_big_docx(big)
    files.append(big)
    tools = ["pandoc", "docread", "docread-cached"]
    try:
        import markitdown  # noqa: F401

        tools.append("markitdown")
    except ImportError:
        print("markitdown not installed: skipped")
    print(f"{'file':34} {'tool':15} {'seconds':>8} {'x floor':>8} {'peak MB':>8} {'chars':>8}")
    for f in files:
        floor = None
        for tool in tools:
            cmd = [sys.executable, __file__, "--reps", str(args.reps), "--child", tool, str(f)]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
            if out.returncode != 0:
                print(f"{f.name:34} {tool:15} failed: {out.stderr.strip()[-200:]}")
                continue
            row = json.loads(out.stdout.strip().splitlines()[-1])
            floor = floor or row["seconds"]
            ratio = row["seconds"] / floor
            print(
                f"{f.name:34} {tool:15} {row['seconds']:8.3f} {ratio:8.2f} {row['peak_mb']:8.0f} {row['chars']:8}"
            )


if __name__ == "__main__":
    main()
