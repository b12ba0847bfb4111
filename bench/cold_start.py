"""Where a cold start's time goes (issue 35): each case a fresh process, this tree against
``--before`` (a checkout) interleaved, medians of ``--runs``.

- ``timeline``: ``import docread`` and the first unit of a 1-page PDF from a new Reader (as
  ``load_path.py``'s start row), in an interpreter that imported nothing before docread (none
  of this bench's modules: ``subprocess``, ``pathlib``, ``typing``): the moments (seconds from before the import) the host started
  the template (and its CPU seconds then: what the template's start waited for), asked it for
  its first worker and got it, and the first unit; the CPU seconds of the template
  when it answered (its path to the first fork), of the worker to the first unit, and of the host
  when it asked and at the first unit. The machine's other load inflates CPU seconds too: only
  the two trees in one run compare.
- ``warm``: the same read by a process that imported docread 2 s before (its template ready):
  from ``Reader()`` to the first unit, and the moment it asked for its worker: the host's own
  path (the file opened, its cache key, the cache folder opened, the fork asked).
- ``floor``: what no docread can beat: a fresh interpreter that imports PyMuPDF as docread's
  template does (without its layout packages, its table finder loaded on first use) and takes
  the text of the PDF's page, from spawn: the interpreter's start, PyMuPDF's import, the page,
  and the process's CPU seconds (the template pays all three before docread's own work).
- ``idle``: the CPU seconds of the whole process tree of ``python -c 'import docread'`` and of
  one that then sleeps 2 s without reading (the host, and its template, orphaned or not: this
  process is their subreaper).

    .venv/bin/python bench/cold_start.py --before /work/main --runs 9
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _harness import text_pdf

HERE = Path(__file__).resolve()
REPO = HERE.parents[1]
BODY = "The quick brown fox jumps over the lazy dog. " * 8
TIMELINE = (
    "seconds",
    "launched",
    "host_cpu_launch",
    "asked",
    "forked",
    "template_cpu",
    "worker_cpu",
    "host_cpu_asked",
    "host_cpu",
)
FLOOR = (  # perf_counter is CLOCK_MONOTONIC: one clock for this process and the child
    "import time; started = time.perf_counter()\n"
    "import importlib.util, sys\n"
    "for name in ('pymupdf.layout', 'pymupdf4llm'): sys.modules[name] = None\n"
    "class Lazy:  # pymupdf.table loaded on first use, as template._import_pymupdf does\n"
    "    def find_spec(self, name, path, target=None):\n"
    "        if name != 'pymupdf.table': return None\n"
    "        sys.meta_path.remove(self)\n"
    "        spec = importlib.util.find_spec(name)\n"
    "        spec.loader = importlib.util.LazyLoader(spec.loader)\n"
    "        return spec\n"
    "sys.meta_path.insert(0, Lazy())\n"
    "import pymupdf; imported = time.perf_counter()\n"
    "text = pymupdf.open(sys.argv[1])[0].get_text()\n"
    "print(started, imported, time.perf_counter(), time.process_time())"
)
FLOORS = ("seconds", "interpreter", "import", "page", "cpu")
IDLE = {"import": "import docread", "import, 2 s": "import docread, time; time.sleep(2)"}


# One cold start's moments and CPU seconds, or a warm one's (see the module's docstring), in a
# fresh interpreter that imports nothing before ``import docread`` (as a user's script: no
# ``subprocess``, ``pathlib`` or ``typing`` of this bench's already there); argv: the folder, a
# cache folder, "warm" or "cold". Prints a JSON object.
CASE = """
import time; start = time.perf_counter()
import sys
folder, cache, warm = sys.argv[1], sys.argv[2], sys.argv[3] == "warm"
seen = {}

def cpu_seconds(pid):
    with open(f"/proc/{pid}/schedstat", encoding="ascii") as stat:
        return int(stat.read().split()[0]) / 1e9

def launched(event, args):  # the template's start, however it is made
    if event in ("os.posix_spawn", "subprocess.Popen") and "launched" not in seen:
        seen["launched"] = time.perf_counter() - start
        seen["host_cpu_launch"] = time.process_time()

sys.addaudithook(launched)
import docread
docread.Reader  # its import starts the template (``import docread`` alone does not)
from docread.isolation import processes
if warm:
    time.sleep(2)  # the template imports meanwhile, then waits
    start = time.perf_counter()
fork = processes._Template.fork  # the host's first fork request, timed from outside

