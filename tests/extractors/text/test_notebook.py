"""Jupyter notebooks: cells, outputs, errors without ANSI, image outputs as Media, loader cells."""

from __future__ import annotations

import base64
from pathlib import Path

import docread
import factories
import pytest
from docread import ExtractionError
from factories import code, display_png, error, execute_result, markdown, stream

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


@pytest.fixture
def notebook(tmp_path: Path) -> Path:
    """A markdown cell, a cell that prints then fails (ANSI-coloured traceback), and a cell with a
    PNG plot and a result."""
    ansi = [
        "\x1b[0;31m---------------------------------------------------------------------------\x1b[0m",
        "\x1b[0;31mKeyError\x1b[0m: 'price'",
    ]
    return factories.notebook(tmp_path / "analysis.ipynb", [
        markdown("# Analysis\nLoading the data."),
        code("x = load()\nprint(x.sum())", stream("42\n"), error("KeyError", "'price'", ansi), count=3),
        code("plot(x)", display_png(PNG, "<Figure size 640x480>"),
             execute_result("array([1, 2, 3])", 4), count=4),
    ])  # fmt: skip


def test_agent_view_renders_cells_outputs_and_errors(notebook: Path) -> None:
    result = docread.read(notebook.name, workspace=notebook.parent)
    out = result.render()
    assert "**Notebook:** analysis.ipynb" in out and "**Cells:** 3" in out
    assert "## Cell 2 [code] In [3]" in out
    assert "KeyError: 'price'" in out
    assert "\x1b" not in out and "[0;31m" not in out
    assert (
        "[image/png output]" in out and "<Figure size 640x480>" in out and "array([1, 2, 3])" in out
    )
    assert [m.mime_type for m in result.media] == ["image/png"]
    assert result.media[0].data == PNG and result.media[0].metadata["cell_index"] == 3


def test_offset_limit_apply_to_rendered_lines(notebook: Path) -> None:
    result = docread.read(notebook.name, workspace=notebook.parent, offset=1, limit=3)
    doc = result.documents[0]
    assert doc.text == "## Cell 1 [markdown]\n# Analysis\nLoading the data."
    assert result.media == []  # the image's cell is outside the window
    assert "Use offset=4 to read more." in result.render()


def test_loader_yields_one_document_per_cell_and_the_image(notebook: Path) -> None:
    units = list(docread.iter_units(notebook.name, workspace=notebook.parent))
    docs = [u for u in units if isinstance(u, docread.Document)]
    media = [u for u in units if isinstance(u, docread.Media)]
    assert [(d.metadata["cell_index"], d.metadata["cell_type"], d.metadata.get("execution_count")) for d in docs] == [
        (1, "markdown", None), (2, "code", 3), (3, "code", 4),
    ]  # fmt: skip
    assert "KeyError: 'price'" in docs[1].text
    assert len(media) == 1 and media[0].metadata["cell_index"] == 3


def test_invalid_json_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "broken.ipynb").write_text('{"cells": [')
    with pytest.raises(ExtractionError, match="invalid JSON"):
        docread.read("broken.ipynb", workspace=tmp_path)
