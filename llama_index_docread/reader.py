"""DocReadReader: docread's core as a LlamaIndex reader, alone or in SimpleDirectoryReader's
``file_extractor``; it maps metadata names and media only, all reading stays in the core."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import docread
from docread.integrations.adapters import (
    ErrorPolicy,
    check_keywords,
    check_on_error,
    classify_filesystem,
    extensions,
    loader_workspace,
)
from llama_index.core.readers.base import BasePydanticReader
from llama_index.core.schema import Document, ImageDocument, MediaResource
from pydantic import Field, PrivateAttr

from .blocks import media_path

#: Metadata that goes into the embedding text: what a chunk is about that its text does not say
#: already, never the bookkeeping. The sheet, slide, SQLite table and notebook cell type are left
#: out: the unit's own heading names them ("Sheet: Q4_Sales", "## Slide 2: Plan"), which BM25,
#: the LLM and every other framework see too, so the embedding text would say them twice.
EMBED_KEYS = frozenset({"file_name", "title", "page_label", "member", "chapter"})
#: Metadata the LLM sees with a chunk: enough to cite it (file, page, sheet, rows, cell), also for
#: a node split off after the unit's heading.
LLM_KEYS = EMBED_KEYS | {
    "sheet",
    "slide_number",
    "table",
    "cell_type",
    "file_path",
    "author",
    "row_start",
    "row_end",
    "cell_index",
    "line_start",
    "page_count",
}

#: How ``headings`` (a list in docread) is one string in LlamaIndex metadata.
HEADINGS_SEPARATOR = " > "

#: The keys SimpleDirectoryReader appends to both excluded lists of every Document it loads
#: (``SimpleDirectoryReader._exclude_metadata``, llama-index-core 0.14), whatever the reader set.
SDR_FILE_KEYS = frozenset(
    {
        "file_name",
        "file_type",
        "file_size",
        "creation_date",
        "last_modified_date",
        "last_accessed_date",
    }
)


class FileDependencyError(docread.ReadDocumentError, RuntimeError):
    """A file needs a missing package or program. Deliberately not an ImportError:
    SimpleDirectoryReader re-raises any ImportError and aborts the whole directory."""


class DocReadReader(BasePydanticReader):
    """Reads any file docread reads into LlamaIndex Documents (one per page, sheet chunk, cell,
    ...) with stable ids, LlamaIndex's metadata names and ImageDocuments for pictures.

    ``workspace`` is the sandbox root (default: docread's one loader rule,
    ``adapters.loader_workspace``: the current directory, or "/" for a path outside it, as a
    loader is given paths by its program, not by a model); ``config`` is a tools-security.yaml path, dict or Settings; any
    other keyword is a docread read option (``pages="1-5"``, ``ocr=True``, ...), validated now.
    A failing file follows docread's loader rule (``Reader.iter_units``): by default the path
    given raises a typed docread error (SimpleDirectoryReader, which names each file, then skips
    it and prints why, or re-raises with its ``raise_on_error=True``) and a file found in a
    folder given is logged (a warning on the ``docread`` logger) and skipped, the load saying at
    its end how many (on stderr without logging set up); ``on_error=
    "raise"`` raises every failure, "warn" logs each as that warning, "skip" at info level,
    keeping what was read before. A missing dependency is raised as ``FileDependencyError``.
    ``source`` is the path relative to the workspace (docread's one rule, the LangChain loader's
    too; ids hash it), ``file_path`` the absolute one. ``DocReadNodeParser`` chunks the Documents.
    ``workers`` files load at once (default one per CPU, 1: one at a time), in walk order unless
    ``ordered=False``; ``show_progress`` puts a tqdm bar on folder loads (default: when stderr is
    a terminal).
    """

    is_remote: bool = False
    workspace: str | None = None
    config: Any = None
    read_options: dict[str, Any] = Field(default_factory=dict)
    on_error: ErrorPolicy | None = None
    media_dir: str | None = None
    workers: int | None = None
    ordered: bool = True
    show_progress: bool | None = None
    _settings: Any = PrivateAttr(default=None)

    def __init__(
        self,
        *,
        workspace: str | os.PathLike[str] | None = None,
        config: Any = None,
        on_error: ErrorPolicy | None = None,
        media_dir: str | os.PathLike[str] | None = None,
        workers: int | None = None,
        ordered: bool = True,
        show_progress: bool | None = None,
        **read_options: Any,
    ) -> None:
        check_keywords(type(self).__init__, read_options, reads=True)  # a typo fails now
        check_on_error(on_error)
        # the fields are this class's: mypy types BaseModel.__init__ from the base's fields only
        super().__init__(  # type: ignore[call-arg]
            workspace=os.fspath(workspace) if workspace is not None else None,
            config=config,
            read_options=read_options,
            on_error=on_error,
            media_dir=os.fspath(media_dir) if media_dir is not None else None,
            workers=workers,
            ordered=ordered,
            show_progress=show_progress,
        )
        self._settings = docread.Settings.load(config)  # a bad config fails here too

    @classmethod
    def class_name(cls) -> str:
        return "DocReadReader"

    def file_extractor(self) -> dict[str, DocReadReader]:
        """``{".pdf": self, ".xlsx": self, ...}`` for every extension docread reads, to pass as
        ``SimpleDirectoryReader(file_extractor=...)`` (keys are the last suffix, as SDR looks up)."""
        return {"." + ext.rsplit(".", 1)[-1]: self for ext in extensions()}

    def lazy_load_data(
        self,
        file: str | os.PathLike[str],
        extra_info: Mapping[str, Any] | None = None,
        fs: Any = None,
    ) -> Iterator[Document]:
        """Stream one file's (or a directory's) units as Documents; ``extra_info`` (what
        SimpleDirectoryReader passes) is merged into every unit's metadata and wins on clashes.
        A file on an fsspec filesystem of this machine (``file``/``local``, or a ``DirFileSystem``
        over one: its folder is then the default workspace) is read as a local file, inside the
        workspace; any other filesystem's file is copied out by its bytes (``_load_remote``)."""
        workspace = self.workspace
        if fs is not None:
            local, base = classify_filesystem(fs)
            if not local:
                yield from self._load_remote(file, extra_info, fs)
                return
            if base is not None:  # a path in the folder a DirFileSystem confines it to
                file = os.path.join(base, os.fspath(file).lstrip("/"))
                workspace = workspace if workspace is not None else base
        root, paths = loader_workspace(file, workspace)
        created: dict[str, str | None] = {}  # per file: a directory yields many files' units
        with docread.Reader(root, self._settings, shared_pool=True) as reader:
            units = reader.iter_units(
                paths,
                on_error=self.on_error,
                workers=self.workers,
                ordered=self.ordered,
                show_progress=self.show_progress,
                progress_label="DocReadReader",
                **self.read_options,
            )
            try:
                for unit in units:
                    where = str(unit.metadata.get("file_path", ""))
                    if where not in created:
                        created[where] = _creation_date(where)
                    yield self._convert(unit, extra_info, created[where])
            except docread.DependencyMissingError as exc:  # an ImportError: SDR would abort
                raise FileDependencyError(exc.message, path=exc.path) from exc

    def _load_remote(
        self, file: Any, extra_info: Mapping[str, Any] | None, fs: Any
    ) -> Iterator[Document]:
        """A file on an fsspec filesystem: copied to a private temp folder under its remote path
        (so ``source``, and the ids, are the remote path's), read, then removed."""
        remote_path = str(file)
        name = Path(remote_path).name
        with tempfile.TemporaryDirectory(prefix="docread-") as tmp:
            local = Path(tmp, _relative_remote(remote_path))
            local.parent.mkdir(parents=True, exist_ok=True)
            with fs.open(remote_path, "rb") as src, local.open("wb") as dst:
                shutil.copyfileobj(src, dst)
            given = extra_info or {}
            for doc in self.model_copy(update={"workspace": tmp}).lazy_load_data(local, extra_info):
                doc.metadata["source"] = remote_path  # not the temp copy's path
                for key, value in (("file_path", remote_path), ("file_name", name)):
                    if given.get(key) is None:  # extra_info's own value wins, as for local files
                        doc.metadata[key] = value
                yield doc

    def _convert(
        self, unit: docread.Unit, extra_info: Mapping[str, Any] | None, created: str | None
    ) -> Document:
        meta = llama_metadata(unit.metadata, extra_info, created)
        excluded = excluded_keys(meta, extra_info)
        if isinstance(unit, docread.Document):
            return Document(text=unit.text, metadata=meta, id_=unit.id, **excluded)
        path = media_path(unit, self.media_dir)
        meta["media_path"] = path
        if unit.mime_type.startswith("image/"):
            meta["image_mimetype"] = unit.mime_type
            resource = MediaResource(data=unit.data, path=Path(path), mimetype=unit.mime_type)
            return ImageDocument(
                text="", image_resource=resource, metadata=meta, id_=unit.id, **excluded
            )
        meta["media_mimetype"] = unit.mime_type  # a raw PDF (view="pdf"): kept as a file on disk
        return Document(text="", metadata=meta, id_=unit.id, **excluded)


