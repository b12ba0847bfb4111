"""Pipeline: admit, context, extract, sanitize and stamp; the Reader and every worker run this one.

It knows nothing of workers, the cache or the read log (those sit in front of it, in ``reader``),
so a worker process imports it without importing the host side.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

from .cache.ocr import ocr_cache
from .detect import detect, directory_info
from .errors import ArchiveSecurityError, FileTooLargeError, translate_errors
from .extractors.base import TEXT_CUT, Budget, Context, Extractor, extractor_class
from .extractors.deadline import end_after
from .extractors.markdown import TABLE_CUT
from .extractors.properties import DOCUMENT_CATEGORIES, is_first_unit, properties_header
from .formats import BY_KEY
from .model import Document, FileInfo, Media, Unit, stable_id, unit_position
from .request.options import ReadOptions
from .sanitize import clean_body, clean_metadata
from .settings import Settings
from .source import Source
from .workspace import Workspace

# What every unit's shape owes to the pipeline (ids, the properties header, sanitizing): part of
# every cache key, so results cached by an older pipeline are never served. 2: ids from content
# and position, the properties header. 3: one list of position keys (sheet_index in ids). 4:
# metadata every store takes (no empty heading path, no NaN, no integer past 64 bits).
UNITS_VERSION = 4


class Pipeline:
    """The in-process pipeline (admit, extract, sanitize, stamp); the Reader and every worker use it."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def context(
        self,
        info: FileInfo,
        opts: ReadOptions,
        *,
        loader: bool,
        workspace: Path | None,
        deadline: float | None = None,
        parent: Context | None = None,
    ) -> Context:
        """The one Context factory: a new read (fresh budget, global deadline from now unless
        given) or a nested one (``parent``: its budget, header, notes and deadline, depth + 1)."""
        output = self.settings.output
        if parent is not None:  # a member's bytes add to the output budget they share
            parent.budget.text_allowed += output.max_text_ratio * info.size
            return Context(
                settings=self.settings, info=info, options=opts, loader=parent.loader,
                workspace=parent.workspace, budget=parent.budget, depth=parent.depth + 1,
                deadline=parent.deadline, header=parent.header, notes=parent.notes,
                child_reader=self.child_units, ocr_cache=parent.ocr_cache,
            )  # fmt: skip
        budget = Budget()
        if not info.is_dir:  # a listing has caps of its own (and a folder has no size)
            budget.text_allowed = max(output.max_text_ratio * info.size, output.min_text_budget)
        return Context(
            settings=self.settings, info=info, options=opts, loader=loader,
            workspace=workspace, budget=budget,
            deadline=deadline or end_after(self.settings.global_timeout),
            child_reader=self.child_units, ocr_cache=ocr_cache(self.settings.cache),
        )  # fmt: skip

    def open(self, workspace: Workspace, opts: ReadOptions) -> tuple[Source, FileInfo]:
        """Open the file once, inside the workspace, detect and admit it; everything after reads
        that descriptor (the Reader, and a worker given a batch of files to open)."""
        opened = workspace.open(opts.file_path)
        shown = workspace.shown(opts.file_path)  # `source`: relative to the workspace
        try:
            source = Source.from_fd(
                opened.fd, opened.path, shown=shown, pseudo_limit=self.settings.limits.text
            )
        except BaseException:
            os.close(opened.fd)
            raise
        try:
            if opened.is_dir:
                return source, directory_info(opened.path, shown, opened.stat)
            info = detect(source, hint=opts.format_hint, shown=shown)
            self.admit(info)
        except BaseException:
            source.close()
            raise
        return source, info

    def admit(self, info: FileInfo) -> None:
        """Size limits per category, before any parsing (streaming readers read only a window)."""
        if extractor_of(info).streaming:
            return
        limit = self.settings.limit_for(info.category)
        if limit is not None and info.size > limit:
            raise FileTooLargeError(
                f"{info.source}: {info.size:,} bytes is over the {info.category} size limit of "
                f"{limit:,} bytes (limits.{info.category} in tools-security.yaml)",
                path=info.source,
            )

    def units(
        self,
        source: Source,
        info: FileInfo,
        ctx: Context,
        extra: dict[str, Any] | None = None,
        *,
        ext_cls: type[Extractor] | None = None,
    ) -> Generator[Unit, None, None]:
        """Run the extractor (options it does not honour said in a note, once for every
        extractor), then sanitize and stamp every unit once."""
        ext = (ext_cls or extractor_of(info))()
        ext.note_ignored(ctx)
        if info.extension_format:
            ctx.warn(
                f"{info.source}: the name says {info.extension_format} but the content is "
                f"{info.format}: read as {info.format} (metadata format_mismatch)"
            )
        if source.cut_at is not None:
            ctx.warn(
                f"{info.source}: a pseudo file (procfs, sysfs) is read as a stream up to "
                f"{source.cut_at:,} bytes (limits.text in tools-security.yaml); the rest was not read"
            )
        base = _base_metadata(info, ext, extra)
        ids = _UnitIds(info.source)
        output = self.settings.output
        seen: dict[tuple[str, type, Any], Any] = {}  # metadata values cleaned (clean_metadata)
        header = ctx.loader and info.category in DOCUMENT_CATEGORIES  # the properties header
        spends = ctx.depth == 0  # a member's units pass the top stream too: spent there once
        produced = ext.extract(source, ctx)
        with (
            translate_errors(info.source, ext.name),
            _HiddenText(ctx) as hidden,
            _closing(produced),
        ):
            for unit in produced:
                ctx.check_deadline()
                meta = clean_metadata({**base, **unit.metadata}, output, seen)
                if isinstance(unit, Media):
                    yield Media(unit.mime_type, unit.data, meta, ids.next(meta, unit.data))
                    continue
                body = unit.text
                if header and is_first_unit(meta):  # once, before the id hashes the text
                    header = False
                    props = properties_header(meta, body)
                    body = f"{props}\n\n{body}" if props else body
                text, removed = clean_body(body, output)
                hidden.count += removed
                spent = spends and _spend(ctx, len(text))
                if spent:
                    text = _cut_text(text, spent, output.truncation_marker)
                if spent or TABLE_CUT in text or TEXT_CUT in text:
                    meta["truncated"] = True
                yield Document(text, meta, ids.next(meta, text.encode()))
                if spent:
                    ctx.out_of_text()  # the note
                    return  # closes the extractor: what it has not made costs nothing

    def child_units(
        self, parent: Context, data: bytes, name: str, options: ReadOptions | None
    ) -> Iterator[Unit]:
        """An archive member through the whole pipeline, one level deeper, same budget."""
        depth = parent.depth + 1
        limit = self.settings.archive.max_nesting_depth
        shown = f"{parent.info.source}::{name}"
        if depth > limit:
            raise ArchiveSecurityError(
                f"{shown}: nested deeper than archive.max_nesting_depth={limit}", path=shown
            )
        opts = (options or parent.options).replace(file_path=shown)
        source = Source.from_bytes(data, name)
        info = detect(source, hint=opts.format_hint, shown=shown)
        info = dataclasses.replace(info, modified=parent.info.modified)
        self.admit(info)
        ctx = self.context(info, opts, loader=parent.loader, workspace=None, parent=parent)
        archive = parent.info.source
        with source:
            yield from self.units(
                source, info, ctx, {"archive": archive, "member": name, "depth": depth}
            )


