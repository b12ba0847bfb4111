"""Settings from tools-security.yaml (section ``tools: read_document:``), with the design's defaults.

Lookup order: an explicit path, then ``$DOCREAD_CONFIG``, then ``./tools-security.yaml``, then the
built-in defaults. Unknown keys and wrong types are refused naming the key, so a typo in a
security limit can never silently fall back to a default.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import os
import types
import typing
from collections.abc import Callable
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from .errors import SettingsError
from .model import dataclass

MB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Limits:
    """File size limits per category, in bytes, checked before parsing."""

    text: int = 10 * MB
    pdf: int = 100 * MB
    office: int = 50 * MB
    archive: int = 500 * MB
    image: int = 50 * MB
    tabular: int = 100 * MB
    audio: int = 50 * MB
    database: int = 500 * MB
    notebook: int = 50 * MB
    email: int = 100 * MB


@dataclass(frozen=True, slots=True)
class PdfSettings:
    max_pages_text: int = 100
    max_pages_ocr: int = 20
    per_page_timeout: float = 5
    ocr_per_page_timeout: float = 30
    ocr_text_threshold: int = 50
    ocr_languages: str = "eng"
    ocr_dpi: int = 300
    ocr_max_dpi: int = 300  # finer scans are read at this: at 400 dpi the same text, 1.4-1.6x the CPU
    ocr_min_confidence: float = 60  # OCR lines under this mean word confidence are not indexed
    render_dpi: int = 100
    max_visual_pages: int = 20
    max_image_bytes: int = 5 * MB
    max_raw_bytes: int = 20 * MB
    max_page_content: int = 4 * MB
    # the per-page budget of finding ruled tables (find_tables re-reads the page and its
    # drawings: seconds on a page of 100,000 paths): a page drawing more paths, or whose
    # text pass took more CPU, keeps its text and is not searched for rules (with a note)
    table_max_paths: int = 5000
    table_max_seconds: float = 1.0
    # page text as markdown (headings, tables in place, lists, columns in reading order):
    # "auto" from the text geometry, "layout" through PyMuPDF's layout model on every page,
    # "off" the plain text in content order
    structure: Literal["auto", "layout", "off"] = "auto"


@dataclass(frozen=True, slots=True)
class ArchiveSettings:
    max_compression_ratio: float = 100
    max_total_size: int = 500 * MB
    max_file_count: int = 10000
    max_single_file: int = 100 * MB
    max_nesting_depth: int = 3
    extraction_dir: str = ".tmp/extracted"
    banned_extensions: tuple[str, ...] = (
        ".exe", ".dll", ".so", ".dylib", ".com", ".scr", ".msi",
        ".app", ".deb", ".rpm", ".dmg", ".iso", ".img",
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class OutputSettings:
    max_chars: int = 500000
    max_lines: int = 10000
    max_cell_content: int = 1000
    strip_null_bytes: bool = True
    strip_control_chars: bool = True
    max_metadata_fields: int = 50
    max_metadata_value_len: int = 1000
    truncation_marker: str = "\n... [content truncated] ..."
    #: One agent view's budget in tokens (header, content and notes), cut at whole lines.
    max_tokens: int = 25000
    #: How tokens are counted: "estimate" (UTF-8 bytes / 4, no dependency) or a tiktoken
    #: encoding name ("o200k_base", "cl100k_base"), used only when tiktoken has it offline.
    token_counter: str = "estimate"
    #: One agent view's size in UTF-8 bytes, whatever the token count (the design's read tool
    #: caps a result at 200,000 bytes).
    max_bytes: int = 200_000
    #: Cells of one document table after its spans and repeats are placed (DOCX, ODT, ODP, PPTX,
    #: EPUB, HTML, PDF tables): the rows past it are cut, with a note and a line in the table.
    max_table_cells: int = 1_000_000
    #: A file's text, every unit of it (loaders and the agent view alike), is cut at this many
    #: characters per byte of the file (and of the archive members and attachments read from
    #: it), as archive.max_compression_ratio bounds bytes: a small file never makes hundreds of
    #: MB of text. ``min_text_budget`` is the floor, so a tiny file still reads whole.
    max_text_ratio: float = 100
    min_text_budget: int = MB


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds. ``global_`` is the YAML key ``global``."""

    global_: float = 180
    pdf_per_page: float = 5
    ocr_per_page: float = 30
    archive_list: float = 30
    archive_extract: float = 60
    pandoc: float = 60
    antiword: float = 30
    tabular_load: float = 60


@dataclass(frozen=True, slots=True)
class MemorySettings:
    max_dataframe_rows: int = 100000
    max_dataframe_cols: int = 500
    chunk_size: int = 10000
    max_worker_mb: int = 1024


@dataclass(frozen=True, slots=True)
class CacheSettings:
    enabled: bool = True
    directory: str = "~/.cache/docread"
    max_size_mb: int = 1024
    ttl_days: float = 7


