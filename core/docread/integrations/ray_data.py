"""Ray Data over docread: ``read_documents`` (files -> a Dataset of units) and ``documents_from``
(a Dataset of paths or of ``read_binary_files`` rows -> units); the core Reader does all reading.

Rows: ``id`` (str), ``text`` (str), ``metadata`` (the flat metadata as a JSON string: files of
different formats carry different keys, which one Arrow struct column cannot hold); with
``include_media=True`` also ``mime_type`` and ``data`` (null on Document rows; Media rows have a
null ``text``). Each Ray worker process keeps one Reader per (workspace, settings), whose pool
has one docread worker per CPU Ray gave the task, so a node never runs more extractions than
its CPUs.
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import json
import math
import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from .. import (
    DependencyMissingError,
    Document,
    FileTooLargeError,
    InvalidOptionError,
    PathSecurityError,
    ReadDocumentError,
    Reader,
    ReadOptions,
    Settings,
    Unit,
)
from .adapters import PathArg, Skipped, classify_filesystem, glob_match, loader_workspace

try:
    import pyarrow as pa
    import ray
    import ray.data
    from ray.data.datasource import FileBasedDatasource, ReadTask
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise DependencyMissingError(
        f"docread.integrations.ray_data needs Ray Data ({exc.name} is missing): pip install 'docread[ray]'"
    ) from exc

if TYPE_CHECKING:
    import pyarrow.fs

__all__ = ["documents_from", "read_documents"]

ROWS_PER_BLOCK = 64  # units per Arrow block: a 2,000-page PDF leaves its task in pieces
FILE_WEIGHT = 64 * 1024  # bytes a file weighs in a read task beyond its size: its fixed cost
#: What a read task's summary of the files it skipped ends with (Ray forwards it to the driver).
SKIPPED_HINT = "a file named directly fails the Dataset instead"


def read_documents(
    paths: PathArg | Iterable[PathArg],
    *,
    pattern: str | None = None,
    config: Any = None,
    include_media: bool = False,
    workspace: PathArg | None = None,
    filesystem: pyarrow.fs.FileSystem | None = None,
    remote_filesystem: bool = False,
    override_num_blocks: int | None = None,
    concurrency: int | None = None,
    num_cpus: float | None = None,
    ray_remote_args: dict[str, Any] | None = None,
    **read_options: Any,
) -> ray.data.Dataset:
    """A Dataset with one row per unit of these files and folders, read lazily by Ray tasks.

    Local paths (plain, ``file://`` URIs, or paths in a ``filesystem`` whose files are this
    machine's: pyarrow's ``LocalFileSystem``, fsspec's ``file``/``local``, either behind pyarrow's
    ``PyFileSystem`` or in a ``SubTreeFileSystem`` / fsspec ``DirFileSystem``, whose folder is
    then the default workspace) are listed here as ``docread.iter_units`` lists them (same
    workspace rule, same files, same ``source``, so the same ids) and each task opens them inside
    that workspace (links checked on the descriptor). Remote URIs (``s3://``, ``gs://``,
    ``hdfs://``) or paths in a remote ``filesystem`` (pyarrow's S3/GCS/HDFS/Azure, fsspec's object
    stores and HTTP) are listed by Ray (names starting with ``.`` or ``_`` skipped) and their
    bytes go through ``Reader.iter_bytes`` under the URI; there ``workspace`` is a prefix every
    path must lie under (``PathSecurityError`` otherwise). Any other ``filesystem`` is refused
    (``InvalidOptionError``) unless ``remote_filesystem=True`` says it is remote (a local one
    keeps the local rules whatever this says). A file found in a folder that fails is logged
    (a warning on the ``docread`` logger) and skipped, and each read task says how many it
    skipped at its end on stderr where no logging is set up, which Ray shows on the driver; a
    file named directly fails the Dataset, as in the loader. The Ray knobs pass through to
    ``ray.data.read_datasource``; other keyword arguments are docread read options."""
    settings = Settings.load(config)
    options = _options(pattern, read_options)
    given = [os.fspath(p) for p in ([paths] if isinstance(paths, str | os.PathLike) else paths)]
    local = _local(given, filesystem, remote_filesystem)
    if local is not None:  # this machine's files: opened by the Reader in the workspace only
        anchor, given = loader_workspace(local[0], local[1] if workspace is None else workspace)
        with Reader(anchor, settings) as lister:
            files = list(lister.files(given, pattern=pattern))
            root = os.fspath(lister.workspace.root)
        if not files:
            return ray.data.from_arrow(_schema(include_media).empty_table())
        named = set(given)
        shown = {os.path.normpath(os.path.join(root, f)): (f, f in named) for f in files}
        plan = _Plan(settings, root, options, pattern, include_media, shown=shown)
        targets, filesystem = list(shown), None
    else:
        if workspace is not None:
            _check_prefix(given, os.fspath(workspace))
        roots = _roots(given, filesystem)
        plan = _Plan(settings, None, options, pattern, include_media, roots=roots)
        targets = given
    threads = _cpus((ray_remote_args or {}).get("num_cpus", num_cpus))
    knobs: dict[str, Any] = {
        "override_num_blocks": override_num_blocks, "concurrency": concurrency,
        "num_cpus": num_cpus, "ray_remote_args": ray_remote_args,
    }  # fmt: skip
    source = _DocumentSource(targets, plan=plan, threads=threads, filesystem=filesystem)
    dataset: ray.data.Dataset = ray.data.read_datasource(
        source, **{k: v for k, v in knobs.items() if v is not None}
    )
    return dataset


def documents_from(
    dataset: ray.data.Dataset,
    *,
    config: Any = None,
    include_media: bool = False,
    workspace: PathArg | None = None,
    num_cpus: float | None = None,
    concurrency: int | None = None,
    **read_options: Any,
) -> ray.data.Dataset:
    """``dataset.flat_map`` to the rows of ``read_documents``: a row with ``bytes`` and ``path``
    (``ray.data.read_binary_files(..., include_paths=True)``) is read from its bytes under that
    path; a row with only a ``path`` or ``item`` string is a local file, resolved as the loaders
    resolve it from the driver's current directory. A file that fails is logged and skipped (one
    bad row does not fail the Dataset), and said on the worker's stderr, which Ray shows on the
    driver."""
    settings = Settings.load(config)
    rows = _RowReader(
        _Plan(settings, os.getcwd(), _options(None, read_options), None, include_media),
        None if workspace is None else os.fspath(workspace),
    )
    return dataset.flat_map(rows, num_cpus=num_cpus, concurrency=concurrency)


@dataclasses.dataclass(frozen=True)
class _Plan:
    """What every task needs, sent once: settings, workspace (None: bytes only), read options, and
    how a path Ray hands a task shows: ``shown`` (local file -> (source, named by the caller)) or
    ``roots`` ((Ray's form of a path the caller named, the URI as named), longest first)."""

    settings: Settings
    root: str | None
    options: dict[str, Any]
    pattern: str | None
    include_media: bool
    shown: dict[str, tuple[str, bool]] = dataclasses.field(default_factory=dict)
    roots: list[tuple[str, str]] = dataclasses.field(default_factory=list)

    def local(self, path: str, skipped: Skipped) -> Iterator[pa.Table]:
        """The units of one local file, read by path in the plan's workspace (the loader's); a
        file found in a folder that fails is the task's ``skipped``."""
        shown, named = self.shown[os.path.normpath(path)]
        opts = {**self.options, "pattern": self.pattern} if named else self.options
        units = _reader(self.root, self.settings).iter_units(  # Ray's threads are the fan-out
            shown, on_error=None if named else skipped.skip, workers=1, **opts
        )
        yield from _blocks(_rows(units, self.include_media), self.include_media)

    def remote(self, stream: pa.NativeFile, path: str) -> Iterator[pa.Table]:
        """The units of one remote file: its bytes through ``Reader.iter_bytes`` under its URI."""
        shown, rel = self._shown(path)
        if rel and self.pattern and not glob_match(rel, self.pattern):
            return
        opts = self.options if rel else {**self.options, "pattern": self.pattern}
        try:
            data = _bounded(stream, shown, self.settings)
            units = _reader(self.root, self.settings).iter_bytes(data, shown, **opts)
            yield from _blocks(_rows(units, self.include_media), self.include_media)
        except ReadDocumentError as exc:
            if not rel:  # named by the caller: fails the Dataset, as the loader raises
                raise
            with Skipped(SKIPPED_HINT) as one:  # said at once: Ray shows the task's stderr
                one.skip(shown, exc)

    def _shown(self, path: str) -> tuple[str, str]:
        """(the URI shown, the path below the root named: empty when the file itself was)."""
        for root, uri in self.roots:
            if path.strip("/") == root or path.strip("/").startswith(f"{root}/") or not root:
                rel = path.strip("/")[len(root) :].strip("/")
                return (f"{uri.rstrip('/')}/{rel}" if rel else uri), rel
        return path, ""


class _DocumentSource(FileBasedDatasource):
    """Ray's file datasource (listing, sizes, read tasks, retries) with docread reading each file;
    ``threads`` files at a time per task when a task has more than one CPU."""

    def __init__(
        self,
        paths: list[str],
        *,
        plan: _Plan,
        threads: int,
        filesystem: pyarrow.fs.FileSystem | None,
    ) -> None:
        super().__init__(paths, filesystem=filesystem)
        self._plan = ray.put(plan)  # sent once, not with every read task
        self._local = not plan.roots
        self._NUM_THREADS_PER_TASK = threads if threads > 1 else 0

    def get_read_tasks(
        self,
        parallelism: int,
        per_task_row_limit: int | None = None,
        data_context: ray.data.DataContext | None = None,
    ) -> list[ReadTask]:
        """Local files: read tasks of about equal weight (``_weighed``), many small files to a
        task, a big one alone; remote files: Ray's split (equal file counts)."""
        if not self._local:
            return super().get_read_tasks(parallelism, per_task_row_limit, data_context)
        tasks = []
        for paths, sizes in _weighed(self._paths(), self._file_sizes(), parallelism):
            meta = self._meta_provider(paths, rows_per_file=None, file_sizes=sizes)
            read = functools.partial(_read_local, self._plan, paths, self._NUM_THREADS_PER_TASK)
            tasks.append(ReadTask(read, meta, per_task_row_limit=per_task_row_limit))
        return tasks

    def _read_stream(self, f: pa.NativeFile, path: str) -> Iterator[pa.Table]:
        yield from _plan_of(self._plan).remote(f, path)


def _weighed(
    paths: list[str], sizes: Sequence[float | None], parallelism: int
) -> Iterator[tuple[list[str], list[float | None]]]:
    """``paths`` dealt into ``parallelism`` read tasks (fewer with fewer files) of about equal
    weight, a file weighing its size plus ``FILE_WEIGHT``: heaviest first, each to the lightest
    task, so a big file is a task of its own, small files share the others, and neighbours in
    the listing (a folder of scans, each costing seconds of OCR for a few KB) go to different
    tasks instead of queueing in one. Each task keeps listing order."""
    weights = [(size or 0) + FILE_WEIGHT for size in sizes]
    count = min(max(parallelism, 1), len(paths))
    lightest = [(0.0, k) for k in range(count)]
    tasks: list[list[int]] = [[] for _ in range(count)]
    for i in sorted(range(len(paths)), key=lambda i: -weights[i]):  # stable: ties in order
        held, k = heapq.heappop(lightest)
        tasks[k].append(i)
        heapq.heappush(lightest, (held + weights[i], k))
    for task in tasks:
        task.sort()
        yield [paths[i] for i in task], [sizes[i] for i in task]


def _read_local(
    plan_ref: ray.ObjectRef[_Plan], paths: list[str], threads: int
) -> Iterator[pa.Table]:
    """One read task over local files: each opened by the plan's Reader in its workspace (Ray's
    stream is never opened), ``threads`` files at a time when the task has that many CPUs."""
    plan = _plan_of(plan_ref)
    with Skipped(SKIPPED_HINT) as skipped:  # said at the task's end: Ray shows it on the driver
        if threads > 1 and len(paths) > 1:
            from ray.data._internal.util import make_async_gen

            def read(names: Iterator[str]) -> Iterator[pa.Table]:
                return (block for name in names for block in plan.local(name, skipped))

            yield from make_async_gen(
                iter(paths), read, preserve_ordering=True, num_workers=min(threads, len(paths))
            )
        else:
            for path in paths:
                yield from plan.local(path, skipped)


@dataclasses.dataclass(frozen=True)
class _RowReader:
    """The ``flat_map`` function of ``documents_from``: one input row -> its units' rows."""

    plan: _Plan
    workspace: str | None

    def __call__(self, row: dict[str, Any]) -> list[dict[str, Any]]:
        path = str(row.get("path", row.get("item", "")))
        out: list[dict[str, Any]] = []
        try:
            if row.get("bytes") is not None:
                reader = _reader(None, self.plan.settings)
                units = reader.iter_bytes(row["bytes"], path, **self.plan.options)
            else:
                root, given = loader_workspace([path], self.workspace, cwd=self.plan.root)
                units = _reader(os.fspath(root), self.plan.settings).iter_units(
                    given, workers=1, **self.plan.options
                )
            out.extend(_rows(units, self.plan.include_media))
        except ReadDocumentError as exc:
            with Skipped("") as one:
                one.skip(path, exc)
        return out


_readers: dict[tuple[str | None, Settings], Reader] = {}
_readers_lock = threading.Lock()


def _reader(root: str | None, settings: Settings) -> Reader:
    """This process's Reader for (workspace, settings), its pool sized to the task's CPUs."""
    assigned = ray.get_runtime_context().get_assigned_resources()  # type: ignore[no-untyped-call]
    cpus = assigned.get("CPU", 1)
    isolation = dataclasses.replace(settings.isolation, workers=_cpus(cpus))
    key = (root, dataclasses.replace(settings, isolation=isolation))
    with _readers_lock:
        if key not in _readers:
            _readers[key] = Reader(root, key[1], shared_pool=True)
        return _readers[key]


@functools.lru_cache(maxsize=8)
def _plan_of(ref: ray.ObjectRef[_Plan]) -> _Plan:
    return ray.get(ref)


def _bounded(stream: pa.NativeFile, shown: str, settings: Settings) -> bytes:
    """A remote file's bytes, refused past the largest size limit before it fills the task's
    memory (its own category's limit is checked once it is detected)."""
    cap = max(dataclasses.astuple(settings.limits))
    data: bytes = stream.read(cap + 1)
    if len(data) > cap:
        raise FileTooLargeError(
            f"{shown}: over {cap:,} bytes, the largest size limit (limits.* in "
            "tools-security.yaml); a remote file is read into memory whole",
            path=shown,
        )
    return data


def _cpus(value: float | None) -> int:
    return max(1, math.ceil(value or 1))


def _rows(units: Iterable[Unit], include_media: bool) -> Iterator[dict[str, Any]]:
    """One row per Document (and per Media when asked); metadata as a JSON string."""
    for unit in units:
        meta = json.dumps(dict(unit.metadata), ensure_ascii=False, default=str)
        if isinstance(unit, Document):
            row: dict[str, Any] = {"id": unit.id, "text": unit.text, "metadata": meta}
            yield {**row, "mime_type": None, "data": None} if include_media else row
        elif include_media:
            yield {
                "id": unit.id, "text": None, "metadata": meta,
                "mime_type": unit.mime_type, "data": unit.data,
            }  # fmt: skip


def _blocks(rows: Iterable[dict[str, Any]], include_media: bool) -> Iterator[pa.Table]:
    """Rows as Arrow tables of ``ROWS_PER_BLOCK``, one schema for every block."""
    schema = _schema(include_media)
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == ROWS_PER_BLOCK:
            yield pa.Table.from_pylist(batch, schema=schema)
            batch = []
    if batch:
        yield pa.Table.from_pylist(batch, schema=schema)


def _schema(include_media: bool) -> pa.Schema:
    columns = [("id", pa.string()), ("text", pa.string()), ("metadata", pa.string())]
    media = [("mime_type", pa.string()), ("data", pa.binary())] if include_media else []
    return pa.schema(columns + media)


def _local(given: list[str], filesystem: Any, remote: bool) -> tuple[list[str], str | None] | None:
    """These paths as this machine's paths, and the folder a subtree confines them to (None: no
    subtree), when they name local files: plain paths and ``file://`` URIs without a
    filesystem, any path in a local one (``classify_filesystem``). None when they are remote; a mix is
    refused, and so is a filesystem of unknown kind unless ``remote`` names it remote."""
    base: str | None = None
    if filesystem is not None:
        local, base = classify_filesystem(filesystem)
        if local is None and not remote:
            raise InvalidOptionError(
                f"filesystem: docread cannot tell whether {type(filesystem).__name__} "
                f"({getattr(filesystem, 'type_name', '?')}) holds this machine's files or remote "
                "ones; local files are read inside the workspace, remote ones by their bytes. "
                "Pass remote_filesystem=True if it is remote, or a local filesystem"
            )
        if not local:
            return None
    local_paths = [_file_path(p) for p in given]
    paths = [p for p in local_paths if p is not None]
    if filesystem is None and given and not paths:
        return None
    if len(paths) < len(given):
        raise InvalidOptionError(
            "paths: local paths (plain, file://, or in a local filesystem) and remote URIs "
            "cannot be mixed in one read_documents call; read them in two"
        )
    return ([os.path.join(base, p.lstrip("/")) for p in paths] if base else paths), base


def _file_path(path: str) -> str | None:
    """A local path as a path (``file:///a/b`` -> ``/a/b``); None for a remote URI."""
    if "://" not in path:
        return path
    parsed = urlparse(path)
    if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
        return unquote(parsed.path)
    return None


def _check_prefix(given: list[str], workspace: str) -> None:
    """A remote workspace is a prefix (``s3://bucket/docs``): every path named lies under it, so
    every file Ray lists does; ``..`` segments are refused (not resolved)."""
    prefix = workspace.rstrip("/")
    for path in given:
        inside = path.rstrip("/") == prefix or path.startswith(f"{prefix}/")
        if not inside or ".." in path.split("/"):
            raise PathSecurityError(
                f"{path}: outside the workspace {workspace} (remote paths must lie under it)",
                path=path,
            )


def _roots(given: list[str], filesystem: pyarrow.fs.FileSystem | None) -> list[tuple[str, str]]:
    """(Ray's form of each named path, the path as named), longest first: ``s3://b/k`` is
    ``b/k`` to Ray, ``hdfs://host/p`` is ``p``; a path in a given remote filesystem is itself."""
    roots: list[tuple[str, str]] = []
    for uri in given:
        parsed = urlparse(uri)
        if filesystem is not None or not parsed.scheme:
            roots.append((uri.strip("/"), uri))
        else:
            roots.append((f"{parsed.netloc}{parsed.path}".strip("/"), uri))
            roots.append((parsed.path.strip("/"), uri))
    return sorted(roots, key=lambda r: len(r[0]), reverse=True)


def _options(pattern: str | None, read_options: dict[str, Any]) -> dict[str, Any]:
    """The read options, checked on the driver (a typo fails before any task starts)."""
    ReadOptions.from_kwargs("", pattern=pattern, **read_options)
    return dict(read_options)
