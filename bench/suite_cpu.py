"""The test suite's CPU, test by test: a pytest plugin (``-p suite_cpu`` with ``bench/`` on
PYTHONPATH) and its report (``python bench/suite_cpu.py report FOLDER``).

Wall time on a shared machine says little; CPU seconds do. Each pytest process (the controller,
every xdist worker) writes one JSON line per test phase to ``$SUITE_CPU_DIR/<process>.jsonl``:
the CPU its whole process tree spent in that phase (setup, call, teardown) and in collection. A
process tree's CPU is the process's own, its reaped children's, and every live descendant's own
and reaped children's (``/proc/PID/stat`` utime, stime, cutime, cstime): a shared worker pool or
a Ray cluster still alive is counted as it runs, not when it is reaped. Descendants that detach
(reparented away) are lost from then on: a phase where the tree's CPU drops counts 0, the
drop is reported as CPU that left the tree (a Ray node shut down, a killed template). A module- or session-scoped fixture's start is in the
setup of the first test that uses it, its end in the teardown of the last.

    SUITE_CPU_DIR=/tmp/cpu PYTHONPATH=bench bash run.sh test -p suite_cpu
    python bench/suite_cpu.py report /tmp/cpu [--top 40]
    python bench/suite_cpu.py compare /tmp/cpu-before /tmp/cpu-after [--top 40]
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TICK = os.sysconf("SC_CLK_TCK")


def _stats() -> dict[int, tuple[int, float]]:
    """Every process's (parent pid, CPU seconds of it and its reaped children)."""
    out: dict[int, tuple[int, float]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        fields = raw[raw.rindex(b")") + 2 :].split()
        ticks = sum(int(x) for x in fields[11:15])  # utime stime cutime cstime
        out[int(name)] = (int(fields[1]), ticks / TICK)
    return out


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root``'s process tree: itself, its live descendants, their reaped ones."""
    stats = _stats()
    children: dict[int, list[int]] = defaultdict(list)
    for pid, (ppid, _) in stats.items():
        children[ppid].append(pid)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats.get(pid, (0, 0.0))[1]
        todo.extend(children.get(pid, ()))
    return total


class Recorder:
    """Writes a line per phase: ``{"id", "phase", "cpu", "wall", "load"}``."""

    def __init__(self, folder: Path, name: str) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.out = (folder / f"{name}.jsonl").open("a", encoding="utf-8")
        self.pid = os.getpid()
        self.overhead = 0.0
        self.last: tuple[float, float] | None = None  # the last phase's end: the next's start

    def now(self) -> tuple[float, float]:
        start = time.process_time()
        cpu = tree_cpu(self.pid)
        self.overhead += time.process_time() - start
        return cpu, time.perf_counter()

    def write(self, ident: str, phase: str, before: tuple[float, float] | None) -> None:
        """A phase's line: the tree's CPU and the wall time since ``before`` (None: the total
        CPU of the tree so far; the recorder's own CPU for ``overhead``)."""
        cpu, wall = self.now()
        if phase == "overhead":
            cpu = self.overhead
        spent = cpu - before[0] if before else cpu
        self.last = (cpu, wall)
        line = {"id": ident, "phase": phase, "cpu": round(spent, 3),
                "wall": round(wall - before[1], 3) if before else 0.0,
                "load": os.getloadavg()[0]}  # fmt: skip
        self.out.write(json.dumps(line) + "\n")
        self.out.flush()


_recorder: Recorder | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _recorder
    folder = os.environ.get("SUITE_CPU_DIR")
    if folder:
        name = os.environ.get("PYTEST_XDIST_WORKER", "controller")
        _recorder = Recorder(Path(folder), f"{name}-{os.getpid()}")


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[Any]:
    before = _recorder.now() if _recorder else None
    try:
        return (yield)
    finally:
        if _recorder and before:
            _recorder.write("<collection>", "collect", before)


def _phase(item: pytest.Item, phase: str) -> Iterator[Any]:
    """A phase's CPU from the end of the one before it (between two tests: the next's setup)."""
    before = (_recorder.last or _recorder.now()) if _recorder else None
    try:
        return (yield)
    finally:
        if _recorder and before:
            _recorder.write(item.nodeid, phase, before)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[Any]:
    return (yield from _phase(item, "setup"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[Any]:
    return (yield from _phase(item, "call"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[Any]:
    return (yield from _phase(item, "teardown"))


def pytest_unconfigure(config: pytest.Config) -> None:
    if _recorder:
        _recorder.write("<overhead>", "overhead", None)
        _recorder.out.close()


class Run:
    """One run's records, summed: per test (CPU per phase, wall), per module ([CPU, wall, tests]),
    collection CPU per process, the recorder's own CPU, the CPU that left the tree."""

    def __init__(self, folder: Path) -> None:
        self.per_test: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        self.per_module: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
        self.collect: list[float] = []
        self.overhead = self.lost = 0.0
        # per pytest process: [CPU, wall] of its tests, and its modules in the order it ran them
        self.per_process: dict[str, list[float]] = {}
        self.order: dict[str, list[str]] = {}
        for path in sorted(folder.glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                self._add(row)
                if row["phase"] in ("setup", "call", "teardown"):
                    worker = self.per_process.setdefault(path.stem, [0.0, 0.0])
                    worker[0] += max(row["cpu"], 0.0)
                    worker[1] += row["wall"]
                    modules = self.order.setdefault(path.stem, [])
                    if not modules or modules[-1] != row["id"].split("::")[0]:
                        modules.append(row["id"].split("::")[0])
        for test_id in self.per_test:
            self.per_module[test_id.split("::")[0]][2] += 1

    def _add(self, row: dict[str, Any]) -> None:
        if row["phase"] == "collect":
            self.collect.append(row["cpu"])
        elif row["phase"] == "overhead":
            self.overhead += row["cpu"]
        else:  # a drop is CPU that left the tree (a Ray node, a killed template's workers)
            self.lost += min(row["cpu"], 0.0)
            cpu = max(row["cpu"], 0.0)
            test = self.per_test[row["id"]]
            test[row["phase"]] += cpu
            test["wall"] += row["wall"]
            module = self.per_module[row["id"].split("::")[0]]
            module[0] += cpu
            module[1] += row["wall"]

    def total(self) -> float:
        return sum(sum(v for k, v in t.items() if k != "wall") for t in self.per_test.values())

    def summary(self) -> str:
        return (
            f"tests: {len(self.per_test)}, their CPU {self.total():.1f} s (phases where CPU left "
            f"the tree counted 0: {-self.lost:.1f} s left); collection {sum(self.collect):.1f} s "
            f"in {len(self.collect)} processes; the recorder's own {self.overhead:.1f} s"
        )


def report(folder: Path, top: int) -> None:
    """The tests (phases summed) and the modules by CPU, most first; totals; each pytest
    process's tests' CPU and wall, and the modules it ran first and last."""
    run = Run(folder)
    per_test, per_module = run.per_test, run.per_module
    print(run.summary())
    print("\n| test | CPU s | setup | call | teardown | wall s |\n|---|---|---|---|---|---|")
    ranked = sorted(
        per_test.items(), key=lambda kv: -sum(v for k, v in kv[1].items() if k != "wall")
    )
    for test_id, t in ranked[:top]:
        cpu = t["setup"] + t["call"] + t["teardown"]
        print(f"| {test_id} | {cpu:.1f} | {t['setup']:.1f} | {t['call']:.1f} | "
              f"{t['teardown']:.1f} | {t['wall']:.1f} |")  # fmt: skip
    print("\n| module | tests | CPU s | wall s |\n|---|---|---|---|")
    for module, (cpu, wall, count) in sorted(per_module.items(), key=lambda kv: -kv[1][0]):
        print(f"| {module} | {count:.0f} | {cpu:.1f} | {wall:.1f} |")
    # the xdist critical path: a worker whose tests' wall ends long after the others' had a long
    # module left for last
    print("\n| process | CPU s | wall s | modules | first, last |\n|---|---|---|---|---|")
    for name, (cpu, wall) in sorted(run.per_process.items()):
        modules = run.order[name]
        ends = f"{Path(modules[0]).name}, {Path(modules[-1]).name}"
        print(f"| {name} | {cpu:.1f} | {wall:.1f} | {len(modules)} | {ends} |")


def compare(before: Path, after: Path, top: int) -> None:
    """Two runs' modules side by side (CPU s before, after, the change), by CPU before; totals."""
    old, new = Run(before), Run(after)
    print(f"before: {old.summary()}\nafter:  {new.summary()}")
    print("\n| module | tests | CPU s before | after | change |\n|---|---|---|---|---|")
    modules = sorted({*old.per_module, *new.per_module},
                     key=lambda m: -old.per_module.get(m, [0.0])[0])  # fmt: skip
    for module in modules[:top]:
        was, now = (
            old.per_module.get(module, [0.0, 0.0, 0]),
            new.per_module.get(module, [0.0, 0.0, 0]),
        )
        print(f"| {module} | {now[2]:.0f} | {was[0]:.1f} | {now[0]:.1f} | {now[0] - was[0]:+.1f} |")
    print(f"| collection | | {sum(old.collect):.1f} | {sum(new.collect):.1f} | "
          f"{sum(new.collect) - sum(old.collect):+.1f} |")  # fmt: skip


if __name__ == "__main__":
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 40
    if len(sys.argv) >= 3 and sys.argv[1] == "report":
        report(Path(sys.argv[2]), top)
    elif len(sys.argv) >= 4 and sys.argv[1] == "compare":
        compare(Path(sys.argv[2]), Path(sys.argv[3]), top)
    else:
        sys.exit(__doc__)
