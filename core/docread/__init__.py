"""docread: read any file for LLM agents and RAG pipelines.

    result = docread.read("report.pdf", pages="1-5")      # the agent view's window
    print(result.render())                                # header, content, notes
    for doc in docread.iter_documents("data/"):           # loader mode, streamed
        ...

Heavy libraries (PyMuPDF, pandas, Pillow, ...) load only inside the extractor that needs them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from .errors import (
    ArchiveSecurityError,
    BannedExtensionError,
    CacheError,
    ContentSanitizationError,
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
    "ContentSanitizationError",
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
    file_path: PathLike, *, workspace: PathLike | None = None, config: Any = None, **options: Any
) -> Iterator[Unit]:
    """Loader mode: every Document and Media of a file or directory, streamed."""
    with Reader(workspace, config, shared_pool=True) as reader:
        yield from reader.iter_units(file_path, **options)


def iter_documents(
    file_path: PathLike, *, workspace: PathLike | None = None, config: Any = None, **options: Any
) -> Iterator[Document]:
    """Loader mode, Documents only, streamed (a 2,000-page PDF never sits in memory whole)."""
    with Reader(workspace, config, shared_pool=True) as reader:
        yield from reader.iter_documents(file_path, **options)
