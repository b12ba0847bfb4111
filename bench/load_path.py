"""Issue 35's table, the load path's speed (``bench/scale.py --table 35`` runs it): each row's
cases interleaved, each case a fresh process timed from spawn to exit (process start included),
the median of ``--repeats`` runs, this tree against ``--before`` (a checkout, or a git ref of
this repository, exported to a temp folder) in the same run, ratios and peak RSS (the case's own
process and its largest child).

- shared corpus, every format, automatic OCR: 2 workers / 1 worker;
- the corpus PDFs three times over, ``pdf.structure: off``: 1 worker / raw PyMuPDF in 1 process,
  2 workers / raw in 2 processes (raw: ``page.get_text()`` only, pages split over processes;
  PyMuPDF as a user's ``import pymupdf`` gives it, its settings untouched: in an environment
  with its layout packages, as this bench's, pymupdf4llm's import turns quad corrections off,
  as docread's ``off`` reads; the import itself, ~0.9 s of CPU with them and 0.13 s without, is
  timed apart, and so is each docread case's ``import docread``: the same floor as
  bench/structure.py's, whose raw case imports before its clock starts);
- small mixed files (txt, md, csv, json, html, docx; ``--small`` of them): 2 workers / 1;
- cold start: ``import docread`` and the first unit of a 1-page PDF from a new Reader (default
  settings, a fresh cache folder), seconds inside a fresh interpreter that imported nothing
  before docread, and the part of it to the Reader made (``reader``: ``import docread`` alone
  defers the Reader's modules) (``--repeats`` x 3 runs; where that time goes:
  bench/cold_start.py);
- a 100-page PDF read cold (a new Reader, an empty cache) against re-read from the cache (a new
  Reader), 5 rounds in one process: cold / cached.

    .venv/bin/python bench/scale.py --table 35 --before 601ec3e
    .venv/bin/python bench/load_path.py --before 601ec3e --rows start,cached   # some rows
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

from _harness import CORPUS, text_pdf

HERE = Path(__file__).resolve()
REPO = HERE.parents[1]
SCALE = str(HERE.parent / "scale.py")
BODY = "The quick brown fox jumps over the lazy dog. " * 8
ROWS = ("start", "cached", "pdfs", "small", "corpus")  # short rows first


# -- cases run in a fresh process (``load_path.py case KIND ...``) ------------------------------
# The cold start, in an interpreter that imported nothing before ``import docread`` (as a user's
# script; cold_start.py's way): seconds from before the import to the first unit of ``one.pdf``
# from a new Reader with the default settings, the cache in a fresh folder (nothing read
# before); argv: the folder. (Run in this bench's own process, as it was, its stdlib modules,
# ``json``, ``subprocess``, ``tempfile``, ``pathlib``, ``typing``, came free: the start read short.)
# ``reader``: seconds to the Reader made, what a user's ``Reader()`` pays before its first read
# (``import docread`` alone imports nothing of the Reader's: its names load on first use).
START = """
import time; start = time.perf_counter()
import sys, os
folder = sys.argv[1]
import docread
cache = os.path.join(folder, f"cache-{os.getpid()}")
with docread.Reader(folder, {"cache": {"directory": cache}}) as reader:
    made = time.perf_counter()
    next(iter(reader.iter_units("one.pdf")))
    first = time.perf_counter()
import json, resource
usage = resource.getrusage
print(json.dumps({"seconds": first - start, "reader": made - start,
                  "host_mb": usage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "child_mb": usage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def case_cached(folder: str, rounds: int = 5) -> dict[str, Any]:
    """``doc100.pdf`` read whole by a new Reader with an empty cache (cold: its worker's start
    included), re-read by that Reader (cached), then by a new Reader (cached, the Reader's start
    included); the median seconds of each over ``rounds``."""
    import docread

    cache = Path(folder) / "cache"
    config = {"cache": {"directory": str(cache)}, "pdf": {"max_pages_text": 100}}

    def read(reader: docread.Reader) -> float:
        began = time.perf_counter()
        assert len(reader.read("doc100.pdf", pages="1-100").documents) == 100
        return time.perf_counter() - began

    with docread.Reader(folder, config) as reader:
        read(reader)  # the process's template and imports: not what a cold read measures
    times: dict[str, list[float]] = {"cold": [], "cached": [], "new_reader": []}
    for _ in range(rounds):
        shutil.rmtree(cache, ignore_errors=True)
        began = time.perf_counter()
        with docread.Reader(folder, config) as reader:
            read(reader)
            times["cold"].append(time.perf_counter() - began)
            times["cached"].append(read(reader))
        began = time.perf_counter()
        with docread.Reader(folder, config) as reader:
            read(reader)
        times["new_reader"].append(time.perf_counter() - began)
    return {key: statistics.median(values) for key, values in times.items()}


# -- running them -------------------------------------------------------------------------------
def spawn(script: str, args: list[str], tree: str | None, code: str = "") -> dict[str, Any]:
    """``python script case *args`` (or ``python -c code *args`` in the temp folder: nothing of
    this bench's imported) with ``tree``'s docread (None: this tree's): its JSON, with
    ``wall`` (seconds from spawn to exit), ``cpu`` (CPU seconds of its whole tree: the template
    reaps its workers and the case its template, so ``wait4`` counts them), ``host_mb`` (the
    case process's peak RSS, as it measured it) and ``peak_mb`` (the largest process of its
    tree, as ``wait4`` reports it)."""
    env = dict(os.environ)
    if tree is not None:  # both trees from bytecode kept outside them
        env["PYTHONPATH"] = os.pathsep.join([f"{tree}/core", tree])
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "docread-bench-pycache")
    command = ["-c", code] if code else [script, "case"]
    began = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *command, *args], stdout=subprocess.PIPE, text=True, env=env,
        cwd=tempfile.gettempdir() if code else None,
    )  # fmt: skip
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - began
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"case {args} failed ({proc.returncode})")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    cpu = usage.ru_utime + usage.ru_stime
    result.update(wall=wall, cpu=cpu, peak_mb=usage.ru_maxrss / 1024)
    return result


