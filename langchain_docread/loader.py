"""DocReadLoader: a LangChain document loader for any file docread reads (a drop-in for
PyMuPDFLoader, PyPDFLoader, CSVLoader, NotebookLoader and DirectoryLoader)."""

from __future__ import annotations

import logging
import os
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import docread
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document

from .blocks import to_langchain

logger = logging.getLogger(__name__)
PathLike = str | os.PathLike[str]
OnError = Literal["warn", "raise", "skip"]


class DocReadLoader(BaseLoader):
    """Loads a file, a list of files, or a directory (optionally filtered by ``glob``) into
    LangChain Documents, streamed: one per page, row chunk, cell, section, ... as the core yields.

    ``read_options`` are docread read options (``pages``, ``sheet``, ``rows``, ``ocr``, ...).
    ``on_error`` decides what a failing file does: "warn" (default; a warning, the other files
    go on), "raise", or "skip" (logged only). Without ``workspace`` the root is the current
    directory, or "/" when a path lies outside it (a loader reads what the program names).
    """

    def __init__(
        self,
        path_or_paths: PathLike | Sequence[PathLike],
        *,
        glob: str | None = None,
        recursive: bool = True,
        workspace: PathLike | None = None,
        config: Any = None,
        show_progress: bool = False,
        on_error: OnError = "warn",
        **read_options: Any,
    ) -> None:
        if on_error not in ("warn", "raise", "skip"):
            raise ValueError(f"on_error={on_error!r}: must be 'warn', 'raise' or 'skip'")
        paths = [path_or_paths] if isinstance(path_or_paths, str | os.PathLike) else path_or_paths
        self.paths = [os.fspath(p) for p in paths]
        self.glob = glob
        self.recursive = recursive
        self.workspace = workspace
        self.config = config
        self.show_progress = show_progress
        self.on_error = on_error
        self.read_options = read_options
        docread.ReadOptions.from_kwargs("", **read_options)  # a typo fails here, not mid-load

    def lazy_load(self) -> Iterator[Document]:
        """Documents of every file, in order, as the core produces them."""
        workspace, paths = default_workspace(self.paths, self.workspace)
        with docread.Reader(workspace, self.config, shared_pool=True) as reader:
            for path in self._progress(self._files(reader, paths)):
                try:
                    for doc in reader.iter_documents(path, **self.read_options):
                        yield to_langchain(doc)
                except docread.ReadDocumentError as exc:
                    self._failed(path, exc)

    def _files(self, reader: docread.Reader, paths: list[str]) -> list[str]:
        """Every file to read, directories expanded (sorted, hidden folders skipped)."""
        files: list[str] = []
        for path in paths:
            try:
                resolved = reader.workspace.resolve(path)
            except docread.ReadDocumentError as exc:
                self._failed(path, exc)
                continue
            if not resolved.is_dir():
                files.append(path)
                continue
            for child in reader.walk(path, pattern=self.glob, recursive=self.recursive):
                rel = (reader.workspace.root / child).relative_to(resolved)
                files.append(str(Path(path) / rel))  # shown under the path as given
        return files

    def _progress(self, files: list[str]) -> Iterator[str]:
        if not self.show_progress:
            return iter(files)
        from tqdm.auto import tqdm

        return iter(tqdm(files, desc="DocReadLoader", unit="file"))

    def _failed(self, path: str, exc: docread.ReadDocumentError) -> None:
        if self.on_error == "raise":
            raise exc
        if self.on_error == "warn":
            warnings.warn(f"DocReadLoader skipped {path}: {exc}", UserWarning, stacklevel=3)
        else:
            logger.info("skipped %s: %s", path, exc)


def default_workspace(
    paths: Sequence[str], workspace: PathLike | None
) -> tuple[PathLike, list[str]]:
    """The root to read under, and the paths to pass: ``workspace`` as given; otherwise the
    current directory, or "/" (relative paths made absolute) when a path lies outside it."""
    if workspace is not None:
        return workspace, list(paths)
    cwd = Path.cwd().resolve()
    if all(_inside(Path(p).absolute(), cwd) for p in paths):
        return cwd, list(paths)
    return "/", [os.path.abspath(p) for p in paths]


def _inside(path: Path, root: Path) -> bool:
    try:
        Path(os.path.realpath(path)).relative_to(root)
    except ValueError:
        return False
    return True
