"""Corpus conformance: every file of the shared corpus through every entry path.

- core loader ``Reader.iter_documents``: every MANIFEST must-include string is in the Documents
  (text, or a metadata value such as an EPUB's author), plus per-family facts (every PDF page,
  none empty unless blank; audio durations; no ``nan`` cells);
- agent view ``Reader.read(...).render()`` (the first window): the result names the file, renders
  without error, and holds the strings wherever a first window is the whole text (not for
  archives, whose first window is the listing, nor for tables, whose first window is one sheet's
  head);
- LangChain ``DocReadLoader(...).load()`` and LlamaIndex ``DocReadReader().load_data(...)``: the
  strings are in the framework Documents, each tagged with its source.

Each file is extracted once per path: the cache (a module tmp dir) is on, the core loader fills
it, and the two framework loaders then get the same loader-mode entries through their own Reader
and conversion code (archive members are never cached: those are read again). The core loader
reads one file at a time (``workers=1``): a PDF split across idle workers mid-read is not stored
whole, and the framework loaders would read it again. The agent view is
a different read (loader off) with its own Reader. Encrypted files (no strings expected) must
raise EncryptedDocumentError on every path.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import docread
import pymupdf
import pytest
from conftest import CORPUS, corpus_params, normalize
from docread.errors import EncryptedDocumentError

# run.sh runs the suite with --dist loadscope: this module stays on one xdist worker, so the
# module-scoped cache the core loader fills is there for the framework loaders' tests
pytestmark = pytest.mark.corpus

# Known gaps: a strict xfail, so the test fails (and this entry must go) once the gap is closed.
GAPS: dict[str, tuple[type[Exception], str]] = {}
OCR_SOURCES = ("tesseract", "groundtruth")  # image strings that only OCR can find
WHOLE_IN_FIRST_WINDOW_EXCEPT = ("archives", "tables")
PATH_KEYS = {"source", "file_path", "file_name", "file_type", "media_path"}  # no content there
RTL = re.compile("[\u0590-\u08ff]")


def _params() -> list[Any]:
    out = []
    for param in corpus_params():
        row = param.values[0]
        gap = GAPS.get(str(row["file"])) if row else None
        if gap:
            mark = pytest.mark.xfail(raises=gap[0], reason=gap[1], strict=True)
            param = pytest.param(row, id=param.id, marks=mark)
        out.append(param)
    return out


FILES = _params()


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Cache on, in a directory of this module's own: the framework loaders reuse the core
    loader's extraction instead of repeating every OCR."""
    return {"cache": {"enabled": True, "directory": str(tmp_path_factory.mktemp("cache"))}}


@pytest.fixture(scope="module")
def core(config: dict[str, Any]) -> Iterator[docread.Reader]:
    """The core loader's Reader."""
    with docread.Reader(CORPUS, config=config) as reader:
        yield reader


@pytest.fixture(scope="module")
def agent(config: dict[str, Any]) -> Iterator[docread.Reader]:
    """The agent view's Reader, with workers of its own: after a whole corpus pass a worker's
    address space is near memory.max_worker_mb (2 GB) and parallel OCR then fails to start
    threads ("can't start new thread"): a core issue (workers are only replaced after 500 jobs),
    reported, not tested here."""
    with docread.Reader(CORPUS, config=config) as reader:
        yield reader


def options(row: Mapping[str, Any]) -> dict[str, Any]:
    """Read options a file needs to show its strings: OCR for text inside pictures."""
    if row["file"].startswith("images/") and any(
        s in row["must_include_source"] for s in OCR_SOURCES
    ):
        return {"ocr": True}
    return {}


def encrypted(row: Mapping[str, Any]) -> bool:
    return "encrypted" in row["must_include_source"] and not row["must_include"]


def _words(text: str) -> str:
    """Word characters only, one space apart, padded: OCR-derived phrases compare on words."""
    return " " + " ".join(re.findall(r"\w+", text)) + " "


