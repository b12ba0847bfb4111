"""The body sanitizer's cost (``sanitize.clean_body``, run once on every unit), before/after in one
run: 1 MB of ASCII prose, of German prose (non-ASCII, nothing to change) and of German prose with
a typographic hyphen and a no-break space every ~90 characters (mapped to what a search types).
Each tree in its own process, rounds interleaved, median of the rounds (each the median of 15
calls).

    python bench/sanitize.py --before /work/main/core [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, statistics, time
from docread.sanitize import clean_body
from docread.settings import Settings
out = Settings().output
german = "Die Qualit\u00e4t nicht englischer Texte \u00fcber Gr\u00f6\u00dfe und Ma\u00dfe wird gepr\u00fcft. "
cases = {"ascii": "The quick brown fox jumps over the lazy dog. " * 23000,
         "german": german * 14000,
         "typographic": (german + "nicht\u2011englisch 10\u00a0km ") * 12000}
found = {}
for name, text in cases.items():
    times = []
    for _ in range(15):
        start = time.perf_counter()
        clean_body(text, out)
        times.append(time.perf_counter() - start)
    found[name] = statistics.median(times) / (len(text.encode()) / 1e6)
print(json.dumps(found))
"""


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True, help="core folder of the 'before' docread")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    trees = {"before": args.before, "after": str(ROOT / "core")}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            done = subprocess.run(
                [sys.executable, "-c", CHILD], env={"PYTHONPATH": tree},
                capture_output=True, text=True, check=True,
            )  # fmt: skip
            runs[name].append(json.loads(done.stdout))
    print(f"{'case':12} {'before ms/MB':>13} {'after ms/MB':>12} {'after/before':>13}")
    for case in runs["before"][0]:
        before = statistics.median(r[case] for r in runs["before"])
        after = statistics.median(r[case] for r in runs["after"])
        print(f"{case:12} {before * 1000:13.2f} {after * 1000:12.2f} {after / before:13.2f}")


if __name__ == "__main__":
    main()
