"""The command line for pipelines: ``docread load`` (JSON lines, media files, per-file errors,
exit codes), ``docread read`` flags from the parameter table, and ``docread formats``."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from docread.cli.formats import tool_status
from docread.request.parameters import PARAMETERS
from factories import image_file, pdf, scan_page, text_image

ROOT = Path(__file__).resolve().parents[1]


def docread(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env_path = f"{ROOT / 'core'}:{ROOT}"
    return subprocess.run(
        [sys.executable, "-m", "docread.cli", *args],
        cwd=cwd,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": env_path},
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """docs/ with a 2-page PDF, a PNG, a text file and a corrupt PDF."""
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    pdf(docs / "report.pdf", [f"Annual report page {n}" for n in (1, 2)])
    image_file(docs / "sub" / "pic.png", (32, 16), (0, 120, 200))
    (docs / "notes.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.7\n this is not a pdf at all")
    return tmp_path


def lines(text: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_load_streams_json_lines_and_reports_the_corrupt_file(folder: Path) -> None:
    proc = docread("load", "docs", "--media-dir", "media", cwd=folder)
    assert proc.returncode == 1
    out = lines(proc.stdout)
    assert all(set(line) == {"id", "text", "metadata"} for line in out)
    texts = [str(line["text"]) for line in out]
    assert "Annual report page 1" in texts and "Annual report page 2" in texts
    assert any("alpha" in t for t in texts)
    records = [json.loads(line) for line in proc.stderr.splitlines() if line.startswith("{")]
    errors = [r for r in records if "error" in r]
    assert errors == [
        {"path": "docs/broken.pdf", "error": "ExtractionError", "message": errors[0]["message"]}
    ]
    assert "1 of 4 file(s) failed" in proc.stderr
    [media] = [line for line in out if "media_path" in line["metadata"]]  # type: ignore[operator]
    meta = media["metadata"]
    assert isinstance(meta, dict) and meta["mime_type"] == "image/png"
    written = folder / str(meta["media_path"])
    digest = hashlib.sha256(written.read_bytes()).hexdigest()
    assert written.name == f"{digest}.png" and written.parent == folder / "media"
    assert written.read_bytes() == (folder / "docs" / "sub" / "pic.png").read_bytes()


def test_load_all_good_exits_0_with_pattern_to_a_file(folder: Path) -> None:
    proc = docread(
        "load", "docs", "docs/notes.txt", "--pattern", "**/*.pdf", "--jsonl", "out.jsonl",
        "--no-progress", "--workers", "1", cwd=folder,
    )  # fmt: skip
    assert proc.returncode == 1  # broken.pdf matches the pattern
    proc = docread("load", "docs/report.pdf", "docs/notes.txt", "--jsonl", "out.jsonl", cwd=folder)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == ""
    sources = [line["metadata"]["source"] for line in lines((folder / "out.jsonl").read_text())]  # type: ignore[index]
    assert sources == ["docs/report.pdf", "docs/report.pdf", "docs/notes.txt"]


def test_load_streams_lines_while_it_reads(folder: Path) -> None:
    """The first page's line is out while later pages are still being OCR'd."""
    pdf(folder / "scan.pdf", [scan_page(text_image("INVOICE 4711"))] * 6)
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'core'}:{ROOT}"}
    with subprocess.Popen(
        [sys.executable, "-m", "docread.cli", "load", "scan.pdf"],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    ) as proc:  # fmt: skip
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
        still_running = proc.poll() is None
        rest = proc.stdout.readlines()
    assert first["metadata"]["page_number"] == 1 and still_running
    assert len(rest) == 5 and proc.returncode == 0


def test_load_missing_path_is_an_error_line_not_a_crash(folder: Path) -> None:
    proc = docread("load", "nope.txt", "docs/notes.txt", cwd=folder)
    assert proc.returncode == 1
    [error] = lines(proc.stderr.split("docread:")[0])
    assert error["path"] == "nope.txt" and error["error"] == "DocumentNotFoundError"
    assert "alpha" in proc.stdout


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("load",), id="load-without-path"),
        pytest.param(("load", "docs", "--workers", "-1"), id="negative-workers"),
        pytest.param(("read", "docs/notes.txt", "--pages"), id="flag-without-value"),
        pytest.param(("read", "docs/notes.txt", "--view", "3d"), id="bad-choice"),
        pytest.param(("read", "docs/notes.txt", "--no-such-flag"), id="unknown-flag"),
        pytest.param(("read", "docs/report.pdf", "--pages", "3-1"), id="bad-range"),
        pytest.param(("formats", "--bogus"), id="formats-bad-flag"),
        pytest.param(("load", "docs", "--workspace", "nowhere"), id="load-no-workspace"),
        pytest.param(("mcp", "--workspace", "nowhere"), id="mcp-no-workspace"),
        pytest.param(("mcp", "--model-inputs", "text,video"), id="mcp-bad-model-inputs"),
    ],
)
def test_bad_arguments_exit_2(folder: Path, args: tuple[str, ...]) -> None:
    proc = docread(*args, cwd=folder)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""


def test_read_pages(folder: Path) -> None:
    proc = docread("read", "docs/report.pdf", "--pages", "2", cwd=folder)
    assert proc.returncode == 0
    assert "Annual report page 2" in proc.stdout and "Annual report page 1" not in proc.stdout


def test_read_format_json_is_the_whole_result(folder: Path) -> None:
    proc = docread("read", "docs/report.pdf", "--format", "json", cwd=folder)
    assert proc.returncode == 0
    result = json.loads(proc.stdout)
    assert result["file"]["format"] == "pdf"
    assert [d["text"] for d in result["documents"]] == [
        "Annual report page 1",
        "Annual report page 2",
    ]
    assert {"header", "media", "notes", "truncated"} <= set(result)


def test_read_has_a_flag_per_parameter(folder: Path) -> None:
    proc = docread("read", "--help", cwd=folder)
    assert proc.returncode == 0 and "examples:" in proc.stdout
    for param in PARAMETERS:
        if param.name != "file_path":
            assert "--" + param.name.replace("_", "-") in proc.stdout
            assert param.description.split(":")[0] in proc.stdout.replace("\n", " ")


def test_formats_lists_formats_and_tool_status(folder: Path) -> None:
    proc = docread("formats", cwd=folder)
    assert proc.returncode == 0
    [pdf] = [line for line in proc.stdout.splitlines() if line.startswith("pdf ")]
    state = "present" if tool_status()["tesseract"] else "MISSING"
    assert f"tesseract: {state}" in pdf and ".pdf" in pdf
    assert any(line.split()[:1] == ["tesseract"] for line in proc.stdout.splitlines())
    data = json.loads(docread("formats", "--json", cwd=folder).stdout)
    assert {"pdf", "xlsx", "zip", "png", "sqlite"} <= {f["key"] for f in data["formats"]}
    assert set(data["tools"]) == {"libmagic", "tesseract", "pandoc", "antiword"}


def test_help_for_every_command(folder: Path) -> None:
    for command in ("load", "formats", "mcp"):
        proc = docread(command, "--help", cwd=folder)
        assert proc.returncode == 0 and "examples:" in proc.stdout, command
    top = docread("--help", cwd=folder)
    assert top.returncode == 0 and "load PATH..." in top.stdout