def llama_metadata(
    core: Mapping[str, Any], extra_info: Mapping[str, Any] | None = None, created: str | None = None
) -> dict[str, Any]:
    """Core metadata plus SimpleDirectoryReader's names (``file_type``, ``creation_date``,
    ``last_modified_date``, ``page_label`` as a string; ``headings`` flat), then ``extra_info`` (its None values
    never erase a known value)."""
    meta = dict(core)
    meta["file_type"] = meta.get("mime_type")
    if created:
        meta["creation_date"] = created
    modified = meta.get("modified")
    if isinstance(modified, str) and modified:
        meta["last_modified_date"] = modified[:10]
    page = meta.get("page_number")
    if isinstance(page, int):
        meta["page_label"] = str(page)
    if isinstance(meta.get("headings"), list):
        meta["headings"] = flat_headings(meta["headings"])
    for key, value in (extra_info or {}).items():
        if value is not None or key not in meta:
            meta[key] = value
    return meta


def flat_headings(headings: Sequence[str]) -> str:
    """A heading path as LlamaIndex metadata: one " > "-joined string (vector stores take flat
    metadata only; docread's ``headings`` is a list)."""
    return HEADINGS_SEPARATOR.join(headings)


def listed_headings(flat: str) -> list[str]:
    """``flat_headings`` undone, for the chunker."""
    return flat.split(HEADINGS_SEPARATOR) if flat else []


