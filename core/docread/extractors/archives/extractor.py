"""Archives (zip, tar, tar.gz/bz2/xz, 7z, single-file gz/bz2/xz): list, read one member through
the whole pipeline, extract members into the workspace's extraction folder, or (loader mode)
read every member, nested archives included, under the limits of ``settings.archive``."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from ...errors import (
    ArchiveSecurityError,
    DocumentNotFoundError,
    EncryptedDocumentError,
    ExtractionTimeoutError,
    FormatNotSupportedError,
    InvalidOptionError,
    ReadDocumentError,
)
from ...formats import BY_KEY, SINGLE_STREAM_ARCHIVES
from ...model import Document, Unit
from ...request.options import ReadOptions
from ...request.ranges import glob_match
from ...sanitize import not_utf8_note, readable, shown_name
from ...source import Source
from ..base import Context, Extractor, load_object
from ..markdown import human_size
from .backend import Backend, corrupt_errors
from .guard import RATIO_FLOOR, Addresses, Entry, Guard, extraction_folder, safe_member_path

_FOLDER_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW

_SKIPPABLE = (ArchiveSecurityError, EncryptedDocumentError, FormatNotSupportedError)


class ArchiveExtractor(Extractor):
    """Lists by default; ``mode="read"`` / ``"extract"`` with ``archive_path`` or ``pattern``."""

    name: ClassVar[str] = "archive"
    version: ClassVar[int] = 1
    cacheable: ClassVar[bool] = True
    isolated: ClassVar[bool] = True
    options: ClassVar[frozenset[str]] = frozenset({"mode", "archive_path", "pattern"})

    @classmethod
    def ignored(cls, ctx: Context) -> list[str]:
        """The other options go to the members read (and are checked there); a listing or an
        extraction ignores them."""
        return super().ignored(ctx) if _mode(ctx) in ("list", "extract") else []

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        single = ctx.info.format in SINGLE_STREAM_ARCHIVES
        mode = _mode(ctx)
        guard = Guard(ctx, source.size)
        with corrupt_errors(ctx.info.source):
            backend = load_object(BY_KEY[ctx.info.format].opener)(source, guard, ctx.info.format)
            try:
                if mode == "list":
                    yield self._listing(backend, guard, ctx)
                elif mode == "read":
                    yield from self._read(backend, guard, ctx, single)
                elif mode == "extract":
                    yield self._extract(backend, guard, ctx, single)
                else:
                    yield from self._load(backend, guard, ctx)
            finally:
                backend.close()

    # -- list --------------------------------------------------------------------------------
    def _listing(self, backend: Backend, guard: Guard, ctx: Context) -> Document:
        pattern = ctx.options.pattern
        deadline = guard.list_deadline()
        files = dirs = total = 0
        unknown = False
        addresses = Addresses()
        shown: list[tuple[Entry, str]] = []
        renamed: list[tuple[str, str]] = []  # (name in the archive, name read and extract use)
        undecodable = 0  # names that are not UTF-8: shown (and read) with U+FFFD
        for entry in backend.entries():
            guard.count_member()
            deadline.check()
            address = addresses.of(entry)
            if entry.kind == "dir":
                dirs += 1
                continue
            files += 1
            total += entry.size or 0
            unknown = unknown or entry.size is None
            clean = safe_member_path(entry.name)
            if not pattern or glob_match(clean, pattern):
                shown.append((entry, address))
                undecodable += readable(entry.name) != entry.name
                if clean != readable(entry.name) and clean:
                    renamed.append((entry.name, clean))
        shown.sort(key=lambda pair: safe_member_path(pair[0].name))  # stable: copies keep order
        ctx.set_header("Archive", ctx.info.name if ctx.depth == 0 else ctx.info.source)
        plain = "?" if unknown else human_size(total)
        ctx.set_header(
            "Total Size", f"{human_size(guard.archive_size)} (compressed), {plain} (uncompressed)"
        )
        ctx.set_header("Files", f"{_plural(files, 'file')}, {_plural(dirs, 'directory')}")
        if total > RATIO_FLOOR and total > guard.limits.max_compression_ratio * guard.archive_size:
            ctx.warn(
                f"The members declare {total / guard.archive_size:,.0f}:1 compression, over "
                f"archive.max_compression_ratio={guard.limits.max_compression_ratio:g}: reading "
                f"them will be refused as a decompression bomb."
            )
        if note := addresses.note("read and extracted"):
            ctx.warn(note)
        if renamed:
            ctx.warn(_renamed_note(renamed))
        if undecodable:
            ctx.warn(not_utf8_note(undecodable, "member name"))
        width = min(max((len(shown_name(a or e.name)) for e, a in shown), default=0), 60)
        lines = [f"Contents (matching pattern: {pattern}):" if pattern else "Contents:"]
        lines += [self._line(e, a, width, guard, addresses) for e, a in shown]
        count = _plural(len(shown), "file")
        lines += ["", f"  ({count} matching pattern)" if pattern else f"  ({count})"]
        meta: dict[str, object] = {
            "archive_format": ctx.info.format, "file_count": files, "directory_count": dirs,
            "members_shown": len(shown),
        }  # fmt: skip
        if not unknown:
            meta["uncompressed_size"] = total
        if pattern:
            meta["pattern"] = pattern
        if addresses.repeated:
            meta["duplicate_names"] = len(addresses.repeated)
        return Document("\n".join(lines), meta)

    @staticmethod
    def _line(entry: Entry, address: str, width: int, guard: Guard, addresses: Addresses) -> str:
        size = "?" if entry.size is None else human_size(entry.size)
        flags = ""
        if safe_member_path(entry.name) in addresses.repeated:
            flags = f"  [duplicate name, read as {shown_name(address)}]"
        if entry.kind in ("symlink", "hardlink"):
            flags += f"  -> {shown_name(entry.target) or '?'} [{entry.kind}, not followed]"
        elif entry.kind in ("device", "other"):
            flags += "  [device/special entry, not read]"
        elif guard.is_banned(entry.name):
            flags += "  [banned extension, not read]"
        if entry.encrypted:
            flags += "  [encrypted]"
        if entry.unsupported:
            flags += "  [unsupported compression]"
        if not address:
            flags += "  [no usable name, not read]"
        name = shown_name(address or entry.name)
        return f"  {name:<{width}} {size:>10}   {entry.modified}{flags}".rstrip()

    # -- read one member ---------------------------------------------------------------------
    def _read(self, backend: Backend, guard: Guard, ctx: Context, single: bool) -> Iterator[Unit]:
        wanted = ctx.options.archive_path
        if not wanted and not single:
            raise InvalidOptionError(
                "mode='read' needs archive_path=<member path>; list the archive first "
                "(mode='list', pattern='*.py') to see the member names"
            )
        target = safe_member_path(wanted) if wanted else None
        addresses = Addresses()
        names: dict[int, str] = {}

        def want(entry: Entry) -> bool:
            guard.count_member()
            names[entry.index] = addresses.of(entry)
            if target is not None and names[entry.index] != target:
                return False
            guard.admit(entry)
            return True

        for entry, stream in backend.payloads(want):
            data = guard.read(entry, stream)
            name = names[entry.index] or entry.name
            break
        else:
            raise DocumentNotFoundError(
                f"{ctx.info.source}: no member named {wanted!r}; list the archive "
                f"(mode='list', pattern=...) to see the member names",
                path=ctx.info.source,
            )
        if not single:
            ctx.set_header("Archive", ctx.info.name if ctx.depth == 0 else ctx.info.source)
            ctx.set_header("Member", name)
        if note := addresses.note("read"):
            ctx.warn(note)
        yield from ctx.extract_child(data, name, _child_options(ctx))

    # -- extract to the workspace ------------------------------------------------------------
    def _extract(self, backend: Backend, guard: Guard, ctx: Context, single: bool) -> Document:
        opts = ctx.options
        if single and not opts.archive_path and not opts.pattern:  # the one member it holds
            opts = opts.replace(archive_path=next(backend.entries()).name)
        if not opts.archive_path and not opts.pattern:
            raise InvalidOptionError(
                "mode='extract' needs archive_path=<member path> or pattern=<glob> (e.g. 'src/**')"
            )
        if ctx.workspace is None:
            raise InvalidOptionError("mode='extract' needs a workspace to extract into")
        workspace = Path(os.path.realpath(ctx.workspace))
        stem = extraction_folder(ctx.info.name, ctx.info.path)
        root = Path(os.path.normpath(workspace / ctx.settings.archive.extraction_dir / stem))
        if not root.is_relative_to(workspace) or root == workspace:
            raise ArchiveSecurityError(
                f"{ctx.info.source}: archive.extraction_dir={ctx.settings.archive.extraction_dir!r} "
                f"leads outside the workspace {workspace}",
                path=ctx.info.source,
            )
        target = safe_member_path(opts.archive_path) if opts.archive_path else None
        addresses = Addresses()
        names: dict[int, str] = {}

        def want(entry: Entry) -> bool:
            guard.count_member()
            name = safe_member_path(entry.name)
            names[entry.index] = addresses.of(entry)
            if target is not None:
                if names[entry.index] != target:
                    return False
                guard.admit(entry)
                return True
            if entry.kind == "dir" or not name or not glob_match(name, opts.pattern or "*"):
                return False
            return _admitted(guard, entry, ctx)

        done: list[tuple[str, Path, int]] = []
        for entry, stream in backend.payloads(want):
            name = names[entry.index]
            folder, path = _place(workspace, root, name, guard, entry)
            try:
                backend.vet(entry, name, str(root))
                done.append((name, path, guard.write(entry, stream, path, folder)))
            finally:
                os.close(folder)
            if target is not None:
                break
        if target is not None and not done:
            raise DocumentNotFoundError(
                f"{ctx.info.source}: no member named {opts.archive_path!r}; list the archive "
                f"(mode='list') to see the member names",
                path=ctx.info.source,
            )
        rel = os.path.relpath(root, workspace)
        ctx.set_header("From", ctx.info.name)
        if note := addresses.note("extracted"):
            ctx.warn(note)
        if target is not None:
            name, path, size = done[0]
            ctx.set_header("Extracted", name)
            ctx.set_header("To", os.path.relpath(path, workspace))
            ctx.set_header("Size", human_size(size))
            text = f"File is now available at: {path}"
            return Document(text, {"member": name, "extracted_count": 1, "extraction_dir": rel})
        ctx.set_header("Extracted", f"{len(done):,} files matching {opts.pattern}")
        ctx.set_header("To", rel)
        if not done:
            ctx.warn(f"No file matched pattern {opts.pattern!r}; nothing was extracted.")
        lines = [f"  {n}  {human_size(s)}  -> {os.path.relpath(p, workspace)}" for n, p, s in done]
        text = "\n".join([f"Files are now available under: {root}", *lines])
        return Document(text, {"extracted_count": len(done), "extraction_dir": rel})

    # -- loader: every member ----------------------------------------------------------------
    def _load(self, backend: Backend, guard: Guard, ctx: Context) -> Iterator[Unit]:
        pattern = ctx.options.pattern
        deadline = guard.list_deadline()
        counted = backend.lists_cheaply  # then count first: refuse before decompressing anything
        if counted:
            for _ in backend.entries():
                guard.count_member()
                deadline.check()

        addresses = Addresses()
        names: dict[int, str] = {}

        def want(entry: Entry) -> bool:
            if not counted:  # a compressed tar lists only by inflating: count in the one pass
                guard.count_member()
            name = safe_member_path(entry.name)
            names[entry.index] = addresses.of(entry)
            if entry.kind == "dir" or not name or (pattern and not glob_match(name, pattern)):
                return False
            return _admitted(guard, entry, ctx)

        options = _child_options(ctx)
        for entry, stream in backend.payloads(want):
            name = names[entry.index]
            try:
                data = guard.read(entry, stream)
                yield from ctx.extract_child(data, name, options)
            except ExtractionTimeoutError:
                raise
            except ReadDocumentError as exc:
                ctx.warn(f"Member {name} skipped: {exc.message}")
        if note := addresses.note("loaded"):
            ctx.warn(note)


def _mode(ctx: Context) -> str:
    """list, read, extract, or load (a loader's every member)."""
    single = ctx.info.format in SINGLE_STREAM_ARCHIVES
    default = "read" if single or ctx.options.archive_path else "load" if ctx.loader else "list"
    return ctx.options.mode or default


MAX_RENAMED_SHOWN = 10


def _renamed_note(renamed: list[tuple[str, str]]) -> str:
    """One note on the member names the listing shows cleaned (``..``, leading ``/``, drive
    letters, control characters removed): as read and extract use them; the first few named."""
    pairs = ", ".join(
        f"{shown_name(raw, 80)} as {shown_name(clean, 80)}"
        for raw, clean in renamed[:MAX_RENAMED_SHOWN]
    )
    more = (
        f" and {len(renamed) - MAX_RENAMED_SHOWN:,} more"
        if len(renamed) > MAX_RENAMED_SHOWN
        else ""
    )
    return (
        f"{_plural(len(renamed), 'member name')} unsafe as stored, shown as read and extract use "
        f"them: {pairs}{more}."
    )


def _plural(n: int, noun: str) -> str:
    return (
        f"{n:,} {noun}"
        if n == 1
        else f"{n:,} {noun[:-1] + 'ies' if noun.endswith('y') else noun + 's'}"
    )


def _child_options(ctx: Context) -> ReadOptions:
    """The member gets the caller's own read options (pages, rows, offset...), not the archive's."""
    return ctx.options.replace(mode=None, archive_path=None, pattern=None, format_hint=None)


def _admitted(guard: Guard, entry: Entry, ctx: Context) -> bool:
    """For many-member modes: a refused member becomes a warning and the others go on."""
    try:
        guard.admit(entry)
    except _SKIPPABLE as exc:
        ctx.warn(f"Member {entry.name} skipped: {exc.message}")
        return False
    return True


def _place(workspace: Path, root: Path, name: str, guard: Guard, entry: Entry) -> tuple[int, Path]:
    """An open descriptor of the folder ``name`` goes into under ``root``, and its path. Every
    folder from the workspace down is created and opened one level at a time on descriptors, with
    ``O_NOFOLLOW``: a planted ``.tmp -> /elsewhere``, or a folder swapped for a link while the
    archive is extracted, can never carry a file (or an empty folder) out of the workspace."""
    if not name:
        raise guard.refuse(entry.name, "has no usable file name after sanitizing")
    path = root / name
    folder = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY)
    current = workspace
    try:
        for part in path.parent.relative_to(workspace).parts:
            current = current / part
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, 0o700, dir_fd=folder)  # the user's own, as every folder we make
            try:
                inner = os.open(part, _FOLDER_FLAGS, dir_fd=folder)
            except OSError as exc:  # ELOOP (a link) or ENOTDIR (a file): never written through
                raise guard.refuse(
                    entry.name, f"would be written through {current} (a link or a file in the way)"
                ) from exc
            os.close(folder)
            folder = inner
    except BaseException:
        os.close(folder)
        raise
    return folder, path
