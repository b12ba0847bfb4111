"""Ray Data on 2 CPUs vs the in-process loader with 2 isolated workers over the same folder (the
corpus PDFs): documents out, seconds (median of interleaved runs, each case in a fresh process,
each reading the folder twice: cold, then warm), the ratio (loader seconds / Ray seconds: >= 0.8x
is the target), documents per second per core, and peak RSS. ``ray.init`` is timed apart; the
docread cache is off in both.

``--cluster`` (issue 27): Ray on a 2-node local cluster (``ray.cluster_utils.Cluster``, one CPU
per node) against the loader with 2 workers over the whole shared corpus (every format,
automatic OCR: a job of over a minute), each read once (cold: worker starts included, as a job
pays them), one run of each by default (the job costs minutes of 2 shared cores); the goal is
>= 0.9x. The cluster's start is timed apart.

    .venv/bin/python bench/ray_data.py            # 3 interleaved runs of each
    .venv/bin/python bench/ray_data.py --quick    # 1 run of each
    .venv/bin/python bench/ray_data.py --folder some/folder
    .venv/bin/python bench/ray_data.py --cluster  # 2 nodes vs 2 workers, the corpus, once
    .venv/bin/python bench/ray_data.py --cluster --copies 2  # the corpus twice: over a minute
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _harness import CORPUS

CONFIG: dict[str, Any] = {"cache": {"enabled": False}, "isolation": {"workers": 2}}
MB = 1024


def case_loader(folder: str, passes: int = 2) -> dict[str, Any]:
    """docread.iter_documents over the folder with 2 isolated workers, twice in one process: cold
    (workers start, PyMuPDF loads) and warm (the pool is up); ``passes=1``: cold only."""
    import docread

    def once() -> tuple[int, float]:
        start = time.perf_counter()
        docs = sum(1 for _ in docread.iter_documents(folder, config=CONFIG))
        return docs, time.perf_counter() - start

    docs, cold = once()
    warm = once()[1] if passes > 1 else cold
    return {"docs": docs, "cold": cold, "warm": warm, **_peaks()}


def case_ray(folder: str, passes: int = 2, cluster: bool = False) -> dict[str, Any]:
    """read_documents on a fresh local Ray with 2 CPUs (``cluster``: 2 nodes of one CPU), twice
    on it: cold (Ray worker processes start and import docread, their docread workers start)
    and warm; ``passes=1``: cold only."""
    import ray
    from docread.integrations.ray_data import read_documents

    start = time.perf_counter()
    nodes = None
    if cluster:
        from ray.cluster_utils import Cluster

        nodes = Cluster(
            initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False}
        )
        nodes.add_node(num_cpus=1)
        nodes.wait_for_nodes()
        ray.init(address=nodes.address, log_to_driver=False)
    else:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    init = time.perf_counter() - start

    def once() -> tuple[int, float]:
        start = time.perf_counter()
        docs = sum(1 for _ in read_documents(folder, config=CONFIG).iter_rows())
        return docs, time.perf_counter() - start

    docs, cold = once()
    warm = once()[1] if passes > 1 else cold
    peaks = _peaks()
    ray.shutdown()
    if nodes is not None:
        nodes.shutdown()
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


def run_case(kind: str, folder: str, cluster: bool) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, __file__, "--case", kind, "--folder", folder, *(["--cluster"] * cluster)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", help="default: the corpus PDFs (--cluster: the corpus)")
    parser.add_argument("--quick", action="store_true", help="one run of each case")
    parser.add_argument("--cluster", action="store_true", help="2 nodes, a job of minutes, once")
    parser.add_argument("--runs", type=int, help="runs of each (default 3; quick, cluster: 1)")
    parser.add_argument("--copies", type=int, default=1, help="read the folder N times over")
    parser.add_argument("--case", choices=("loader", "ray"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = args.folder or str(CORPUS if args.cluster else CORPUS / "pdf")
    passes = 1 if args.cluster else 2
    if args.copies > 1 and not args.case:
        with tempfile.TemporaryDirectory(prefix="docread-ray-") as tmp:
            for n in range(args.copies):  # copies, not links: the sandbox refuses links out
                shutil.copytree(folder, Path(tmp) / f"copy{n}")
            compare(tmp, passes, args)
        return
    if args.case:
        if args.case == "loader":
            print(json.dumps(case_loader(folder, passes)))
        else:
            print(json.dumps(case_ray(folder, passes, args.cluster)))
        return
    compare(folder, passes, args)


def compare(folder: str, passes: int, args: argparse.Namespace) -> None:
    """Both cases, interleaved, and the table."""
    runs: dict[str, list[dict[str, Any]]] = {"loader": [], "ray": []}
    for _ in range(args.runs or (1 if args.quick or args.cluster else 3)):  # interleaved
        for kind, results in runs.items():
            results.append(run_case(kind, folder, args.cluster))
    last = {k: v[-1] for k, v in runs.items()}
    print(f"folder {folder}: {last['loader']['docs']} documents (Ray: {last['ray']['docs']})")
    shape = "2-node local cluster (1 CPU each)" if args.cluster else "ray.init"
    print(
        f"{shape} start (not counted below): "
        f"{statistics.median(r['init'] for r in runs['ray']):.1f} s"
    )
    docs = last["loader"]["docs"]
    for phase in ("cold",) if args.cluster else ("cold", "warm"):
        med = {k: statistics.median(r[phase] for r in v) for k, v in runs.items()}
        print(
            f"{phase}: loader, 2 isolated workers (floor) {med['loader']:6.2f} s, "
            f"Ray Data on 2 CPUs {med['ray']:6.2f} s, ratio loader/Ray "
            f"{med['loader'] / med['ray']:.2f}x (>= {0.9 if args.cluster else 0.8}x wanted); "
            f"per core: loader "
            f"{docs / med['loader'] / 2:.1f}, Ray {docs / med['ray'] / 2:.1f} documents/s"
        )
    for kind, r in last.items():
        print(
            f"peak RSS {kind:<6}: driver {r['driver_peak_mb']:6.1f} MB, "
            f"largest process under it {r['workers_peak_mb']:6.1f} MB"
        )


if __name__ == "__main__":
    main()
