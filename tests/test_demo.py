"""examples/demo.py (what ``bash run.sh demo`` runs), twice in a temp copy with its own cache
directory: every sample is read, every printed call is valid Python, the second run hits the cache."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SUMMARY = re.compile(r"(\d+)/(\d+) sample files read; (\d+) agent reads in [\d.]+ s, (\d+) from")


def run_demo(root: Path) -> str:
    env = {**os.environ, "DOCREAD_CONFIG": str(root / "settings.yaml")}
    done = subprocess.run(
        [sys.executable, "examples/demo.py"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, Path]:
    root = tmp_path_factory.mktemp("demo")
    (root / "examples").mkdir()
    for name in ("demo.py", "make_samples.py"):
        shutil.copy(EXAMPLES / name, root / "examples" / name)
    (root / "settings.yaml").write_text(f"cache:\n  directory: {root / 'cache'}\n")
    return run_demo(root), run_demo(root), root


def test_every_sample_is_read_and_every_call_is_valid_python(
    two_runs: tuple[str, str, Path],
) -> None:
    first, _, root = two_runs
    calls = [line[4:] for line in first.splitlines() if line.startswith(">>> ")]
    files = sorted(p.name for p in (root / "examples" / "samples").iterdir())
    assert len(files) >= 12 and len(calls) == len(files) + 6  # + 5 reads with options + loader
    for line in calls:
        call = ast.parse(line, mode="eval").body  # the comment after a call is dropped
        assert isinstance(call, ast.Call) and ast.unparse(call.func).startswith("docread.")
        path = ast.literal_eval(call.args[0])
        assert (root / path).exists(), line  # relative to where the demo ran: paste and go
    assert "docread.read('examples/samples/report.pdf', pages='2-3')" in calls
    assert "[error]" not in first and "[sample skipped]" not in first


def test_the_second_run_is_served_from_the_cache(two_runs: tuple[str, str, Path]) -> None:
    first, second, root = two_runs
    one, two = SUMMARY.search(first), SUMMARY.search(second)
    assert one and two, (first[-500:], second[-500:])
    assert one[1] == one[2] and two[1] == two[2]  # every sample file read, both times
    assert one[4] == "0" and "run the demo again" in first
    assert int(two[4]) >= 6  # PDF, office documents and archives come from the cache
    after = second.split(">>> docread.read('examples/samples/report.pdf')\n", 1)[1]
    assert " (cached), " in next(x for x in after.splitlines() if x.startswith("-- "))
    assert any((root / "cache").iterdir())
