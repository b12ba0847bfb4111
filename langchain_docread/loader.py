"""DocReadLoader: a LangChain document loader for any file docread reads (a drop-in for
PyMuPDFLoader, PyPDFLoader, CSVLoader, NotebookLoader and DirectoryLoader)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import docread
from docread.integrations.adapters import (
    OnError,
    aiterate,
    check_keywords,
    check_on_error,
    loader_workspace,
)
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document

from .rag import Images, check_images, chunker_for, rag_documents

PathLike = str | os.PathLike[str]


class DocReadLoader(BaseLoader):
    """Loads a file, a list of files, or a directory (optionally filtered by ``glob``) into
    LangChain Documents, streamed: one per page, row chunk, cell, section, ... as the core yields.

    ``read_options`` are docread read options (``pages``, ``sheet``, ``rows``, ``ocr``, ...).
    A failing file follows docread's loader rule (``Reader.iter_units``): by default a path you
    named raises and a file found in a folder is logged (a warning on the ``docread`` logger)
    and skipped, the load saying at its end how many (on stderr without logging set up);
    ``on_error="raise"`` raises every failure, "warn" logs each as that warning and
    goes on, "skip" logs it at info level and goes on; a function ``(path, error)`` gets each.
    Without ``workspace`` the root is docread's one loader rule
    (``adapters.loader_workspace``): the current directory, or "/" when a path lies
    outside it (a loader reads what the program names). ``workers`` files load at once
    (default one per CPU, 1: one at a time), in walk order unless ``ordered=False``;
    ``show_progress`` puts a tqdm bar on folder loads (default: when stderr is a terminal).

    ``chunk_size`` (characters) and ``chunk_overlap`` (at most half of it) chunk with docread's
    chunker (``docread.rag.chunking``): markdown units (PDF, office, HTML, tables, .md) by section
    (``chunk_sections=False``: each unit on its own), a chunk with ``headings`` (its heading
    path), ``page_start``/``page_end``, table rows whole, and a stable ``id`` for
    ``langchain_core.indexing.index()``; ``contextualize=True`` starts ``page_content`` with the
    heading path (embedded, stored and shown: LangChain has one text). ``images="base64"`` or ``"path"`` adds
    a Document per picture carrying it (metadata ``image_url`` / ``image_path`` in ``media_dir``);
    the default "text" keeps only the pictures' text (see ``langchain_docread.rag``).
    """

    def __init__(
        self,
        path_or_paths: PathLike | Sequence[PathLike],
        *,
        glob: str | None = None,
        recursive: bool = True,
        workspace: PathLike | None = None,
        config: Any = None,
        show_progress: bool | None = None,
        on_error: OnError = None,
        chunk_size: int | None = None,
        chunk_overlap: int = 0,
        chunk_sections: bool = True,
        contextualize: bool = False,
        images: Images = "text",
        media_dir: PathLike | None = None,
        workers: int | None = None,
        ordered: bool = True,
        **read_options: Any,
    ) -> None:
        check_on_error(on_error)  # a typo fails here, not at the first failing file
        check_keywords(type(self).__init__, read_options, reads=True)  # a typo fails here too
        if "pattern" in read_options:  # docread's name for the glob (iter_units, LlamaIndex)
            if glob is not None:
                raise docread.InvalidOptionError("DocReadLoader: give glob= or pattern=, not both")
            glob = read_options.pop("pattern")
        paths = [path_or_paths] if isinstance(path_or_paths, str | os.PathLike) else path_or_paths
        self.paths = [os.fspath(p) for p in paths]
        self.glob = glob
        self.recursive = recursive
        self.workspace = workspace
        self.config = config
        self.show_progress = show_progress
        self.on_error = on_error
        self.workers = workers
        self.ordered = ordered
        self.read_options = read_options
        self.chunker = chunker_for(chunk_size, chunk_overlap, chunk_sections)
        self.contextualize = contextualize
        self.images = check_images(images)
        self.media_dir = media_dir

    def lazy_load(self) -> Iterator[Document]:
        """Documents of every file, in order, as the core produces them (the core walks folders,
        filters by glob and hands each failing file to ``on_error``; this maps the metadata)."""
        workspace, paths = loader_workspace(self.paths, self.workspace)
        with docread.Reader(workspace, self.config, shared_pool=True) as reader:
            units = reader.iter_units(
                paths,
                pattern=self.glob,
                recursive=self.recursive,
                on_error=self.on_error,
                workers=self.workers,
                ordered=self.ordered,
                show_progress=self.show_progress,
                progress_label="DocReadLoader",
                **self.read_options,
            )
            yield from rag_documents(
                units,
                chunker=self.chunker,
                images=self.images,
                media_dir=self.media_dir,
                contextualize=self.contextualize,
            )

    async def alazy_load(self) -> AsyncIterator[Document]:
        """``lazy_load`` for an event loop: the files load concurrently on the workers (one
        thread drives the parallel load), each Document handed over as it comes."""
        async for doc in aiterate(self.lazy_load):
            yield doc
