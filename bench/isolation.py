"""Isolation benchmark: per-file overhead of a warm worker pool vs in-process, and peak RSS while
streaming a 2,000-page PDF (host and worker), each case in its own process so peaks are per case;
``startup``: ``import docread``, the first unit of a 1-page PDF from a cold Reader, and a worker's
replacement after a SIGKILL, side by side with another tree (the floor: a bare interpreter).

    .venv/bin/python bench/isolation.py            # prints a table; data goes to bench/data/
    .venv/bin/python bench/isolation.py startup /work/main [runs]   # this tree against main
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _harness import text_pdf

DATA = Path(__file__).resolve().parent / "data" / "isolation"
SMALL_FILES = 60
BIG_PAGES = 2000


BODY = "The quick brown fox jumps over the lazy dog. " * 8


def case_small(isolated: bool) -> dict[str, float]:
    """Median and p90 ms per read of small one-page PDFs, pool already warm."""
    import docread

    names = [text_pdf(DATA / f"small{i}.pdf", 1, BODY).name for i in range(SMALL_FILES)]
    config = {"cache": {"enabled": False}, "isolation": {"enabled": isolated, "workers": 1}}
    with docread.Reader(DATA, config=config) as reader:
        for name in names[:5]:
            reader.read(name)  # warm: worker started, PyMuPDF imported
        times = []
        for name in names:
            start = time.perf_counter()
            reader.read(name, dedupe=False)
            times.append((time.perf_counter() - start) * 1000)
    return {"median_ms": statistics.median(times), "p90_ms": sorted(times)[int(len(times) * 0.9)]}


def case_stream(isolated: bool, cached: bool = False) -> dict[str, float]:
    """Peak RSS (MB) of this process and of the worker while streaming every page of the big PDF.

    With ``cached`` the cache is on (a fresh directory): the host also keeps the units to store.
    """
    import shutil

    import docread

    name = text_pdf(DATA / "big.pdf", BIG_PAGES, BODY).name
    cache_dir = DATA / "stream-cache"
    shutil.rmtree(cache_dir, ignore_errors=True)
    cache = {"enabled": cached, "directory": str(cache_dir)}
    config = {"cache": cache, "isolation": {"enabled": isolated, "workers": 1}}
    start = time.perf_counter()
    with docread.Reader(DATA, config=config) as reader:
        pages = sum(1 for _ in reader.iter_documents(name))
    seconds = time.perf_counter() - start
    host = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"pages": pages, "seconds": seconds, "host_peak_mb": host, "worker_peak_mb": worker}


def case_floor() -> dict[str, float]:
    """Peak RSS of the bare host: docread and PyMuPDF imported, nothing read."""
    import docread  # noqa: F401
    import pymupdf  # noqa: F401

    return {"host_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def case_startup() -> dict[str, float]:
    """Seconds to ``import docread``, to the first unit of a 1-page PDF from a cold Reader
    (import included), and to read it again on a fresh worker after the first was SIGKILLed."""
    import os
    import signal

    start = time.perf_counter()
    import docread

    imported = time.perf_counter()
    config = {"cache": {"enabled": False}, "isolation": {"workers": 1}}
    with docread.Reader(DATA, config=config) as reader:
        next(iter(reader.iter_units("small0.pdf")))
        first = time.perf_counter()
        [pid] = reader.stats().workers
        os.kill(pid, signal.SIGKILL)
        while pid in reader.stats().workers:
            time.sleep(0.001)
        again = time.perf_counter()
        reader.read("small0.pdf", dedupe=False)
        replaced = time.perf_counter()
    return {
        "import": imported - start,
        "first_unit": first - start,
        "replacement": replaced - again,
    }


def run_case(*args: str, tree: str | None = None) -> dict[str, float]:
    """One case in a fresh process; ``tree``: a checkout whose docread it imports."""
    import os

    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([f"{tree}/core", tree])
        # both trees from compiled bytecode, kept outside them (no checkout is written to)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(DATA / "pycache")
    out = subprocess.run(
        [sys.executable, __file__, *args], check=True, capture_output=True, text=True, env=env
    )
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def startup(before: str, runs: int = 7) -> None:
    """The startup case for this tree and ``before``, interleaved, median of ``runs``."""
    here = str(Path(__file__).resolve().parents[1])
    run_case("make")
    for tree in (before, here):
        run_case("floor", tree=tree)  # compiles each tree's bytecode once
    results: dict[str, list[dict[str, float]]] = {before: [], here: []}
    floor = []
    for _ in range(runs):
        for tree in results:
            results[tree].append(run_case("startup", tree=tree))
        began = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        floor.append(time.perf_counter() - began)
    print(
        f"startup, median of {runs} (s); floor: a bare interpreter {statistics.median(floor):.3f}"
    )
    print(f"  {'':<14}{'before':>9}{'after':>9}{'ratio':>8}")
    for key in ("import", "first_unit", "replacement"):
        old = statistics.median(r[key] for r in results[before])
        new = statistics.median(r[key] for r in results[here])
        print(f"  {key:<14}{old:9.3f}{new:9.3f}{new / old:8.2f}x")


def main() -> None:
    run_case(
        "make"
    )  # the PDFs are made in a child: this process stays small (maxrss survives exec)
    inproc, isolated = run_case("small", "0"), run_case("small", "1")
    overhead = isolated["median_ms"] - inproc["median_ms"]
    print(f"small 1-page PDF x{SMALL_FILES}, warm pool (median / p90 ms per file):")
    print(f"  in-process (floor)  {inproc['median_ms']:7.2f} / {inproc['p90_ms']:7.2f}")
    print(f"  isolated            {isolated['median_ms']:7.2f} / {isolated['p90_ms']:7.2f}")
    print(
        f"  overhead {overhead:+.2f} ms median, ratio {isolated['median_ms'] / inproc['median_ms']:.2f}x"
    )
    floor = run_case("floor")
    print(f"\nstreaming {BIG_PAGES}-page PDF with iter_documents (peak RSS, MB):")
    print(f"  bare host (import docread + fitz)  {floor['host_peak_mb']:7.1f}")
    for label, flag in (("in-process", "0"), ("isolated", "1"), ("iso+cache", "2")):
        r = run_case("stream", flag)
        print(
            f"  {label:<11} host {r['host_peak_mb']:7.1f}  worker {r['worker_peak_mb']:7.1f}  "
            f"({r['pages']} pages in {r['seconds']:.1f} s, host/bare {r['host_peak_mb'] / floor['host_peak_mb']:.2f}x)"
        )


if __name__ == "__main__":
    if len(sys.argv) > 1:
        kind = sys.argv[1]
        flag = len(sys.argv) > 2 and sys.argv[2] in ("1", "2")
        if kind == "make":
            text_pdf(DATA / "big.pdf", BIG_PAGES, BODY)
            text_pdf(DATA / "small0.pdf", 1, BODY)
            result: dict[str, float] = {}
        elif kind == "startup" and len(sys.argv) > 2:
            startup(sys.argv[2], *(int(n) for n in sys.argv[3:4]))
            sys.exit()
        elif kind == "startup":
            result = case_startup()
        elif kind == "floor":
            result = case_floor()
        else:
            result = case_small(flag) if kind == "small" else case_stream(flag, sys.argv[2] == "2")
        print(json.dumps(result))
    else:
        main()
