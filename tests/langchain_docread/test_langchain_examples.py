"""The LangChain examples run offline as a user runs them: examples/langchain_rag.py (BM25
retrieval citing file and page) and examples/langchain_agent.py --offline (the whole LangGraph
loop with a scripted model)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from readme_blocks import Forks, imported

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = (ROOT / "examples" / "langchain_rag.py", ROOT / "examples" / "langchain_agent.py")


@pytest.fixture(scope="module")
def example_forks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Forks]:
    """One interpreter that imported the examples' LangChain and LangGraph stack (~1.5 s of
    CPU) and forks a process per run of one (``readme_blocks.Forks``), instead of each
    importing it again."""
    modules = {name for script in EXAMPLES for name in imported(script.read_text())}
    env = {**os.environ, "HOME": str(tmp_path_factory.mktemp("home"))}
    server = Forks(tmp_path_factory.mktemp("forks"), modules, env)
    yield server
    server.close()


def test_rag_example_runs_offline(example_forks: Forks) -> None:
    out = example_forks.script(EXAMPLES[0], cwd=Path.cwd(), env=dict(os.environ), timeout=120)
    assert out.returncode == 0, out.stderr
    assert "warranty expires 24 months after the date of purchase. [report.pdf p.3]" in out.stdout


def test_agent_example_runs_the_whole_loop_offline(example_forks: Forks) -> None:
    out = example_forks.script(
        EXAMPLES[1], "--offline", cwd=Path.cwd(), env=dict(os.environ), timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "tool call_0_0: status=success blocks=['text']" in out.stdout  # report.pdf pages 1-2
    assert "tool call_1_1: status=success blocks=['text']" in out.stdout  # server.log window
    assert "tool call_2_0: status=success blocks=['text', 'image']" in out.stdout  # scanned page
    assert "tool call_2_1: status=success blocks=['text', 'image']" in out.stdout  # photo.jpg
    assert "Revenue grew 12%" in out.stdout and "Widget A" in out.stdout
    assert "[0 document(s), 1 image(s)]" in out.stdout