@dataclass(frozen=True, slots=True)
class TextSettings:
    """Text and code reading: the cat -n window of the agent view and loader chunking."""

    default_limit: int = 2000
    max_line_length: int = 2000
    lines_per_document: int = 1000


@dataclass(frozen=True, slots=True)
class TabularSettings:
    default_rows: int = 50
    rows_per_document: int = 50


@dataclass(frozen=True, slots=True)
class ImageSettings:
    max_image_bytes: int = 5 * MB
    max_pixels: int = 89_478_485  # Pillow's own decompression-bomb threshold


@dataclass(frozen=True, slots=True)
class SqliteSettings:
    preview_rows: int = 5
    max_rows: int = 10000
    statement_timeout: float = 10


@dataclass(frozen=True, slots=True)
class IsolationSettings:
    """Worker processes for the heavy extractors; ``workers: 0`` means one per CPU."""

    enabled: bool = True
    workers: int = 0
    acquire_timeout: float = 10  # seconds a read waits while every worker is held unread


@dataclass(frozen=True, slots=True)
class WorkspaceSettings:
    """``alias``: a virtual absolute prefix (``/workspace``) that maps onto the workspace root.
    ``allow_hardlinks``: read regular files that have more than one hard link (off: another
    link may be a file outside the workspace, which no path check can see)."""

    alias: str = "/workspace"
    allow_hardlinks: bool = False