def excluded_keys(
    meta: Mapping[str, Any], extra_info: Mapping[str, Any] | None = None
) -> dict[str, list[str]]:
    """A unit's ``excluded_embed/llm_metadata_keys``: docread's keys outside EMBED_KEYS/LLM_KEYS.
    A reader given ``extra_info`` runs inside SimpleDirectoryReader, which appends SDR_FILE_KEYS
    to both lists itself after loading, so those and the caller's own keys are left to it."""
    left = set(extra_info) | SDR_FILE_KEYS if extra_info is not None else set()
    ours = [k for k in sorted(meta) if k not in left]
    return {
        "excluded_embed_metadata_keys": [k for k in ours if k not in EMBED_KEYS],
        "excluded_llm_metadata_keys": [k for k in ours if k not in LLM_KEYS],
    }


def _creation_date(path: str) -> str | None:
    """The file's creation (or, where the OS has none, metadata-change) date, UTC YYYY-MM-DD;
    None for what is not a file on disk (an archive member, a remote copy)."""
    if not os.path.isabs(path):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    stamp = getattr(st, "st_birthtime", st.st_ctime)
    return datetime.fromtimestamp(stamp, tz=UTC).strftime("%Y-%m-%d")


def _relative_remote(path: str) -> str:
    """A remote path as a relative local one ("bucket/a/notes.md"): no root, no "..", no ".";
    the temp copy keeps the remote folders, so two files of one name get different ids."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".", "..")]
    return "/".join(parts) or "file"
