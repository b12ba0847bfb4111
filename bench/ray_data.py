"""Ray Data on 2 CPUs vs the in-process loader with 2 isolated workers over the same folder (the
corpus PDFs): documents out, seconds (median of interleaved runs, each case in a fresh process,
each reading the folder twice: cold, then warm), the ratio (loader seconds / Ray seconds: >= 0.8x
is the target), documents per second per core, and peak RSS. ``ray.init`` is timed apart; the
docread cache is off in both.

    .venv/bin/python bench/ray_data.py            # 3 interleaved runs of each
    .venv/bin/python bench/ray_data.py --quick    # 1 run of each
    .venv/bin/python bench/ray_data.py --folder some/folder
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pdf"
CONFIG: dict[str, Any] = {"cache": {"enabled": False}, "isolation": {"workers": 2}}
MB = 1024


def case_loader(folder: str) -> dict[str, Any]:
    """docread.iter_documents over the folder with 2 isolated workers, twice in one process: cold
    (workers start, PyMuPDF loads) and warm (the pool is up)."""
    import docread

    def once() -> tuple[int, float]:
        start = time.perf_counter()
        docs = sum(1 for _ in docread.iter_documents(folder, config=CONFIG))
        return docs, time.perf_counter() - start

    (docs, cold), (_, warm) = once(), once()
    return {"docs": docs, "cold": cold, "warm": warm, **_peaks()}


def case_ray(folder: str) -> dict[str, Any]:
    """read_documents on a fresh local Ray with 2 CPUs, twice on that cluster: cold (Ray worker
    processes start and import docread, their docread workers start) and warm."""
    import ray
    from docread.integrations.ray_data import read_documents

    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    init = time.perf_counter() - start

    def once() -> tuple[int, float]:
        start = time.perf_counter()
        docs = sum(1 for _ in read_documents(folder, config=CONFIG).iter_rows())
        return docs, time.perf_counter() - start

    (docs, cold), (_, warm) = once(), once()
    peaks = _peaks()
    ray.shutdown()
    return {"docs": docs, "cold": cold, "warm": warm, "init": init, **peaks}


def _peaks() -> dict[str, float]:
    """Peak RSS (VmHWM) of this process and the largest of the processes under it (docread
    workers; for Ray also the raylet, Ray workers and their docread workers)."""
    import psutil

    children = [_peak_mb(p.pid) for p in psutil.Process().children(recursive=True)]
    return {"driver_peak_mb": _peak_mb(os.getpid()), "workers_peak_mb": max(children, default=0)}


def _peak_mb(pid: int) -> float:
    """VmHWM (the peak resident set) of a process in MB, 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            line = next(x for x in status if x.startswith("VmHWM:"))
        return int(line.split()[1]) / MB
    except (OSError, StopIteration):
        return 0.0


def run_case(kind: str, folder: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--case", kind, "--folder", folder],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", default=str(CORPUS))
    parser.add_argument("--quick", action="store_true", help="one run of each case")
    parser.add_argument("--case", choices=("loader", "ray"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        case = case_loader if args.case == "loader" else case_ray
        print(json.dumps(case(args.folder)))
        return
    runs: dict[str, list[dict[str, Any]]] = {"loader": [], "ray": []}
    for _ in range(1 if args.quick else 3):  # interleaved: machine noise hits both alike
        for kind, results in runs.items():
            results.append(run_case(kind, args.folder))
    last = {k: v[-1] for k, v in runs.items()}
    print(f"folder {args.folder}: {last['loader']['docs']} documents (Ray: {last['ray']['docs']})")
    print(
        f"ray.init (not counted below): {statistics.median(r['init'] for r in runs['ray']):.1f} s"
    )
    docs = last["loader"]["docs"]
    for phase in ("cold", "warm"):
        med = {k: statistics.median(r[phase] for r in v) for k, v in runs.items()}
        print(
            f"{phase}: loader, 2 isolated workers (floor) {med['loader']:6.2f} s, "
            f"Ray Data on 2 CPUs {med['ray']:6.2f} s, ratio loader/Ray "
            f"{med['loader'] / med['ray']:.2f}x (>= 0.8x wanted); per core: loader "
            f"{docs / med['loader'] / 2:.1f}, Ray {docs / med['ray'] / 2:.1f} documents/s"
        )
    for kind, r in last.items():
        print(
            f"peak RSS {kind:<6}: driver {r['driver_peak_mb']:6.1f} MB, "
            f"largest process under it {r['workers_peak_mb']:6.1f} MB"
        )


if __name__ == "__main__":
    main()