def raw(folder: str, processes: int) -> dict[str, Any]:
    """Raw PyMuPDF over the folder's PDFs in ``processes`` processes (scale.py's floor); ``cpu``:
    their CPU seconds (reaped by ``run_raw`` in this process)."""
    import resource

    from scale import run_raw

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = run_raw(folder, processes)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    cpu -= result["import_cpu"]  # ``import pymupdf`` timed apart, as run_raw times its wall
    return {**result, "wall": result["seconds"], "cpu": cpu, "peak_mb": result["host_mb"]}


def imports_apart(result: dict[str, Any]) -> dict[str, Any]:
    """A docread case's wall and CPU seconds without its ``import docread`` (scale.case_docread
    times it), as the raw floor's are without its ``import pymupdf``."""
    result["wall"] -= result.get("import", 0.0)
    result["cpu"] -= result.get("import_cpu", 0.0)
    return result


def tree_of(before: str, tmp: Path) -> str:
    """``before`` as a folder: itself when it is one, else the git ref exported from this
    repository into ``tmp``."""
    if Path(before).is_dir():
        return str(Path(before).resolve())
    out = tmp / "before"
    out.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", before], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    return str(out)


class Table:
    """Rows of cases, each timed for every tree; printed as they come and summed up at the end."""

    def __init__(self, trees: dict[str, str | None], repeats: int) -> None:
        self.trees, self.repeats = trees, repeats
        self.lines: list[str] = []

    def row(
        self,
        title: str,
        cases: dict[str, list[str] | tuple[str, int]],
        ratios: list[tuple[str, str, float]],
    ) -> None:
        """``cases``: name -> a scale.py case's arguments (run once per tree, the name prefixed
        with the tree's label) or a raw floor (folder, processes: run once); wall seconds.
        ``ratios``: (slow, fast, goal), a name without a tree taking each tree's."""
        runs: dict[str, list[dict[str, Any]]] = {}
        for _ in range(self.repeats):
            for name, args in cases.items():
                if isinstance(args, tuple):
                    runs.setdefault(name, []).append(raw(*args))
                    continue
                for label, tree in self.trees.items():
                    done = imports_apart(spawn(SCALE, args, tree))
                    runs.setdefault(f"{label}, {name}", []).append(done)
        med = self.show(title, runs, "wall")
        for slow, fast, goal in ratios:
            for label in self.trees:
                a = slow if slow in med else f"{label}, {slow}"
                b = fast if fast in med else f"{label}, {fast}"
                self.ratio(title, f"{b} / {a}", med[a] / med[b], goal)

    def within(
        self,
        title: str,
        args: list[str],
        keys: tuple[str, str],
        goal: float,
        *,
        most: bool = False,
        also: tuple[str, ...] = (),
        code: str = "",
    ) -> None:
        """A case of this script (or ``code`` in a fresh interpreter) that times two things
        itself (``keys``), run once per tree: the ratio keys[0] / keys[1] at least ``goal``, or
        with ``most`` keys[1] at most ``goal`` seconds; ``also``: more keys shown."""
        runs: dict[str, list[dict[str, Any]]] = {}
        for _ in range(self.repeats):
            for label, tree in self.trees.items():
                runs.setdefault(label, []).append(spawn(str(HERE), args, tree, code))
        med = {key: self.show(f"{title}: {key}", runs, key) for key in (*keys, *also)}
        for label in runs:
            if most:
                took = med[keys[1]][label]
                mark = "ok" if took <= goal else "BELOW"
                self.lines.append(f"{title}: {label} {took:.3f} s (goal <= {goal} s: {mark})")
            else:
                ratio = med[keys[0]][label] / med[keys[1]][label]
                self.ratio(title, f"{label}, {keys[0]} / {keys[1]}", ratio, goal)

    def show(self, title: str, runs: dict[str, list[dict[str, Any]]], key: str) -> dict[str, float]:
        """Each case's median ``key`` and peak RSS (its own process, the largest of its tree);
        for wall times also the least wall and the tree's CPU seconds (median, least): on a
        shared machine the least is the steadier reading, and CPU tells work from waiting."""
        print(f"\n{title} (median of {self.repeats})")
        med = {name: statistics.median(r[key] for r in rs) for name, rs in runs.items()}
        for name, rs in runs.items():
            host = max(r.get("host_mb", 0.0) for r in rs)
            peak = max(r.get("peak_mb", 0.0) for r in rs)
            extra = ""
            if key == "wall" and all("cpu" in r for r in rs):
                cpu = [r["cpu"] for r in rs]
                least = min(r["wall"] for r in rs)
                extra = f" (least {least:.3f}); CPU {statistics.median(cpu):.2f} s (least {min(cpu):.2f})"
            print(
                f"  {name:<28} {med[name]:8.3f} s{extra}  peak RSS {host:6.1f} MB, "
                f"its tree {peak:6.1f} MB"
            )
        return med

    def ratio(self, title: str, name: str, ratio: float, goal: float) -> None:
        line = f"{name}: {ratio:.2f}x (goal >= {goal}x: {'ok' if ratio >= goal else 'BELOW'})"
        print(f"  {line}")
        self.lines.append(f"{title}: {line}")


