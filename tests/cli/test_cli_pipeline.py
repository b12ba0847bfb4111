"""The command line for pipelines: ``docread load`` (JSON lines, media files, per-file errors,
exit codes), ``docread read`` flags from the parameter table, and ``docread formats``."""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import pty
import struct
import subprocess
import sys
import termios
import zipfile
from pathlib import Path

import pytest
from conftest import CliHere, run_cli
from docread.cli.formats import tool_status
from docread.request.parameters import PARAMETERS
from factories import image_file, pdf, scan_page, text_image, xlsx, zip_archive, zip_bytes

ROOT = Path(__file__).resolve().parents[2]


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
    proc = run_cli("load", "docs", "--media-dir", "media", cwd=folder)
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
    proc = run_cli(
        "load", "docs", "docs/notes.txt", "--pattern", "**/*.pdf", "--jsonl", "out.jsonl",
        "--no-progress", "--workers", "1", cwd=folder,
    )  # fmt: skip
    assert proc.returncode == 1  # broken.pdf matches the pattern
    proc = run_cli("load", "docs/report.pdf", "docs/notes.txt", "--jsonl", "out.jsonl", cwd=folder)
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


def half_broken_workbook(path: Path) -> Path:
    """A workbook whose first sheet reads and whose second is cut in half: it fails midway."""
    whole = xlsx(path.with_suffix(".whole.xlsx"), {"One": [["a"], [1]], "Two": [["b"], [2]]})
    with zipfile.ZipFile(whole) as src, zipfile.ZipFile(path, "w") as dst:
        for member in src.infolist():
            data = src.read(member)
            cut = member.filename == "xl/worksheets/sheet2.xml"
            dst.writestr(member, data[: len(data) // 2] if cut else data)
    whole.unlink()
    return path


def test_load_counts_each_file_once(folder: Path) -> None:
    """A file named ``./mid.xlsx`` that fails after its first sheet is one file (its units say
    ``mid.xlsx``, its error ``./mid.xlsx``), and an archive's members are its one file."""
    half_broken_workbook(folder / "mid.xlsx")
    inner = zip_bytes({"c.txt": b"gamma"})
    zip_archive(folder / "a.zip", {"a.txt": b"alpha", "in.zip": inner, "sub/b.txt": b"beta"})
    proc = run_cli("load", "./mid.xlsx", "a.zip", "--no-progress", cwd=folder)
    assert proc.returncode == 1
    sources = [line["metadata"]["source"] for line in lines(proc.stdout)]  # type: ignore[index]
    assert sources == ["mid.xlsx", "a.zip::a.txt", "a.zip::in.zip::c.txt", "a.zip::sub/b.txt"]
    [error] = [r for r in lines(proc.stderr.split("docread:")[0]) if "error" in r]
    assert error["path"] == "./mid.xlsx" and error["error"] == "ExtractionError"
    assert proc.stderr.rstrip().endswith("docread: 1 of 2 file(s) failed")


def test_load_progress_bar_is_the_cores(folder: Path) -> None:
    """On a terminal the bar is ``iter_units``': labelled, over every file of the load, with
    the error lines above it; ``--no-progress`` hides it."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'core'}:{ROOT}"}

    def stderr_on_a_terminal(*flags: str) -> str:
        leader, follower = pty.openpty()
        size = struct.pack("HHHH", 24, 100, 0, 0)  # a terminal of 100 columns: tqdm's width
        fcntl.ioctl(follower, termios.TIOCSWINSZ, size)
        with subprocess.Popen(
            [sys.executable, "-m", "docread.cli", "load", "docs", "--workers", "1", *flags],
            cwd=folder, stdout=subprocess.DEVNULL, stderr=follower, env=env,
        ) as proc:  # fmt: skip
            os.close(follower)
            chunks = []
            with contextlib.suppress(OSError):  # EIO once the command has ended
                while chunk := os.read(leader, 4096):
                    chunks.append(chunk)
        os.close(leader)
        assert proc.returncode == 1
        return b"".join(chunks).decode()

    shown = stderr_on_a_terminal()
    assert "docread load" in shown and "4/4" in shown and '"path": "docs/broken.pdf"' in shown
    hidden = stderr_on_a_terminal("--no-progress")
    assert "docread load" not in hidden and "4/4" not in hidden and "broken.pdf" in hidden


def test_help_shows_every_default() -> None:
    """Each option's help says its default: values argparse knows (``--port`` 8000), and in
    words where the core decides (``--workers``, a read switch's on/off)."""
    from docread.cli import build_parser as top_parser
    from docread.cli.load import build_parser as load_parser
    from docread.cli.mcp import build_parser as mcp_parser
    from docread.cli.read import build_parser as read_parser

    def flat(parser: argparse.ArgumentParser) -> str:
        return " ".join(parser.format_help().split())

    mcp = flat(mcp_parser())
    for default in ("stdio", "127.0.0.1", "8000", "image,text", "the cwd"):
        assert f"(default: {default})" in mcp
    load = flat(load_parser())
    assert "--jsonl FILE where the lines go, - for stdout (default: -)" in load
    assert "(default: isolation.workers of the settings" in load
    assert "--pattern PATTERN" in load and "(default: every file)" in load
    read = flat(read_parser())
    assert "Include file metadata in the header. (default: on)" in read
    assert "PDF: also extract tables as markdown. (default: off)" in read
    assert "what to do (default: read)" in flat(top_parser())
    for parser in (mcp_parser(), load_parser(), read_parser()):
        valued = [a for a in parser._actions if a.option_strings and a.default not in (None, False)]
        for action in valued:
            if action.default is not argparse.SUPPRESS:
                assert f"(default: {action.default})" in flat(parser) or "default" in (
                    action.help or ""
                ), action.option_strings


def test_load_missing_path_is_an_error_line_not_a_crash(folder: Path) -> None:
    proc = run_cli("load", "nope.txt", "docs/notes.txt", cwd=folder)
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
def test_bad_arguments_exit_2(folder: Path, args: tuple[str, ...], cli_here: CliHere) -> None:
    code, out, err = cli_here(*args, cwd=folder)
    assert code == 2, err
    assert out == ""


def test_read_pages(folder: Path, cli_here: CliHere) -> None:
    code, out, _ = cli_here("read", "docs/report.pdf", "--pages", "2", cwd=folder)
    assert code == 0
    assert "Annual report page 2" in out and "Annual report page 1" not in out


def test_read_format_json_is_the_whole_result(folder: Path, cli_here: CliHere) -> None:
    code, out, _ = cli_here("read", "docs/report.pdf", "--format", "json", cwd=folder)
    assert code == 0
    result = json.loads(out)
    assert result["file"]["format"] == "pdf"
    assert [d["text"] for d in result["documents"]] == [
        "Annual report page 1",
        "Annual report page 2",
    ]
    assert {"header", "media", "notes", "truncated"} <= set(result)


def test_read_has_a_flag_per_parameter(folder: Path, cli_here: CliHere) -> None:
    code, out, _ = cli_here("read", "--help", cwd=folder)
    assert code == 0 and "examples:" in out
    for param in PARAMETERS:
        if param.name != "file_path":
            assert "--" + param.name.replace("_", "-") in out
            assert param.description.split(":")[0] in out.replace("\n", " ")


def test_formats_lists_formats_and_tool_status(folder: Path, cli_here: CliHere) -> None:
    code, out, _ = cli_here("formats", cwd=folder)
    assert code == 0
    [pdf] = [line for line in out.splitlines() if line.startswith("pdf ")]
    state = "present" if tool_status()["tesseract"] else "MISSING"
    assert f"tesseract: {state}" in pdf and ".pdf" in pdf
    assert any(line.split()[:1] == ["tesseract"] for line in out.splitlines())
    data = json.loads(cli_here("formats", "--json", cwd=folder)[1])
    assert {"pdf", "xlsx", "zip", "png", "sqlite"} <= {f["key"] for f in data["formats"]}
    assert set(data["tools"]) == {"libmagic", "tesseract", "pandoc", "antiword"}


def test_help_for_every_command(folder: Path, cli_here: CliHere) -> None:
    for command in ("load", "formats", "mcp"):
        code, out, _ = cli_here(command, "--help", cwd=folder)
        assert code == 0 and "examples:" in out, command
    code, out, _ = cli_here("--help", cwd=folder)
    assert code == 0 and "load PATH..." in out
