"""DocReadParser: docread as a LangChain blob parser, so it composes with ``GenericLoader`` and
any ``BlobLoader`` (file system, cloud storage, ...)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Any

import docread
from docread.integrations.adapters import check_keywords, loader_workspace
from langchain_core.document_loaders import BaseBlobParser, Blob
from langchain_core.documents import Document

from .loader import PathLike
from .rag import Images, check_images, chunker_for, rag_documents


class DocReadParser(BaseBlobParser):
    """Parses a Blob of any format docread reads into LangChain Documents (loader mode).

    A blob with a path is read in place; an in-memory blob (``Blob.from_data``) is read from its
    bytes (``blob.path``'s extension helps detection), and its documents keep ``blob.source`` as
    ``source``. ``chunk_size`` / ``chunk_overlap`` / ``chunk_sections`` / ``contextualize`` /
    ``images`` / ``media_dir`` are ``DocReadLoader``'s (docread's chunker, pictures as Documents).
    """

    def __init__(
        self,
        *,
        workspace: PathLike | None = None,
        config: Any = None,
        chunk_size: int | None = None,
        chunk_overlap: int = 0,
        chunk_sections: bool = True,
        contextualize: bool = False,
        images: Images = "text",
        media_dir: PathLike | None = None,
        **read_options: Any,
    ) -> None:
        check_keywords(type(self).__init__, read_options, reads=True)  # fail early on a typo
        self.workspace = workspace
        self.config = config
        self.read_options = read_options
        self.chunker = chunker_for(chunk_size, chunk_overlap, chunk_sections)
        self.contextualize = contextualize
        self.images = check_images(images)
        self.media_dir = media_dir

    def lazy_parse(self, blob: Blob) -> Iterator[Document]:
        """Documents of one blob, streamed; a ReadDocumentError propagates to the caller."""
        if blob.data is None and blob.path is not None:
            workspace, paths = loader_workspace(blob.path, self.workspace)
            with docread.Reader(workspace, self.config, shared_pool=True) as reader:
                for doc in self._documents(reader.iter_units(paths[0], **self.read_options)):
                    yield self._with_blob_metadata(doc, blob)
            return
        name = PurePath(os.fspath(blob.path)).name if blob.path else "blob"
        with docread.Reader(self.workspace, self.config, shared_pool=True) as reader:
            units = reader.iter_bytes(blob.as_bytes(), name, **self.read_options)
            for lc in self._documents(units):
                lc.metadata.update(source=blob.source or name, file_path=blob.source or name)
                yield self._with_blob_metadata(lc, blob)

    def _documents(self, units: Iterable[docread.Unit]) -> Iterator[Document]:
        return rag_documents(
            units,
            chunker=self.chunker,
            images=self.images,
            media_dir=self.media_dir,
            contextualize=self.contextualize,
        )

    @staticmethod
    def _with_blob_metadata(doc: Document, blob: Blob) -> Document:
        """The blob's own metadata (from its BlobLoader) under the document's."""
        if blob.metadata:
            doc.metadata = {**blob.metadata, **doc.metadata}
        return doc