def assert_holds(row: Mapping[str, Any], texts: Iterable[str], where: str) -> None:
    """Every must-include string of ``row`` is in ``texts`` (compared as ``normalize`` says; a
    phrase mixing RTL and LTR runs is compared without spaces: PDFs store none between them)."""
    flat = normalize("\n".join(texts))
    bare = flat.replace(" ", "")
    if options(row).get("ocr"):
        # phrases copied from one Tesseract run: punctuation it missed ("Invoice # 123" where the
        # picture reads "Invoice #: 123") is not part of the phrase; the words and their order are
        flat, wanted = _words(flat), [_words(normalize(s)) for s in row["must_include"]]
        missing = [s for s, w in zip(row["must_include"], wanted, strict=True) if w not in flat]
        assert not missing, f"{where} of {row['file']}: missing {missing}"
        return
    missing = [
        s
        for s in row["must_include"]
        if (
            normalize(s).replace(" ", "") not in bare if RTL.search(s) else normalize(s) not in flat
        )
    ]
    assert not missing, f"{where} of {row['file']}: missing {missing}"


def of_file(name: str, source: object) -> bool:
    """A unit's ``source`` names the file read (an archive member's is ``archive::member``)."""
    return source == name or str(source).startswith(name + "::")


def contents(text: str, metadata: Mapping[str, Any]) -> list[str]:
    """What a loaded Document tells its user: the text and the metadata values (not paths)."""
    return [text, *(str(v) for k, v in metadata.items() if k not in PATH_KEYS)]


@pytest.mark.parametrize("row", FILES)
def test_core_loader(core: docread.Reader, row: dict[str, Any]) -> None:
    name = row["file"]
    if encrypted(row):
        with pytest.raises(EncryptedDocumentError):
            list(core.iter_documents(name))
        return
    docs = list(core.iter_documents(name, workers=1, **options(row)))  # cached whole: see above
    assert docs and all(of_file(name, d.metadata["source"]) for d in docs)
    assert_holds(row, (t for d in docs for t in contents(d.text, d.metadata)), "core loader")
    family = name.split("/", 1)[0]
    if family in ("pdf", "pdf-scanned"):
        assert [d.metadata["page_number"] for d in docs] == list(range(1, int(row["pages"]) + 1))
        empty = {d.metadata["page_number"] for d in docs if not d.text.strip()}
        with pymupdf.open(CORPUS / name) as pdf:  # only the pages read empty need a look
            blank = {n for n in empty if not pdf[n - 1].get_text().strip()
                     and not pdf[n - 1].get_bboxlog()}  # fmt: skip
        assert empty <= blank, f"pages {sorted(empty - blank)} have text or a scan but read empty"
    elif family == "tables":
        assert not re.search(r"\bnan\b", normalize("\n".join(d.text for d in docs)))
    elif family == "audio":
        assert all(d.metadata["duration_seconds"] > 0 for d in docs)


@pytest.mark.parametrize("row", FILES)
def test_agent_view(agent: docread.Reader, row: dict[str, Any]) -> None:
    name = row["file"]
    if encrypted(row):
        with pytest.raises(EncryptedDocumentError, match=Path(name).name):
            agent.read(name)
        return
    result = agent.read(name, **options(row))
    view = result.render()
    assert view.strip() and result.file.source == name
    assert all(of_file(name, d.metadata["source"]) for d in result.documents)
    family = name.split("/", 1)[0]
    if family not in WHOLE_IN_FIRST_WINDOW_EXCEPT:
        assert_holds(row, [view], "agent view")
    if family == "archives":
        assert result.documents[0].metadata["file_count"] > 0 and Path(name).name in view
    elif family == "images":
        assert result.media and all(m.mime_type.startswith("image/") for m in result.media)


@pytest.mark.parametrize("row", FILES)
def test_langchain_loader(config: dict[str, Any], row: dict[str, Any]) -> None:
    from langchain_docread import DocReadLoader

    name = row["file"]
    loader = DocReadLoader(name, workspace=CORPUS, config=config, on_error="raise", **options(row))
    if encrypted(row):
        with pytest.raises(EncryptedDocumentError):
            loader.load()
        return
    docs = loader.load()
    assert docs and all(of_file(name, d.metadata["source"]) for d in docs)
    assert_holds(
        row, (t for d in docs for t in contents(d.page_content, d.metadata)), "DocReadLoader"
    )


@pytest.mark.parametrize("row", FILES)
def test_llamaindex_reader(config: dict[str, Any], row: dict[str, Any]) -> None:
    from llama_index_docread import DocReadReader

    name = row["file"]
    reader = DocReadReader(workspace=CORPUS, config=config, **options(row))
    if encrypted(row):
        with pytest.raises(EncryptedDocumentError):
            reader.load_data(name)
        return
    docs = reader.load_data(name)
    assert docs and all(of_file(name, d.metadata["source"]) for d in docs)
    assert_holds(row, (t for d in docs for t in contents(d.text, d.metadata)), "DocReadReader")
