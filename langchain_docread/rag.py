"""docread units -> LangChain Documents for RAG: text chunked by docread's chunker (stable ids
for ``index()``, by section with ``headings``), and pictures as Documents carrying the image
(``images="base64" | "path"``)."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable, Iterator
from typing import Literal

import docread
from docread.integrations.adapters import Chunker, describe_media, media_path, unit_position
from docread.integrations.adapters import contextualize as contextualized
from langchain_core.documents import Document

from .blocks import to_langchain

Images = Literal["text", "base64", "path"]
IMAGE_MODES = ("text", "base64", "path")


def check_images(images: str) -> Images:
    """``images`` as given, or InvalidOptionError naming the choices."""
    if images not in IMAGE_MODES:
        raise docread.InvalidOptionError(
            f"images={images!r}: must be 'text' (the picture's text), 'base64' (a data URL in "
            "metadata image_url) or 'path' (a file in media_dir, metadata image_path)"
        )
    return images  # type: ignore[return-value]


def chunker_for(
    chunk_size: int | None, chunk_overlap: int, chunk_sections: bool = True
) -> Chunker | None:
    """The chunker a loader's ``chunk_size`` / ``chunk_overlap`` / ``chunk_sections`` ask for
    (None: whole units)."""
    if chunk_size is None:
        if chunk_overlap:
            raise docread.InvalidOptionError(
                f"chunk_overlap={chunk_overlap!r} needs chunk_size (the chunk length to overlap)"
            )
        return None
    return Chunker(chunk_size, chunk_overlap, sections=chunk_sections)


def rag_documents(
    units: Iterable[docread.Unit],
    *,
    chunker: Chunker | None = None,
    images: Images = "text",
    media_dir: str | os.PathLike[str] | None = None,
    contextualize: bool = False,
) -> Iterator[Document]:
    """LangChain Documents of a unit stream: text units whole or as their chunks (ids from the
    chunker; ``metadata["headings"]`` is a chunk's heading path); with ``contextualize``,
    ``page_content`` starts with that path (``docread.rag.chunking.contextualize``): LangChain has one
    text, so what is embedded is also what is stored and shown, and only when asked. With
    ``images`` "base64" or "path", each picture is also a Document (``_pictures``)."""
    items = _pictures(units, images, media_dir)
    for item in chunker.chunks(items) if chunker is not None else items:
        if isinstance(item, docread.Document):
            doc = to_langchain(item)
            if contextualize:
                doc.page_content = contextualized(item)
            yield doc
        else:
            yield item


def _pictures(
    units: Iterable[docread.Unit], images: Images, media_dir: str | os.PathLike[str] | None
) -> Iterator[docread.Document | Document]:
    """The text units as they are, and with ``images`` "base64" or "path" each picture (an image
    file, a notebook plot, a page image of ``view="visual"``) as a LangChain Document whose
    page_content is the text read at the same place (its OCR and metadata text, so text
    retrievers find it) or a description, and whose metadata carries ``image_url`` (a data URL)
    or ``image_path``, and ``image_mime_type``."""
    texts: dict[str, str] = {}  # position -> text, for the current file only
    current: object = None
    for unit in units:
        source = unit.metadata.get("source")
        if source != current:
            current, texts = source, {}
        if isinstance(unit, docread.Document):
            if images != "text":  # a picture's Document takes the text read at its place
                texts.setdefault(unit_position(unit.metadata), unit.text)
            yield unit
        elif images != "text" and unit.mime_type.startswith("image/"):
            text = texts.get(unit_position(unit.metadata)) or describe_media(unit)
            doc = to_langchain(docread.Document(text, unit.metadata, unit.id))
            doc.metadata["image_mime_type"] = unit.mime_type
            if images == "base64":
                data = base64.b64encode(unit.data).decode("ascii")
                doc.metadata["image_url"] = f"data:{unit.mime_type};base64,{data}"
            else:
                doc.metadata["image_path"] = media_path(unit, media_dir)
            yield doc
