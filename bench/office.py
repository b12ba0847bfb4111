"""Benchmark: seconds per office file (DOCX, ODT, PPTX, XLSX, EPUB from the shared corpus, and
generated ones: a known-structure DOCX/ODT/PPTX, a 200-section DOCX, an XLSX whose used range is
inflated to the sheet's maximum) for docread before (another checkout, e.g. untouched main),
docread after (this tree), kreuzberg (a bench-only venv) and pandoc alone (DOCX/ODT/EPUB).

docread reads every file whole (loader mode, cache off) on a warm worker: one read of each file
first, then ``--reps`` timed reads; ``first`` is the first read of a fresh Reader (worker start
included). Tools take turns round by round (``--rounds``), each round in its own process, and a
file's time is the median over every timed read of every round. Peak RSS per tool process.

    .venv/bin/python bench/office.py --before /work/main/core [--rounds 3 --reps 5]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _harness import CORPUS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data" / "office"
KREUZBERG = Path(
    "/tmp/kz/bin/python"
)  # python3 -m venv /tmp/kz && /tmp/kz/bin/pip install kreuzberg
SUFFIXES = (".docx", ".odt", ".pptx", ".xlsx", ".epub")
PANDOC = (".docx", ".odt", ".epub")
TIMEOUT = 30  # docread's global timeout here: a read past it is reported as "timeout"


def _files() -> list[Path]:
    """The corpus office files (copied into bench/data/office) and the generated ones."""
    DATA.mkdir(parents=True, exist_ok=True)
    files = []
    for folder in ("word", "slides", "tables", "ebooks"):
        for src in sorted((CORPUS / folder).glob("*")):
            if src.suffix in SUFFIXES:
                shutil.copy(src, DATA / src.name)
                files.append(DATA / src.name)
    sys.path.insert(0, str(ROOT / "tests"))
    from office_fixtures import WRITERS, office_spec, write_inflated_xlsx

    for fam, write in WRITERS.items():
        target = DATA / f"generated-structure.{fam}"
        write(target, office_spec(12, nested=fam != "pptx"))
        files.append(target)
    big = DATA / "generated-200-sections.docx"
    WRITERS["docx"](big, office_spec(200, nested=False))
    inflated = write_inflated_xlsx(DATA / "generated-inflated.xlsx", rows=200)
    return [*files, big, inflated]


def _peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def child(tool: str, reps: int, paths: list[str]) -> None:
    """Time each file in this process; print JSON {file: {"times": [...], "first": s}}."""
    out: dict[str, dict[str, object]] = {}
    if tool == "kreuzberg":
        import kreuzberg

        config = kreuzberg.ExtractionConfig(use_cache=False)  # docread's cache is off too

        def read(p: str) -> int:
            return len(kreuzberg.extract_file_sync(p, config=config).content)

        run(read, paths, reps, out)
    elif tool == "pandoc":
        import pypandoc

        exe = pypandoc.get_pandoc_path()

        def read(p: str) -> int:
            argv = [exe, "--sandbox", "-f", Path(p).suffix[1:], "-t", "gfm", p]
            return len(subprocess.run(argv, capture_output=True, check=True).stdout)

        run(read, [p for p in paths if p.endswith(PANDOC)], reps, out)
    else:
        import docread

        folder = str(Path(paths[0]).parent)
        config = {"cache": {"enabled": False}, "global_timeout": TIMEOUT}
        with docread.Reader(folder, config=config) as first_reader:
            t = time.perf_counter()
            list(first_reader.iter_documents(Path(paths[0]).name))
            cold = time.perf_counter() - t
        with docread.Reader(folder, config=config) as reader:

            def read(p: str) -> int:
                return sum(len(d.text) for d in reader.iter_documents(Path(p).name))

            run(read, paths, reps, out)
        out[Path(paths[0]).name]["cold"] = cold
    print(json.dumps({"files": out, "peak_mb": _peak_mb()}))


def run(read, paths: list[str], reps: int, out: dict[str, dict[str, object]]) -> None:  # type: ignore[no-untyped-def]
    for p in paths:
        t = time.perf_counter()
        try:
            chars = read(p)  # the first read of this file (warms the worker's imports)
        except Exception as exc:  # a read that fails (a timeout) is reported, not timed
            out[Path(p).name] = {
                "times": [],
                "first": time.perf_counter() - t,
                "error": type(exc).__name__,
            }
            continue
        first = time.perf_counter() - t
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            read(p)
            times.append(time.perf_counter() - t)
        out[Path(p).name] = {"times": times, "first": first, "chars": chars}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", help="core folder of the 'before' docread (e.g. /work/main/core)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--child", nargs="+", metavar="ARG")
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.reps, args.child[1:])
        return
    files = _files()
    tools: dict[str, tuple[str, str | None]] = {}
    if args.before:
        tools["before"] = (sys.executable, args.before)
    tools["after"] = (sys.executable, str(ROOT / "core"))
    if KREUZBERG.exists():
        tools["kreuzberg"] = (str(KREUZBERG), None)
    else:
        print(f"kreuzberg: no venv at {KREUZBERG}: skipped")
    tools["pandoc"] = (sys.executable, None)
    times: dict[str, dict[str, list[float]]] = {t: {} for t in tools}
    firsts: dict[str, dict[str, list[float]]] = {t: {} for t in tools}
    peaks: dict[str, float] = {}
    errors: dict[str, dict[str, str]] = {t: {} for t in tools}
    colds: dict[str, list[float]] = {}  # docread: the first file read by a fresh Reader
    for _ in range(args.rounds):
        for tool, (exe, tree) in tools.items():
            env = dict(os.environ)
            if tree:
                env["PYTHONPATH"] = tree
            kind = "docread" if tool in ("before", "after") else tool
            cmd = [exe, __file__, "--reps", str(args.reps), "--child", kind, *map(str, files)]
            done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
            if done.returncode != 0:
                print(f"{tool}: failed: {done.stderr.strip()[-300:]}")
                continue
            result = json.loads(done.stdout.strip().splitlines()[-1])
            peaks[tool] = max(peaks.get(tool, 0.0), result["peak_mb"])
            for name, row in result["files"].items():
                if "cold" in row:
                    colds.setdefault(tool, []).append(row["cold"])
                if row.get("error"):
                    errors[tool][name] = f"{row['error']} at {row['first']:.0f} s"
                times[tool].setdefault(name, []).extend(row["times"])
                firsts[tool].setdefault(name, []).append(row["first"])
    names = [f.name for f in files]
    head = " ".join(f"{t:>10}" for t in tools)
    print(
        f"\nwarm median ms per file (ratio after/before in the last column)\n{'file':40} {head}  {'after/before':>12}"
    )
    for name in names:
        cells = []
        med = {}
        for tool in tools:
            got = times[tool].get(name)
            med[tool] = statistics.median(got) * 1000 if got else None
            shown = "error" if name in errors[tool] else "-"
            cells.append(f"{med[tool]:10.1f}" if got else f"{shown:>10}")
        ratio = (
            f"{med['after'] / med['before']:12.2f}"
            if med.get("before") and med.get("after")
            else ""
        )
        print(f"{name:40} {' '.join(cells)}  {ratio}")
    print(f"\n{'median over files':40} ", end="")
    for tool in tools:
        meds = [statistics.median(v) * 1000 for v in times[tool].values() if v]
        print(f"{statistics.median(meds):10.1f}" if meds else f"{'-':>10}", end=" ")
    print(f"\n{'first read of a file, median ms':40} ", end="")
    for tool in tools:
        meds = [statistics.median(v) * 1000 for v in firsts[tool].values()]
        print(f"{statistics.median(meds):10.1f}" if meds else f"{'-':>10}", end=" ")
    print(f"\n{'fresh Reader, first file, median ms':40} ", end="")
    for tool in tools:
        got = colds.get(tool)
        print(f"{statistics.median(got) * 1000:10.1f}" if got else f"{'-':>10}", end=" ")
    print(f"\n{'peak RSS MB (tool process + children)':40} ", end="")
    print(" ".join(f"{peaks.get(t, 0):10.0f}" for t in tools))
    for tool, failed in errors.items():
        for name, what in failed.items():
            print(f"{tool}: {name}: {what}")


if __name__ == "__main__":
    main()