def table35(before: str | None, repeats: int, rows: tuple[str, ...], small: int) -> None:
    """Issue 35's rows, this tree against ``before`` when given."""
    print(
        f"bench/load_path.py: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, {repeats} repeats"
    )
    with tempfile.TemporaryDirectory(prefix="docread-loadpath-") as name:
        tmp = Path(name)
        trees: dict[str, str | None] = {"after": str(REPO)}
        if before:
            trees = {"before": tree_of(before, tmp), **trees}
        table = Table(trees, repeats)
        for script in (SCALE, str(HERE)):  # inputs made in children: this process stays small
            run = [sys.executable, script, "case", "make27", name]
            subprocess.run(run, check=True, capture_output=True)
        off = json.dumps({"pdf": {"structure": "off"}})
        if "start" in rows:
            saved, table.repeats = table.repeats, repeats * 3
            table.within(
                "cold start: import docread + the first unit of a 1-page PDF",
                [str(tmp / "start")], ("reader", "seconds"), 0.3, most=True, code=START,
            )  # fmt: skip
            table.repeats = saved
        if "cached" in rows:
            table.within(
                "a 100-page PDF read cold, then re-read (median of 5 in one process)",
                ["cached", str(tmp / "cached")], ("cold", "cached"), 50, also=("new_reader",),
            )  # fmt: skip
        if "pdfs" in rows:
            pdf3 = str(tmp / "pdf3")
            table.row(
                "corpus PDFs x3, pdf.structure: off",
                {
                    "raw, 1 process": (pdf3, 1), "raw, 2 processes": (pdf3, 2),
                    "1 worker": ["docread", name, "pdf3", "1", off],
                    "2 workers": ["docread", name, "pdf3", "2", off],
                },
                [("raw, 1 process", "1 worker", 0.9), ("raw, 2 processes", "2 workers", 0.9)],
            )  # fmt: skip
        if "small" in rows:
            subprocess.run([sys.executable, SCALE, "case", "mixed", name, str(small)], check=True,
                           capture_output=True)  # fmt: skip
            table.row(
                f"{small:,} small mixed files",
                {f"{w} worker{'s' * (w > 1)}": ["docread", name, "mixed", str(w)] for w in (1, 2)},
                [("1 worker", "2 workers", 1.7)],
            )  # fmt: skip
        if "corpus" in rows:
            table.row(
                "shared corpus, every format, automatic OCR",
                {f"{w} worker{'s' * (w > 1)}": ["docread", str(CORPUS), ".", str(w)] for w in (1, 2)},
                [("1 worker", "2 workers", 1.85)],
            )  # fmt: skip
        print("\nsummary")
        for line in table.lines:
            print(f"  {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="a checkout or a git ref to compare with")
    parser.add_argument("--repeats", type=int, default=3, help="runs per case (default 3)")
    parser.add_argument("--rows", default=",".join(ROWS), help=f"some of {','.join(ROWS)}")
    parser.add_argument("--small", type=int, default=10000, help="small mixed files (10,000)")
    args = parser.parse_args()
    table35(args.before, args.repeats, tuple(args.rows.split(",")), args.small)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "case":
        import resource

        kind, rest = sys.argv[2], sys.argv[3:]
        if kind == "make27":  # this table's own inputs (scale.py makes the others)
            text_pdf(Path(rest[0]) / "start" / "one.pdf", 1, BODY)
            text_pdf(Path(rest[0]) / "cached" / "doc100.pdf", 100, BODY * 4)
            result: dict[str, Any] = {}
        else:
            result = case_cached(rest[0])
        result["host_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        result["child_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(json.dumps(result))
    else:
        main()
