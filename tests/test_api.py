"""The public API contract and the import-lightness rule."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docread
import factories
import pytest
from conftest import MakeReader
from docread.model import Media
from factories import notebook, pdf, pdf_bytes

HEAVY = (
    "pandas",
    "pyarrow",
    "fitz",
    "pymupdf",
    "PIL",
    "pytesseract",
    "py7zr",
    "pypandoc",
    "mutagen",
    "openpyxl",
    "magic",
)


def test_import_docread_stays_light() -> None:
    code = "import sys, docread, json; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(json.loads(out.stdout))
    assert not [m for m in HEAVY if m in loaded]


def test_public_names() -> None:
    for name in ("read", "aread", "iter_documents", "iter_units", "Reader", "ReadOptions", "Settings", "Document",
                 "Media", "FileInfo", "ReadResult", "ReadDocumentError", "FormatNotSupportedError", "FileTooLargeError",
                 "ExtractionTimeoutError", "ArchiveSecurityError", "BannedExtensionError", "CacheError",
                 "DependencyMissingError", "PathSecurityError", "DocumentNotFoundError"):  # fmt: skip
        assert name in docread.__all__ and hasattr(docread, name)
    assert issubclass(docread.DependencyMissingError, ImportError)
    assert issubclass(docread.BannedExtensionError, docread.ArchiveSecurityError)
    assert all(
        issubclass(getattr(docread, n), docread.ReadDocumentError)
        for n in docread.__all__
        if n.endswith("Error")
    )


def test_errors_survive_pickling() -> None:
    import pickle

    err = pickle.loads(pickle.dumps(docread.FileTooLargeError("big.pdf: too big", path="big.pdf")))
    assert (
        isinstance(err, docread.FileTooLargeError)
        and err.path == "big.pdf"
        and str(err) == "big.pdf: too big"
    )


def test_file_too_large_names_size_and_limit(tmp_path: Path) -> None:
    padded = notebook(tmp_path / "nb.ipynb", language=None)
    padded.write_text(padded.read_text() + " " * 2000)
    with pytest.raises(
        docread.FileTooLargeError,
        match=r"over the notebook size limit of 1,000 bytes \(limits.notebook",
    ):
        docread.read("nb.ipynb", workspace=tmp_path, config={"limits": {"notebook": 1000}})


def test_json_view_and_markdown_view(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    data = json.loads(docread.read("a.txt", workspace=tmp_path, output_format="json").render())
    assert data["documents"][0]["text"] == "alpha" and data["file"]["format"] == "text"
    assert docread.read("a.txt", workspace=tmp_path).render("markdown").startswith("# a.txt\n")


async def test_aread_and_reader_context(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    with docread.Reader(tmp_path) as reader:
        result = await reader.aread("a.txt")
    assert result.text == "alpha"
    assert (await docread.aread("a.txt", workspace=tmp_path)).text == "alpha"


def test_units_carry_base_metadata_and_stable_ids(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    doc = docread.read("a.txt", workspace=tmp_path).documents[0]
    assert {
        "source",
        "file_path",
        "file_name",
        "file_size",
        "mime_type",
        "format",
        "category",
        "modified",
        "extractor",
    } <= set(doc.metadata)
    assert doc.id == docread.read("a.txt", workspace=tmp_path).documents[0].id
    assert all(isinstance(v, str | int | float | bool) for v in doc.metadata.values())


def test_stable_ids_keep_their_value_across_versions() -> None:
    """A vector store keys its entries by these ids: the same place and content give the same
    UUID text in every docread version (pinned here: uuid's form, lowercase, 8-4-4-4-12)."""
    from docread.model import stable_id

    assert stable_id("docs/a.txt", 1, content=b"alpha") == "1d90cd04-539b-47d2-5a14-e7d74ec005e7"


def test_iter_bytes_reads_uploads_in_memory(reader: docread.Reader, tmp_path: Path) -> None:
    upload = pdf_bytes(["Uploaded invoice total 99 EUR"])
    pages = list(reader.iter_bytes(upload, "uploads/invoice.pdf"))
    lines = list(reader.iter_bytes(b"alpha\nbeta\n", "notes.md"))
    assert [d.metadata["page_number"] for d in pages] == [1]
    assert "Uploaded invoice total 99 EUR" in pages[0].text
    assert (
        pages[0].metadata["source"] == "uploads/invoice.pdf"
        and pages[0].metadata["format"] == "pdf"
    )
    assert lines[0].text == "alpha\nbeta" and lines[0].metadata["source"] == "notes.md"
    assert list(tmp_path.iterdir()) == []  # nothing written into the workspace


def test_metadata_caps_never_cut_identity_or_position(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    (deep / "a.txt").write_text("alpha\n")
    config = {"output": {"max_metadata_value_len": 20, "max_metadata_fields": 3}}
    doc = docread.read(str(deep / "a.txt"), workspace=tmp_path, config=config).documents[0]
    assert doc.metadata["file_path"] == str(deep / "a.txt")  # whole, not cut to 20 chars
    assert doc.metadata["line_start"] == 1 and doc.metadata["line_end"] == 1
    assert doc.metadata["extractor"] == "text"  # the views decide by it: never dropped
    assert "modified" not in doc.metadata  # a descriptive key over the cap of 3 is dropped


def test_json_view_says_how_to_continue_when_cut(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("".join(f"line {i}\n" for i in range(1, 101)))
    data = json.loads(
        docread.read(
            "a.txt", workspace=tmp_path, output_format="json", config={"output": {"max_chars": 60}}
        ).render()
    )
    assert data["truncated"] is True
    assert data["continuation"].endswith(
        "use offset=9 to continue"
    )  # 8 whole lines fit in 60 chars


# -- one rule for a file that fails, in every loader entry point -------------------------------
NO_CACHE = {"cache": {"enabled": False}}


def _core(path: str, **kw: Any) -> list[str]:
    return [d.text for d in docread.iter_documents(path, config=NO_CACHE, **kw)]


def _reader(path: str, **kw: Any) -> list[str]:
    with docread.Reader(".", NO_CACHE) as reader:
        return [u.text for u in reader.iter_units(path, **kw) if isinstance(u, docread.Document)]


def _langchain(path: str, **kw: Any) -> list[str]:
    from langchain_docread import DocReadLoader

    return [d.page_content for d in DocReadLoader(path, config=NO_CACHE, **kw).load()]


def _llamaindex(path: str, **kw: Any) -> list[str]:
    from llama_index_docread import DocReadReader

    return [d.text for d in DocReadReader(config=NO_CACHE, **kw).load_data(path)]


def _llamaindex_lazy(path: str, **kw: Any) -> list[str]:
    from llama_index_docread import DocReadReader

    return [d.text for d in DocReadReader(config=NO_CACHE, **kw).lazy_load_data(path)]


LOADERS = [_core, _reader, _langchain, _llamaindex, _llamaindex_lazy]


@pytest.fixture
def mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """data/a.txt and data/broken.ipynb (invalid JSON), the current folder their parent."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.txt").write_text("alpha\n")
    (data / "broken.ipynb").write_text("{not json")
    monkeypatch.chdir(tmp_path)
    return data


def _warnings_on_docread(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "docread" and r.levelno >= logging.WARNING]


@pytest.mark.parametrize("load", LOADERS, ids=lambda f: f.__name__.strip("_"))
def test_a_named_file_that_fails_raises(
    load: Callable[..., list[str]], mixed: Path, recwarn: pytest.WarningsRecorder
) -> None:
    """The path the user named raises its typed error: no [] with a warning (the LangChain
    loader gave one, pointing inside reader.py and shown once per process)."""
    with pytest.raises(docread.ExtractionError, match="broken.ipynb"):
        load("data/broken.ipynb")
    with pytest.raises(docread.ExtractionError, match="broken.ipynb"):
        load(["data/a.txt", "data/broken.ipynb"])
    assert not [w for w in recwarn.list if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("load", LOADERS, ids=lambda f: f.__name__.strip("_"))
def test_a_found_file_that_fails_is_logged_with_its_path_and_skipped(
    load: Callable[..., list[str]],
    mixed: Path,
    caplog: pytest.LogCaptureFixture,
    recwarn: pytest.WarningsRecorder,
) -> None:
    with caplog.at_level(logging.DEBUG):
        assert load("data") == ["alpha"]
    [record, summary] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert record.name == "docread" and record.levelno == logging.WARNING
    assert record.docread_path == "data/broken.ipynb"  # type: ignore[attr-defined]
    assert "ExtractionError: data/broken.ipynb: " in record.getMessage()
    assert summary.name == "docread" and summary.getMessage().startswith(SKIPPED)
    assert not [w for w in recwarn.list if issubclass(w.category, UserWarning)]


SKIPPED = "docread: 1 of 2 file(s) failed and were skipped: data/broken.ipynb: "


@pytest.mark.parametrize("load", LOADERS, ids=lambda f: f.__name__.strip("_"))
def test_a_folder_load_that_skipped_files_says_so_on_stderr_without_logging_set_up(
    load: Callable[..., list[str]],
    mixed: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A new user's script: no handler anywhere (pytest's own taken off the root logger), so the
    ``docread`` logger's NullHandler kept each file's warning quiet; the load says, once at its
    end, on stderr, how many it skipped and which. A logging line, not a warning: the suite's
    ``filterwarnings = error`` leaves the load alone."""
    monkeypatch.setattr(logging.getLogger(), "handlers", [])
    assert load("data") == ["alpha"]
    err = capsys.readouterr().err
    assert err.count("docread:") == 1 and err.startswith(SKIPPED)
    assert "ExtractionError" in err and "on_error=" in err
    assert load("data/a.txt") == ["alpha"] and capsys.readouterr().err == ""
    assert load("data", on_error="skip") == ["alpha"] and capsys.readouterr().err == ""
    logging.getLogger("docread").setLevel(logging.ERROR)  # silenced by the application
    try:
        assert load("data") == ["alpha"] and capsys.readouterr().err == ""
    finally:
        logging.getLogger("docread").setLevel(logging.NOTSET)


@pytest.mark.parametrize("load", LOADERS, ids=lambda f: f.__name__.strip("_"))
def test_on_error_names_a_policy_for_named_and_found_files_alike(
    load: Callable[..., list[str]], mixed: Path, caplog: pytest.LogCaptureFixture
) -> None:
    for given in ("data", "data/broken.ipynb"):
        with pytest.raises(docread.ExtractionError, match="broken.ipynb"):
            load(given, on_error="raise")
    for policy, level in (("warn", logging.WARNING), ("skip", logging.INFO)):
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="docread"):
            assert load(["data/broken.ipynb", "data/a.txt"], on_error=policy) == ["alpha"]
        record, *summary = [r for r in caplog.records if r.name == "docread"]
        assert record.levelno == level and "data/broken.ipynb" in record.getMessage()
        assert len(summary) == (policy == "warn")  # "warn": said at the end too, "skip": not
    with pytest.raises(docread.InvalidOptionError, match="on_error='ignore'"):
        load("data", on_error="ignore")


def test_a_handler_gets_every_failure_and_the_load_goes_on(mixed: Path) -> None:
    failed: list[str] = []
    texts = _core(["data/broken.ipynb", "data"], on_error=lambda path, exc: failed.append(path))
    assert texts == ["alpha"] and failed == ["data/broken.ipynb", "data/broken.ipynb"]


def test_langchain_parser_raises_for_its_blob(mixed: Path) -> None:
    from langchain_core.document_loaders import Blob

    from langchain_docread import DocReadParser

    parser = DocReadParser(config=NO_CACHE)
    with pytest.raises(docread.ExtractionError, match="broken.ipynb"):
        parser.parse(Blob.from_path(mixed / "broken.ipynb"))
    with pytest.raises(docread.ExtractionError, match="broken.ipynb"):
        parser.parse(Blob.from_data(b"{not json", path="broken.ipynb"))


def test_simple_directory_reader_decides_by_its_raise_on_error(
    mixed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SimpleDirectoryReader names each file to the reader, so each failure is raised to it:
    by default it prints and skips the file, with ``raise_on_error=True`` it stops."""
    from llama_index.core import SimpleDirectoryReader

    from llama_index_docread import DocReadReader

    extractors = DocReadReader(config=NO_CACHE).file_extractor()
    docs = SimpleDirectoryReader(str(mixed), file_extractor=extractors).load_data()
    assert [d.text for d in docs] == ["alpha"]
    assert "broken.ipynb" in capsys.readouterr().out
    strict = SimpleDirectoryReader(str(mixed), file_extractor=extractors, raise_on_error=True)
    with pytest.raises(Exception, match="Error loading file") as info:  # SDR's own wrapping
        strict.load_data()
    cause = info.value.__cause__
    assert isinstance(cause, docread.ExtractionError) and "broken.ipynb" in str(cause)


# -- position keys ---------------------------------------------------------------------------------
def test_position_keys_survive_the_metadata_field_cap(
    make_reader: MakeReader, tmp_path: Path
) -> None:
    red, blue = factories.image_bytes((40, 40), "red"), factories.image_bytes((40, 40), "blue")
    factories.docx(tmp_path / "d.docx", ["one", red, "two", blue])
    reader = make_reader(output={"max_metadata_fields": 1})
    media = [u for u in reader.iter_units("d.docx", extract_images=True) if isinstance(u, Media)]
    assert [m.metadata["image_index"] for m in media] == [1, 2]


# -- ids from content and position: an edit rewrites only the units it touched ---------------------
def test_unit_ids_survive_an_edit_elsewhere_in_the_file(
    reader: docread.Reader, tmp_path: Path
) -> None:
    pdf(tmp_path / "book.pdf", ["chapter one", "chapter two", "chapter three"])
    before = [d.id for d in reader.iter_documents("book.pdf")]
    pdf(tmp_path / "book.pdf", ["chapter one", "chapter two, revised", "chapter three"])
    after = [d.id for d in reader.iter_documents("book.pdf")]
    assert len(set(before)) == 3
    assert after[0] == before[0] and after[2] == before[2]
    assert after[1] != before[1]
    # a page read alone has the id it has in the whole read
    assert [d.id for d in reader.iter_documents("book.pdf", pages="3")] == [after[2]]
    # the same bytes at another path are another file
    (tmp_path / "copy.pdf").write_bytes((tmp_path / "book.pdf").read_bytes())
    assert not set(after) & {d.id for d in reader.iter_documents("copy.pdf")}


# -- an unknown keyword names the wrapper's own parameters, not only the read options ----------
def _wrapper(name: str, *args: Any, **kw: Any) -> Callable[[], Any]:
    """Makes ``name`` (a wrapper class) with these arguments when called: its framework is imported by the
    test, not when the module is collected (LlamaIndex and LangChain take ~3 s of CPU to import,
    in every pytest process, each xdist worker and each nested run)."""

    def make() -> Any:
        import langchain_docread
        import llama_index_docread

        wrappers = langchain_docread if name in langchain_docread.__all__ else llama_index_docread
        return getattr(wrappers, name)(*args, **kw)

    return make


WRAPPERS = [
    pytest.param(_wrapper("DocReadLoader", ".", glob_pattern="*.pdf"), "DocReadLoader",
                 "glob_pattern (did you mean pattern?)", "glob, recursive", True, id="loader"),
    pytest.param(_wrapper("DocReadParser", chunksize=80), "DocReadParser",
                 "chunksize (did you mean chunk_size?)", "chunk_size", True, id="parser"),
    pytest.param(_wrapper("DocReadReader", recursive=False), "DocReadReader", "recursive",
                 "workspace, config, on_error", True, id="reader"),
    pytest.param(_wrapper("DocReadToolSpec", workspce="."), "DocReadToolSpec",
                 "workspce (did you mean workspace?)", "workspace, config", False, id="toolspec"),
    pytest.param(_wrapper("ReadDocumentTool", workspce="."), "ReadDocumentTool",
                 "workspce (did you mean workspace?)", "workspace, config", False, id="tool"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "name", "unknown", "own", "reads"), WRAPPERS)
def test_an_unknown_keyword_names_the_wrappers_own_parameters(
    make: Callable[[], Any], name: str, unknown: str, own: str, reads: bool
) -> None:
    """``DocReadLoader(glob_pattern=...)`` listed only the read options, and
    ``ReadDocumentTool(workspce=...)`` was silently a tool on the current folder."""
    with pytest.raises(docread.InvalidOptionError) as raised:
        make()
    message = str(raised.value)
    assert message.startswith(f"{name}: unknown parameter(s) {unknown}; its parameters: ")
    assert own in message and ("read options: archive_path" in message) == reads
