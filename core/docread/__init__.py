"""docread: read any file for LLM agents and RAG pipelines.

    result = docread.read("report.pdf", pages="1-5")      # the agent view's window
    print(result.render())                                # header, content, notes
    for doc in docread.iter_documents("data/"):           # loader mode, streamed
        ...

Heavy libraries (PyMuPDF, pandas, Pillow, ...) load only inside the extractor that needs them.
"""

from __future__ import annotations

import gc
import importlib
import os

TYPE_CHECKING = False  # typing.TYPE_CHECKING, not importing typing (3 ms on the cold start)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

    from .errors import (
        ArchiveSecurityError,
        BannedExtensionError,
        CacheError,
        DependencyMissingError,
        DocumentNotFoundError,
        EncryptedDocumentError,
        ExtractionError,
        ExtractionTimeoutError,
        FileTooLargeError,
        FormatNotSupportedError,
        InvalidOptionError,
        PathSecurityError,
        ReadDocumentError,
        ResourceLimitError,
        SettingsError,
        WorkerCrashedError,
    )
    from .model import Document, FileInfo, Media, Unit
    from .reader import Reader
    from .request.options import ReadOptions
    from .result import ReadResult
    from .settings import Settings

__version__ = "0.1.0"

__all__ = [
    "ArchiveSecurityError",
    "BannedExtensionError",
    "CacheError",
    "DependencyMissingError",
    "Document",
    "DocumentNotFoundError",
    "EncryptedDocumentError",
    "ExtractionError",
    "ExtractionTimeoutError",
    "FileInfo",
    "FileTooLargeError",
    "FormatNotSupportedError",
    "InvalidOptionError",
    "Media",
    "PathSecurityError",
    "ReadDocumentError",
    "ReadOptions",
    "ReadResult",
    "Reader",
    "ResourceLimitError",
    "Settings",
    "SettingsError",
    "Unit",
    "WorkerCrashedError",
    "__version__",
    "aread",
    "iter_documents",
    "iter_units",
    "read",
]

# The public names, imported on first use (PEP 562): ``import docread`` itself imports nothing of
# docread and starts no process (the Reader's module starts the worker template), and the
# template, whose ``docread.*`` imports run this package first, imports only what a worker runs.
_MODULES = {
    ".errors": [name for name in __all__ if name.endswith("Error")],
    ".model": ["Document", "FileInfo", "Media", "Unit"],
    ".reader": ["Reader"],
    ".request.options": ["ReadOptions"],
    ".result": ["ReadResult"],
    ".settings": ["Settings"],
}
_PUBLIC = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for, with the garbage
    collector paused (``model.collector_paused``). The Reader's module starts the worker
    template before any other docread module imports (``template.prestart``): the template's
    imports are the cold start's critical path, and ``model`` alone (dataclasses, hashlib) would
    start it some 0.02 s later."""
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'docread' has no attribute {name!r}")
    enabled = gc.isenabled()
    gc.disable()  # as model.collector_paused does: importing it would come before the pause
    try:
        if module == ".reader":
            from .isolation.template import prestart

            prestart()
        value = getattr(importlib.import_module(module, __name__), name)
    finally:
        if enabled:
            gc.enable()
    globals()[name] = value
    return value


def _reader() -> type[Reader]:
    """The Reader class, imported as ``docread.Reader`` is (above)."""
    reader: type[Reader] = __getattr__("Reader")
    return reader


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})


PathLike = str | os.PathLike[str]
# The functions below share one process-wide worker pool (started on first use, stopped at exit),
# so calling docread.read in a loop does not start new worker processes for every file.


def read(
    file_path: PathLike, *, workspace: PathLike | None = None, config: Any = None, **options: Any
) -> ReadResult:
    """Read one file (or list a directory) as the agent view sees it; see ReadOptions."""
    with _reader()(workspace, config, shared_pool=True) as reader:
        return reader.read(file_path, **options)


async def aread(
    file_path: PathLike, *, workspace: PathLike | None = None, config: Any = None, **options: Any
) -> ReadResult:
    """``read`` without blocking the event loop."""
    with _reader()(workspace, config, shared_pool=True) as reader:
        return await reader.aread(file_path, **options)


def iter_units(
    paths: PathLike | Iterable[PathLike],
    *,
    workspace: PathLike | None = None,
    config: Any = None,
    **options: Any,
) -> Iterator[Unit]:
    """Loader mode: every Document and Media of files and folders, streamed (``Reader.iter_units``
    has the options); without ``workspace`` the root is ``loader_workspace``'s, as every loader's."""
    yield from _loading(_reader().iter_units, paths, workspace, config, options)


def iter_documents(
    paths: PathLike | Iterable[PathLike],
    *,
    workspace: PathLike | None = None,
    config: Any = None,
    **options: Any,
) -> Iterator[Document]:
    """Loader mode, Documents only, streamed (a 2,000-page PDF never sits in memory whole)."""
    yield from _loading(_reader().iter_documents, paths, workspace, config, options)


def _loading(
    method: Callable[..., Iterator[Any]],
    paths: PathLike | Iterable[PathLike],
    workspace: PathLike | None,
    config: Any,
    options: dict[str, Any],
) -> Iterator[Any]:
    from .reader import Reader, loader_workspace

    root, given = loader_workspace(paths, workspace)
    with Reader(root, config, shared_pool=True) as reader:
        yield from method(reader, given, **options)