@dataclass(frozen=True, slots=True)
class Settings:
    """Every knob of docread; frozen, passed down, fingerprinted for the cache key."""

    global_timeout: float = 180
    limits: Limits = field(default_factory=Limits)
    pdf: PdfSettings = field(default_factory=PdfSettings)
    archive: ArchiveSettings = field(default_factory=ArchiveSettings)
    output: OutputSettings = field(default_factory=OutputSettings)
    timeouts: Timeouts = field(default_factory=Timeouts)
    memory: MemorySettings = field(default_factory=MemorySettings)
    cache: CacheSettings = field(default_factory=CacheSettings)
    text: TextSettings = field(default_factory=TextSettings)
    tabular: TabularSettings = field(default_factory=TabularSettings)
    image: ImageSettings = field(default_factory=ImageSettings)
    sqlite: SqliteSettings = field(default_factory=SqliteSettings)
    isolation: IsolationSettings = field(default_factory=IsolationSettings)
    workspace: WorkspaceSettings = field(default_factory=WorkspaceSettings)

    @classmethod
    def load(
        cls, config: str | os.PathLike[str] | Settings | dict[str, Any] | None = None
    ) -> Settings:
        """Settings from an explicit path/dict, ``$DOCREAD_CONFIG``, ``./tools-security.yaml`` or defaults."""
        if isinstance(config, Settings):  # a value not its default was written
            return _aligned(config, lambda path: _value(config, path) != _value(_default(), path))
        if isinstance(config, dict):
            return cls.from_mapping(config, origin="<dict>")
        path = config or os.environ.get("DOCREAD_CONFIG")
        if not path and Path("tools-security.yaml").is_file():
            path = "tools-security.yaml"
        if not path:
            return cls()
        return cls.from_file(path)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> Settings:
        """Parsed once per file version (path, mtime, size): readers made per call stay cheap."""
        full = Path(path).expanduser()
        try:
            st = full.stat()
        except OSError as exc:
            raise SettingsError(f"cannot read settings file {path}: {exc}", path=str(path)) from exc
        return _from_file(str(full.resolve()), st.st_mtime_ns, st.st_size, str(path))

    @classmethod
    def from_mapping(cls, raw: Any, *, origin: str = "<settings>") -> Settings:
        """Accept either the whole file (``tools: read_document: ...``) or the section itself."""
        if not isinstance(raw, dict):
            raise SettingsError(f"{origin}: expected a mapping at the top level")
        if "tools" in raw:
            if set(raw) != {"tools"} or not isinstance(raw["tools"], dict):
                raise SettingsError(
                    f"{origin}: only a 'tools:' section is allowed at the top level"
                )
            raw = raw["tools"].get("read_document", {}) or {}
        return _aligned(
            _build(cls, raw, "read_document", origin), lambda path: _written(raw, path)
        )

    def fingerprint(self) -> str:
        """A stable digest of every value: part of the cache key, so new limits mean new results."""
        import json  # here: a worker unpickles its settings, the template imports no json

        blob = json.dumps(dataclasses.asdict(self), sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def limit_for(self, category: str) -> int | None:
        return getattr(self.limits, category, None)

    @property
    def workspace_alias(self) -> str:
        return self.workspace.alias


@functools.cache
def _default() -> Settings:
    """What a Settings object's values are told from (not written); made at its first use: a
    Settings made at import would generate its dataclass methods on the template's path."""
    return Settings()


@functools.lru_cache(maxsize=32)
def _from_file(full: str, mtime_ns: int, size: int, shown: str) -> Settings:
    import yaml

    try:
        raw = yaml.safe_load(Path(full).read_text(encoding="utf-8")) or {}
    except OSError as exc:
        raise SettingsError(f"cannot read settings file {shown}: {exc}", path=shown) from exc
    except yaml.YAMLError as exc:
        raise SettingsError(f"{shown} is not valid YAML: {exc}", path=shown) from exc
    return Settings.from_mapping(raw, origin=shown)


#: The limits the design names twice, each as its two spellings' paths in the section.
_TWICE = (
    (("global_timeout",), ("timeouts", "global")),
    (("pdf", "per_page_timeout"), ("timeouts", "pdf_per_page")),
    (("pdf", "ocr_per_page_timeout"), ("timeouts", "ocr_per_page")),
)


def _aligned(s: Settings, written: Callable[[tuple[str, ...]], bool]) -> Settings:
    """The design names three limits twice (``global_timeout`` / ``timeouts.global``,
    ``pdf.per_page_timeout`` / ``timeouts.pdf_per_page``, ``pdf.ocr_per_page_timeout`` /
    ``timeouts.ocr_per_page``): a value written wins over the other spelling's default (raising
    one spelling raises the limit), and of two values written the stricter wins."""
    glob, page, ocr = (
        min(_value(s, path) for path in [p for p in pair if written(p)] or pair) for pair in _TWICE
    )
    return dataclasses.replace(
        s,
        global_timeout=glob,
        timeouts=dataclasses.replace(s.timeouts, global_=glob, pdf_per_page=page, ocr_per_page=ocr),
        pdf=dataclasses.replace(s.pdf, per_page_timeout=page, ocr_per_page_timeout=ocr),
    )


def _written(raw: dict[str, Any], path: tuple[str, ...]) -> bool:
    """Whether the section as written holds ``path`` (``("pdf", "per_page_timeout")``)."""
    node: Any = raw
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return False
        node = node[key]
    return True


def _value(s: Settings, path: tuple[str, ...]) -> float:
    """The parsed value at a section path (YAML's ``global`` is the field ``global_``)."""
    node: Any = s
    for key in path:
        node = getattr(node, key if key != "global" else "global_")
    return typing.cast(float, node)


def _yaml_key(name: str) -> str:
    return name.rstrip("_")


def _build(cls: type, raw: Any, where: str, origin: str) -> Any:
    if not isinstance(raw, dict):
        raise SettingsError(f"{origin}: '{where}' must be a mapping, got {type(raw).__name__}")
    hints = typing.get_type_hints(cls)
    fields = {_yaml_key(f.name): f for f in dataclasses.fields(cls)}
    unknown = sorted(set(raw) - set(fields))
    if unknown:
        raise SettingsError(
            f"{origin}: unknown key(s) {', '.join(f'{where}.{k}' for k in unknown)}; "
            f"known keys: {', '.join(sorted(fields))}"
        )
    values: dict[str, Any] = {}
    for key, value in raw.items():
        f = fields[key]
        values[f.name] = _coerce(hints[f.name], value, f"{where}.{key}", origin)
    return cls(**values)


#: The words YAML 1.1 (PyYAML) reads as a boolean when unquoted, in either case.
_YAML_BOOLS = {True: ("yes", "true", "on"), False: ("no", "false", "off")}


def _unquoted(choices: tuple[Any, ...], value: bool, where: str, origin: str) -> Any:
    """The choice of an enum-valued setting that YAML read as ``value`` (``structure: off`` is
    the boolean False): the one choice spelled as such a word, else a SettingsError that says
    to quote it."""
    spelled = [c for c in choices if isinstance(c, str) and c.lower() in _YAML_BOOLS[value]]
    if len(spelled) == 1:
        return spelled[0]
    words = "/".join(_YAML_BOOLS[value])
    raise SettingsError(
        f"{origin}: {where} must be {' | '.join(map(str, choices))}, got the boolean {value} "
        f'(YAML reads an unquoted {words} as one): quote the value, e.g. "{choices[0]}"'
    )


def _coerce(tp: Any, value: Any, where: str, origin: str) -> Any:
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _build(tp, value or {}, where, origin)
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is float:  # NaN (never equal to itself) compares as no limit at all: refused
        if isinstance(value, int | float) and not isinstance(value, bool) and value == value:
            return float(value)
        tp = "a number"
    elif tp is str:
        if isinstance(value, str):
            return value
    elif typing.get_origin(tp) is Literal:
        choices = typing.get_args(tp)
        if isinstance(value, bool):  # YAML 1.1 read an unquoted off / on / yes / no as a bool
            return _unquoted(choices, value, where, origin)
        if value in choices:
            return value
        tp = " | ".join(map(str, choices))
    elif (typing.get_origin(tp) is tuple or isinstance(tp, types.GenericAlias)) and (
        isinstance(value, list) and all(isinstance(v, str) for v in value)
    ):
        return tuple(v.lower() for v in value)
    name = tp if isinstance(tp, str) else getattr(tp, "__name__", str(tp))
    raise SettingsError(f"{origin}: {where} must be {name}, got {value!r} ({type(value).__name__})")
