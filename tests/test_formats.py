"""The format table (formats.py) takes third-party formats: ``formats.register`` or an
installed ``docread.extractors`` entry point, read like a built-in; clashes refused."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import docread
import pytest
from conftest import NO_CACHE, docread_warnings
from docread import formats
from docread.extractors.base import Context, Extractor
from docread.model import Document, Unit
from docread.source import Source


# -- third-party formats ---------------------------------------------------------------------------
class FancyExtractor(Extractor):
    """The toy third-party reader: the text upper-cased, and the process that read it."""

    name: ClassVar[str] = "fancy"
    isolated: ClassVar[bool] = True

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        text = source.read_bytes().decode(ctx.info.encoding or "ascii").upper()
        yield Document(text, {"pid": os.getpid()})


FANCY = formats.Format(
    "fancy", "text", "text/x-fancy", (".fancy",),
    extractor=f"{__name__}:FancyExtractor", textual=True,
)  # fmt: skip


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever a test registers is gone afterwards (the table is process-wide)."""
    for name in ("_ordered", "_by_suffix", "_plugins"):
        monkeypatch.setattr(formats, name, getattr(formats, name))
    monkeypatch.setattr(formats, "_ext_owner", dict(formats._ext_owner))
    keys = set(formats.BY_KEY)
    yield
    for key in set(formats.BY_KEY) - keys:
        del formats.BY_KEY[key]


@pytest.mark.parametrize("isolated", [True, False])
def test_a_registered_format_is_read_like_a_built_in(
    registry: None, isolated: bool, tmp_path: Path
) -> None:
    formats.register(FANCY)
    (tmp_path / "hello.fancy").write_text("déjà fancy\n", encoding="utf-16")
    config = {**NO_CACHE, "isolation": {"enabled": isolated}}
    result = docread.read("hello.fancy", workspace=tmp_path, config=config)
    [doc] = docread.iter_documents("hello.fancy", workspace=tmp_path, config=config)
    assert result.file.format == "fancy" and result.file.encoding == "utf-16"
    assert result.text == doc.text == "DÉJÀ FANCY\n"
    assert (doc.metadata["pid"] != os.getpid()) is isolated  # a worker imported it by its path
    assert formats.by_extension("X.FANCY") is FANCY and ".fancy" in formats.extensions()
    assert formats.lookup_hint("text/x-fancy") is FANCY


def test_register_refuses_clashes_unless_replace(registry: None) -> None:
    formats.register(FANCY)
    with pytest.raises(docread.InvalidOptionError, match="'fancy'.*replace=True"):
        formats.register(FANCY)
    taker = formats.Format("md2", "text", "text/markdown", (".md",), extractor="x:Y")
    with pytest.raises(docread.InvalidOptionError, match=r"\.md.*text"):
        formats.register(taker)
    with pytest.raises(docread.InvalidOptionError, match="lower case"):
        formats.register(formats.Format("up", "text", "text/x-up", (".UP",), extractor="x:Y"))
    with pytest.raises(docread.InvalidOptionError, match="category='misc' is not one of"):
        formats.register(formats.Format("m", "misc", "text/x-m", (".m1",), extractor="x:Y"))
    moved = formats.Format("fancy", "text", "text/x-fancy", (".fancier",), extractor="x:Y")
    formats.register(moved, replace=True)
    assert formats.BY_KEY["fancy"] is moved and formats.by_extension("a.fancier") is moved
    assert formats.by_extension("a.fancy") is None


PLUGIN = """
from docread.formats import Format
from docread.model import Document
from docread.extractors.base import Extractor


class Shout(Extractor):
    name = "shout"

    def extract(self, source, ctx):
        yield Document(source.read_bytes().decode(ctx.info.encoding).upper())


def formats():
    return [Format("shout", "text", "text/x-shout", (".shout",),
                   extractor="fancy_plugin:Shout", textual=True)]


GREEDY = Format("greedy", "text", "text/plain", (".txt",), extractor="fancy_plugin:Shout")
"""


def test_an_installed_plugin_is_found_through_its_entry_point(
    registry: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    site = tmp_path / "site"
    info = site / "fancy_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    (site / "fancy_plugin.py").write_text(PLUGIN)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fancy_plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[docread.extractors]\nshout = fancy_plugin:formats\ngreedy = fancy_plugin:GREEDY\n"
    )
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(formats, "_plugins", "unloaded")  # as in a fresh process
    monkeypatch.delitem(sys.modules, "fancy_plugin", raising=False)
    (tmp_path / "loud.shout").write_text("quiet words\n")
    assert formats.by_extension("a.txt") is formats.BY_KEY["text"]
    assert formats._plugins == "unloaded"  # what the built-ins answer never scans the packages
    with caplog.at_level(logging.WARNING, logger="docread"):
        [doc] = docread.iter_documents("loud.shout", workspace=tmp_path, config=NO_CACHE)
    assert doc.text == "QUIET WORDS\n" and doc.metadata["format"] == "shout"
    assert formats.BY_KEY["shout"].extractor == "fancy_plugin:Shout"
    # a plugin adds formats; one claiming a built-in extension is logged and skipped
    [record] = docread_warnings(caplog)
    assert "greedy = fancy_plugin:GREEDY" in record.getMessage() and ".txt" in record.getMessage()
    assert (
        formats.by_extension("a.txt") is formats.BY_KEY["text"] and "greedy" not in formats.BY_KEY
    )


def test_a_broken_plugin_is_logged_and_skipped(
    registry: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    info = tmp_path / "broken_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken_plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[docread.extractors]\nbad = no_such_module:formats\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(formats, "_plugins", "unloaded")
    with caplog.at_level(logging.WARNING, logger="docread"):
        assert formats.load_plugins()
    [record] = docread_warnings(caplog)
    assert "bad = no_such_module:formats" in record.getMessage()


# -- one opener per variant ---------------------------------------------------------------------
def test_each_office_variant_is_opened_by_its_own_opener() -> None:
    """The format table is the one registry: a family's variants each name their own code
    (``Format.opener``), none branches on the format again (docx, odt and epub shared one
    opener that did, pptx and odp another)."""
    office = [f for f in formats.FORMATS if f.category == "office"]
    openers = [f.opener for f in office]
    assert len(office) == 7 and len(set(openers)) == len(openers), openers
