"""Reader: the pipeline (resolve -> detect -> admit -> extract -> sanitize -> result), nothing else."""

from __future__ import annotations

import asyncio
import fnmatch
import hashlib
import json
import os
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .detect import detect, directory_info
from .errors import ArchiveSecurityError, FileTooLargeError, ReadDocumentError, translate_errors
from .extractors.base import Budget, Context, Extractor, extractor_class
from .formats import BY_KEY
from .model import Document, FileInfo, Media, ReadResult, Unit
from .options import ReadOptions
from .sanitize import clean_metadata, clean_text
from .settings import Settings
from .source import Source
from .workspace import Workspace

ErrorHandler = Callable[[str, ReadDocumentError], None]
_POSITION_KEYS = (
    "member", "sheet", "table", "page_number", "slide_number", "chapter", "section_index",
    "cell_index", "line_start", "row_start", "table_index", "image_index",
)  # fmt: skip


class Reader:
    """Reads files inside one workspace with one Settings; safe to share across threads."""

    def __init__(
        self,
        workspace: str | os.PathLike[str] | None = None,
        config: str | os.PathLike[str] | Settings | dict[str, Any] | None = None,
    ) -> None:
        self.settings = Settings.load(config)
        self.workspace = Workspace(workspace, alias=self.settings.workspace.alias)

    # -- public API -------------------------------------------------------------------------
    def read(self, file_path: str | os.PathLike[str], **options: Any) -> ReadResult:
        """The agent view's read: the requested window of one file (or a directory listing)."""
        opts = ReadOptions.from_kwargs(os.fspath(file_path), **options)
        source, info = self._open(opts)
        ctx = self._context(info, opts, loader=False)
        result = ReadResult(
            file=info, header=ctx.header, notes=ctx.notes,
            output_format=opts.output_format, settings=self.settings,
        )  # fmt: skip
        with source:
            for unit in self._units(source, info, ctx):
                (result.documents if isinstance(unit, Document) else result.media).append(unit)  # type: ignore[arg-type]
        return result

    async def aread(self, file_path: str | os.PathLike[str], **options: Any) -> ReadResult:
        """``read`` in a worker thread, so the event loop is never blocked."""
        return await asyncio.to_thread(self.read, file_path, **options)

    def iter_units(
        self, file_path: str | os.PathLike[str], *, on_error: ErrorHandler | None = None, **options: Any
    ) -> Iterator[Unit]:
        """Loader mode: every unit of a file, or of every file under a directory, as produced.

        In a directory a file that fails is passed to ``on_error(path, error)`` (default: logged
        on the ``docread`` logger) and the walk goes on.
        """
        opts = ReadOptions.from_kwargs(os.fspath(file_path), **options)
        resolved = self.workspace.resolve(opts.file_path)
        if resolved.is_dir():
            for child in self.walk(opts.file_path, pattern=opts.pattern):
                try:
                    yield from self.iter_units(child, **_without(options, "pattern"))
                except ReadDocumentError as exc:
                    if on_error is not None:
                        on_error(child, exc)
            return
        source, info = self._open(opts)
        ctx = self._context(info, opts, loader=True)
        with source:
            yield from self._units(source, info, ctx)

    def iter_documents(self, file_path: str | os.PathLike[str], **options: Any) -> Iterator[Document]:
        """Loader mode, Documents only (Media parts are in ``iter_units``)."""
        for unit in self.iter_units(file_path, **options):
            if isinstance(unit, Document):
                yield unit

    def walk(self, directory: str | os.PathLike[str], *, pattern: str | None = None) -> Iterator[str]:
        """Files under a directory (sorted, recursive, hidden folders skipped) matching a glob.

        Paths are returned as the caller would pass them back (relative to the workspace root).
        """
        root = self.workspace.resolve(directory)
        pat = pattern or "**/*"
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                full = Path(dirpath) / name
                rel = full.relative_to(root).as_posix()
                if _glob_match(rel, pat):
                    yield self.workspace.relative(full)

    def close(self) -> None:
        """Release resources (worker processes, cache handles)."""

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- pipeline ---------------------------------------------------------------------------
    def _open(self, opts: ReadOptions) -> tuple[Source, FileInfo]:
        path = self.workspace.resolve(opts.file_path)
        if path.is_dir():
            return Source.from_path(path), directory_info(path, opts.file_path)
        source = Source.from_path(path)
        info = detect(source, hint=opts.format_hint, shown=opts.file_path)
        self._admit(info)
        return source, info

    def _admit(self, info: FileInfo) -> None:
        """Size limits per category, before any parsing (streaming readers read only a window)."""
        if _extractor_of(info).streaming:
            return
        limit = self.settings.limit_for(info.category)
        if limit is not None and info.size > limit:
            raise FileTooLargeError(
                f"{info.source}: {info.size:,} bytes is over the {info.category} size limit of "
                f"{limit:,} bytes (limits.{info.category} in tools-security.yaml)",
                path=info.source,
            )

    def _context(self, info: FileInfo, opts: ReadOptions, *, loader: bool) -> Context:
        return Context(
            settings=self.settings, info=info, options=opts, loader=loader,
            workspace=self.workspace.root, budget=Budget(),
            deadline=time.monotonic() + self.settings.global_timeout,
            child_reader=self._child_units,
        )  # fmt: skip

    def _units(self, source: Source, info: FileInfo, ctx: Context, extra: dict[str, Any] | None = None) -> Iterator[Unit]:
        """Run the extractor, then sanitize and stamp every unit once."""
        ext = _extractor_of(info)()
        base = _base_metadata(info, ext, extra)
        digest = _digest(source, info)
        output = self.settings.output
        with translate_errors(info.source, ext.name):
            for index, unit in enumerate(ext.extract(source, ctx)):
                ctx.check_deadline()
                meta = clean_metadata({**base, **unit.metadata}, output)
                uid = _unit_id(digest, index, meta)
                if isinstance(unit, Document):
                    yield Document(clean_text(unit.text, output), meta, uid)
                else:
                    yield Media(unit.mime_type, unit.data, meta, uid)

    def _child_units(self, parent: Context, data: bytes, name: str, options: ReadOptions | None) -> Iterator[Unit]:
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
        info = FileInfo(**{**_asdict(info), "modified": parent.info.modified})
        self._admit(info)
        ctx = Context(
            settings=self.settings, info=info, options=opts, loader=parent.loader,
            workspace=parent.workspace, budget=parent.budget, depth=depth, deadline=parent.deadline,
            header=parent.header, notes=parent.notes, child_reader=self._child_units,
        )  # fmt: skip
        archive = parent.info.source
        with source:
            yield from self._units(source, info, ctx, {"archive": archive, "member": name, "depth": depth})


