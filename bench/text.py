"""Text reading benchmark, side by side with the floor in one run.

1. A generated 1 GB log, ``offset=1, limit=50``: docread.read vs reading 50 lines with plain
   ``open()``; wall time and peak RSS, each case in a fresh process (goal: < 0.5 s, < 100 MB).
2. A 10,000-line source file read whole with cat -n numbering: docread.read(limit=0).render() vs
   ``open().readlines()`` + numbering (goal: within 2x), median of warm runs.

    python bench/text.py [--size-gb 1]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).parent / "data"

CASE = r"""
import json, resource, sys, time
path, kind = sys.argv[1], sys.argv[2]
start = time.perf_counter()
warm = None
if kind == "docread":
    import docread
    text = docread.read(path, workspace="/", offset=1, limit=50).render()
    runs = []
    for _ in range(20):
        t = time.perf_counter()
        docread.read(path, workspace="/", offset=1, limit=50).render()
        runs.append(time.perf_counter() - t)
    warm = sorted(runs)[10]
else:
    with open(path, encoding="utf-8") as f:
        text = "\n".join(f"{n:>6}\t{line.rstrip(chr(10))}" for n, line in zip(range(1, 51), f))
wall = time.perf_counter() - start
print(json.dumps({"wall": wall, "warm": warm, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "chars": len(text)}))
"""


def make_log(size_gb: float) -> Path:
    path = DATA / f"big-{size_gb:g}gb.log"
    target = int(size_gb * 1024**3)
    if path.exists() and path.stat().st_size >= target:
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    block = "".join(
        f"2026-11-22T10:{i % 60:02d}:{i % 60:02d} INFO worker-{i % 8} handled request {i} in {i % 997} ms\n"
        for i in range(20000)
    ).encode()
    with path.open("wb") as f:
        written = 0
        while written < target:
            f.write(block)
            written += len(block)
    return path


def run_case(path: Path, kind: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CASE, str(path), kind], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def median_time(fn, repeat: int = 20) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-gb", type=float, default=1.0)
    args = parser.parse_args()

    log = make_log(args.size_gb)
    print(
        f"1) {log.name} ({log.stat().st_size / 1024**3:.2f} GB), offset=1 limit=50, fresh process each"
    )
    floor = min((run_case(log, "floor") for _ in range(3)), key=lambda r: r["wall"])
    ours = min((run_case(log, "docread") for _ in range(3)), key=lambda r: r["wall"])
    print(
        f"   floor open()+50 lines : {floor['wall'] * 1000:8.1f} ms   peak RSS {floor['rss_mb']:6.1f} MB"
    )
    print(f"   docread.read          : {ours['wall'] * 1000:8.1f} ms   peak RSS {ours['rss_mb']:6.1f} MB"
          f"   warm {ours['warm'] / floor['wall']:.0f}x the floor"
          f" (cold: includes importing docread; median warm read {ours['warm'] * 1000:.2f} ms)")  # fmt: skip

    import docread

    src = DATA / "source_10k.py"
    src.write_text(
        "".join(f"def function_{i}(x):  # line {i}\n    return x * {i}\n" for i in range(5000))
    )

    def floor_read() -> str:
        with open(src, encoding="utf-8") as f:
            return "\n".join(
                f"{n:>6}\t{line.rstrip(chr(10))}" for n, line in enumerate(f.readlines(), 1)
            )

    # the whole file: past the agent view's default token budget (25,000 tokens, ~100 KB)
    whole = {"cache": {"enabled": False}, "output": {"max_tokens": 10_000_000}}
    reader = docread.Reader("/", config=whole)

    def docread_read() -> str:
        return reader.read(str(src), limit=0, dedupe=False).render()

    assert docread_read() == floor_read(), "outputs differ"
    t_floor, t_ours = median_time(floor_read), median_time(docread_read)
    print(f"2) {src.name} (10,000 lines), whole file with cat -n numbering, median of 20 warm runs")
    print(f"   floor readlines+number: {t_floor * 1000:8.2f} ms")
    print(
        f"   docread.read().render : {t_ours * 1000:8.2f} ms   ratio {t_ours / t_floor:.2f}x the floor"
    )


if __name__ == "__main__":
    main()