def timed(self, sock, max_mb):
    seen.setdefault("asked", time.perf_counter() - start)
    seen.setdefault("host_cpu_asked", time.process_time())
    forked = fork(self, sock, max_mb)
    seen.setdefault("forked", time.perf_counter() - start)
    seen.setdefault("template_cpu", cpu_seconds(self.proc.pid))
    seen.setdefault("worker", forked.pid)
    return forked

processes._Template.fork = timed
with docread.Reader(folder, {"cache": {"directory": cache}}) as reader:
    next(iter(reader.iter_units("one.pdf")))
    seen["seconds"] = time.perf_counter() - start
    seen["worker_cpu"] = cpu_seconds(seen["worker"])
    seen["host_cpu"] = time.process_time()
import json
print(json.dumps(seen))
"""


def case_timeline(folder: str, tree: str, kind: str) -> dict[str, float]:
    """``CASE`` in a fresh interpreter importing ``tree``'s docread, ``kind`` "cold" or "warm"
    (a new cache folder each: the read is never a cached one)."""
    cache = tempfile.mkdtemp(dir=folder)
    run = [sys.executable, "-c", CASE, folder, cache, kind]
    out = subprocess.run(run, env=env_of(tree), capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(out.stderr)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def cpu_seconds(pid: int) -> float:
    """A running process's CPU seconds so far (``/proc/PID/schedstat``: nanoseconds on a CPU)."""
    with open(f"/proc/{pid}/schedstat", encoding="ascii") as stat:
        return int(stat.read().split()[0]) / 1e9


def case_floor(pdf: str) -> dict[str, float]:
    """The floor's moments (see the module's docstring), from this process's spawn of it."""
    began = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", FLOOR, pdf], capture_output=True, text=True)
    started, imported, paged, cpu = map(float, out.stdout.split())
    return {
        "seconds": paged - began,
        "interpreter": started - began,
        "import": imported - started,
        "page": paged - imported,
        "cpu": cpu,
    }


def env_of(tree: str) -> dict[str, str]:
    """This environment, importing ``tree``'s docread (bytecode written: a fair start)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([f"{tree}/core", tree])
    return env


def tree_cpu(code: str, tree: str) -> float:
    """CPU seconds of ``python -c code`` and every process it left (reaped here)."""
    subprocess.Popen([sys.executable, "-c", code], env=env_of(tree), cwd=tempfile.gettempdir())
    spent = 0.0
    while True:
        try:
            _, _, usage = os.wait4(-1, 0)
        except ChildProcessError:
            return spent
        spent += usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a checkout to compare with")
    parser.add_argument("--runs", type=int, default=9, help="runs per case (default 9)")
    args = parser.parse_args()
    trees = {"after": str(REPO)}
    if args.before:
        trees = {"before": str(Path(args.before).resolve()), **trees}
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come back here
    print(f"bench/cold_start.py: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="docread-coldstart-") as folder:
        subprocess.run([sys.executable, str(HERE), "make", folder], check=True)
        timeline: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
        warm: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
        idle: dict[tuple[str, str], list[float]] = {}
        floor: list[dict[str, float]] = []
        for _ in range(args.runs):
            floor.append(case_floor(str(Path(folder) / "one.pdf")))
            for label, tree in trees.items():
                timeline[label].append(case_timeline(folder, tree, "cold"))
                warm[label].append(case_timeline(folder, tree, "warm"))
                for case, code in IDLE.items():
                    idle.setdefault((case, label), []).append(tree_cpu(code, tree))
    print(f"\ncold start timeline (median of {args.runs}; seconds)")
    print(f"  {'':8}" + "".join(f"{key:>16}" for key in TIMELINE))
    for label, runs in timeline.items():
        medians = [statistics.median(run[key] for run in runs) for key in TIMELINE]
        print(f"  {label:8}" + "".join(f"{value:16.3f}" for value in medians))
    print(f"\na first read, the template ready (median of {args.runs}; seconds from Reader())")
    for label, runs in warm.items():
        asked, first = (statistics.median(run[key] for run in runs) for key in ("asked", "seconds"))
        print(f"  {label:8} asked {asked:.3f}, first unit {first:.3f}")
    print(f"\nthe floor: interpreter, PyMuPDF's import, the page (median of {args.runs}; seconds)")
    print("  " + "".join(f"{key:>14}" for key in FLOORS))
    print("  " + "".join(f"{statistics.median(r[key] for r in floor):14.3f}" for key in FLOORS))
    print(f"\na never-reading process tree's CPU (median of {args.runs})")
    for (case, label), spent in idle.items():
        print(f"  {case:14} {label:8} {statistics.median(spent):.3f} s")
    print(f"load at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["make"]:
        text_pdf(Path(sys.argv[2]) / "one.pdf", 1, BODY)
    else:
        main()
