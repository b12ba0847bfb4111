"""docread: read any file for LLM agents and RAG pipelines.

    result = docread.read("report.pdf", pages="1-5")      # the agent view's window
    print(result.render())                                # header, content, notes
    for doc in docread.iter_documents("data/"):           # loader mode, streamed
        ...

Heavy libraries (PyMuPDF, pandas, Pillow, ...) load only inside the extractor that needs them.
"""

from __future__ import annotations

# ruff: noqa: E402 - the worker template starts before the rest of docread imports
from .isolation.template import prestart

prestart()  # its imports (docread, PyMuPDF: 0.22 s) run beside ours, not after them

import os
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
from .reader import Reader, loader_workspace
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

PathLike = str | os.PathLike[str]
# The functions below share one process-wide worker pool (started on first use, stopped at exit),
# so calling docread.read in a loop does not start new worker processes for every file.


def read(
    file_path: PathLike, *, workspace: PathLike | None = None, config: Any = None, **options: Any
) -> ReadResult:
    """Read one file (or list a directory) as the agent view sees it; see ReadOptions."""
    with Reader(workspace, config, shared_pool=True) as reader:
        return reader.read(file_path, **options)


async def aread(
    file_path: PathLike, *, workspace: PathLike | None = None, config: Any = None, **options: Any
) -> ReadResult:
    """``read`` without blocking the event loop."""
    with Reader(workspace, config, shared_pool=True) as reader:
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
    yield from _loading(Reader.iter_units, paths, workspace, config, options)


def iter_documents(
    paths: PathLike | Iterable[PathLike],
    *,
    workspace: PathLike | None = None,
    config: Any = None,
    **options: Any,
) -> Iterator[Document]:
    """Loader mode, Documents only, streamed (a 2,000-page PDF never sits in memory whole)."""
    yield from _loading(Reader.iter_documents, paths, workspace, config, options)


def _loading(
    method: Callable[..., Iterator[Any]],
    paths: PathLike | Iterable[PathLike],
    workspace: PathLike | None,
    config: Any,
    options: dict[str, Any],
) -> Iterator[Any]:
    root, given = loader_workspace(paths, workspace)
    with Reader(root, config, shared_pool=True) as reader:
        yield from method(reader, given, **options)