@contextlib.contextmanager
def _closing(units: Iterator[Unit]) -> Iterator[None]:
    """The extractor's generator closed when the stream ends early (a cut, a consumer that
    stops), so its files and workers are let go at once, not when it is collected."""
    try:
        yield
    finally:
        close = getattr(units, "close", None)
        if close is not None:
            close()


def _spend(ctx: Context, chars: int) -> int:
    """Spend ``chars`` of the read's output budget; 0 when they fit, else the characters that
    still fit (at least 1: a cut unit keeps its start)."""
    budget = ctx.budget
    left = budget.text_allowed - budget.text_out
    if chars <= left:
        budget.text_out += chars
        return 0
    budget.text_out = max(budget.text_out, int(budget.text_allowed))
    return max(int(left), 1)


def _cut_text(text: str, keep: int, marker: str) -> str:
    """``text`` cut to ``keep`` characters, at its last line break when one is in the second
    half (a table keeps whole rows), with the truncation marker."""
    line = text.rfind("\n", keep // 2, keep)
    return text[: line if line > 0 else keep] + marker


@dataclasses.dataclass
class _HiddenText:
    """Counts the invisible characters taken out of one file's text; one note when it ends (also
    when the reader stops early), since hidden text is worth knowing about."""

    ctx: Context
    count: int = 0

    def __enter__(self) -> _HiddenText:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.count:
            self.ctx.warn(
                f"{self.ctx.info.source}: removed {self.count:,} invisible or bidi control "
                f"character{'s' if self.count != 1 else ''} (zero-width, bidi override, Unicode "
                "tag): possible hidden text"
            )


def extractor_of(info: FileInfo) -> type[Extractor]:
    return extractor_class(BY_KEY[info.format].extractor)


def _base_metadata(info: FileInfo, ext: Extractor, extra: dict[str, Any] | None) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "source": info.source,
        "file_path": info.path,
        "file_name": info.name,
        "file_size": info.size,
        "mime_type": info.mime_type,
        "format": info.format,
        "category": info.category,
        "modified": info.modified,
        "extractor": ext.name,
    }
    if info.extension_format:
        meta["format_mismatch"] = True
        meta["extension_format"] = info.extension_format
    if extra:
        meta.update(extra)
    return meta


class _UnitIds:
    """Unit ids from where a unit is and what it holds: the file as the workspace shows it, the
    unit's position keys (page, sheet, slide, member...), its rank among units at that same
    position, and a hash of its content. A unit that did not change keeps its id when others
    in the file change (an incremental re-index rewrites only what changed), two copies of a file
    at different paths never share ids, and a page read alone or in a split read has the id it
    has in a whole read."""

    def __init__(self, source: str) -> None:
        self.file = os.path.normpath(source)
        self.seen: dict[str, int] = {}

    def next(self, meta: dict[str, Any], content: bytes) -> str:
        position = unit_position(meta)
        rank = self.seen.get(position, 0)
        self.seen[position] = rank + 1
        return stable_id(self.file, position, rank, content=content)