def _extractor_of(info: FileInfo) -> type[Extractor]:
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
    if extra:
        meta.update(extra)
    return meta


def _digest(source: Source, info: FileInfo) -> str:
    """File identity for unit ids: first 64 KB + size (+ member name), stable across runs and copies."""
    h = hashlib.sha256()
    if not info.is_dir:
        h.update(source.head())
    h.update(str(info.size).encode())
    if source.in_memory:
        h.update(info.source.encode())
    return h.hexdigest()


def _unit_id(digest: str, index: int, meta: dict[str, Any]) -> str:
    position = {k: meta[k] for k in _POSITION_KEYS if k in meta}
    key = f"{digest}:{index}:{json.dumps(position, sort_keys=True, default=str)}"
    return str(uuid.UUID(hashlib.sha256(key.encode()).hexdigest()[:32]))


def _glob_match(rel: str, pattern: str) -> bool:
    """Glob with ``**`` spanning folders; a pattern without a slash matches the file name too."""
    if "/" not in pattern and fnmatch.fnmatch(rel.rsplit("/", 1)[-1], pattern):
        return True
    if fnmatch.fnmatch(rel, pattern):
        return True
    return pattern.startswith("**/") and fnmatch.fnmatch(rel, pattern[3:])


def _without(options: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k not in names}


def _asdict(info: FileInfo) -> dict[str, Any]:
    return {name: getattr(info, name) for name in info.__dataclass_fields__}
