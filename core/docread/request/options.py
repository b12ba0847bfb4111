"""ReadOptions: one validated read request, with every parameter of the tool design."""

from __future__ import annotations

import dataclasses
import inspect
import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..errors import InvalidOptionError
from ..model import dataclass
from ..sanitize import shown_name
from .ranges import ColumnSpec, PageSpec, RowSpec, check_number, compile_glob, number

OUTPUT_FORMATS = ("text", "markdown", "json")
ARCHIVE_MODES = ("list", "read", "extract")
VIEWS = ("text", "visual", "pdf", "auto", "outline")
#: Longest ``section=`` name taken (an id, or a heading's text or its start).
SECTION_CHARS = 500
#: The options that select or shape content, with their defaults; each extractor says which it
#: honours (``Extractor.options``) and the others are named in a note.
_CONTENT_DEFAULTS: dict[str, Any] = {
    "offset": None, "limit": None, "pages": None, "rows": None, "columns": None, "sheet": None,
    "table": None, "mode": None, "archive_path": None, "pattern": None, "view": "text",
    "extract_images": False, "extract_tables": False, "ocr": None,
}  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadOptions:
    """What to read from a file and how to render it; validated on creation.

    ``offset``/``limit`` window text lines (1-based; ``None`` is the default of 2,000 lines in the
    agent view, ``limit=0`` no line limit: the view still stops at ``output.max_lines``),
    ``pages`` PDF pages or slides or sections, ``section`` one section whole (its id from
    ``view="outline"``, or its heading text or a unique start of it), ``rows`` /
    ``columns`` / ``sheet`` (or ``table`` for SQLite) window tables, ``mode`` / ``archive_path`` /
    ``pattern`` drive archives (``pattern`` also filters directory walks). ``view`` picks text,
    rendered page images ("visual"), the raw PDF ("pdf"), text plus images of scanned pages
    ("auto") or the document's sections, one line each ("outline").
    """

    file_path: str = ""
    offset: int | None = None
    limit: int | None = None
    pages: str | None = None
    section: str | None = None
    rows: str | None = None
    columns: str | None = None
    sheet: str | int | None = None
    table: str | None = None
    mode: str | None = None
    archive_path: str | None = None
    pattern: str | None = None
    include_metadata: bool = True
    format_hint: str | None = None
    output_format: str = "text"
    view: str = "text"
    extract_images: bool = False
    extract_tables: bool = False
    ocr: bool | None = None

    def __post_init__(self) -> None:
        _check_int("offset", self.offset, minimum=1)
        _check_int("limit", self.limit, minimum=0)
        _check_choice("output_format", self.output_format, OUTPUT_FORMATS)
        _check_choice("view", self.view, VIEWS)
        if self.mode is not None:
            _check_choice("mode", self.mode, ARCHIVE_MODES)
        for name in ("include_metadata", "extract_images", "extract_tables"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidOptionError(f"{name}={getattr(self, name)!r}: must be true or false")
        if self.ocr is not None and not isinstance(self.ocr, bool):
            raise InvalidOptionError(f"ocr={self.ocr!r}: must be true or false")
        if (
            self.sheet is not None
            and not isinstance(self.sheet, str | int)
            or isinstance(self.sheet, bool)
        ):
            raise InvalidOptionError(f"sheet={self.sheet!r}: give a sheet name or a 0-based index")
        if isinstance(self.sheet, int):
            check_number("sheet", self.sheet)
            if self.sheet < 0:
                raise InvalidOptionError(
                    f"sheet={self.sheet!r}: the index is 0-based and cannot be negative"
                )
        elif isinstance(self.sheet, str) and self.sheet.isdecimal():  # may be read as an index
            number(self.sheet, "sheet", self.sheet)
        for name in (
            "pages",
            "section",
            "rows",
            "columns",
            "table",
            "archive_path",
            "pattern",
            "format_hint",
        ):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise InvalidOptionError(f"{name}={value!r}: must be a string")
        if self.pages is not None:
            PageSpec.parse(self.pages)
        if self.section is not None:
            self._check_section()
        if self.rows is not None:
            RowSpec.parse(self.rows)
        if self.columns is not None:
            ColumnSpec.parse(self.columns)
        if self.pattern is not None:
            compile_glob(self.pattern)  # a malformed glob fails here, whatever reads it later
        if self.format_hint is not None:
            from ..formats import lookup_hint

            lookup_hint(self.format_hint)  # raises InvalidOptionError naming the known formats

    def _check_section(self) -> None:
        """``section=`` names one section of a document's text: not blank, not a novel, and
        with the text view or the outline (its subsections), never beside ``pages``."""
        name = str(self.section)
        if not name.strip() or len(name) > SECTION_CHARS:
            raise InvalidOptionError(
                f"section={shown_name(repr(name), 40)}: give a section id from view='outline' "
                f"(e.g. 's3') or its heading text, at most {SECTION_CHARS} characters"
            )
        if self.view not in ("text", "outline"):
            raise InvalidOptionError(
                f"section={shown_name(repr(name), 40)} reads a section's text: it does not go "
                f"with view={self.view!r} (use pages= for page images)"
            )
        if self.pages is not None:
            raise InvalidOptionError(
                f"section={shown_name(repr(name), 40)} and pages={self.pages!r}: give one of "
                "them (a section reads on across its pages)"
            )

    @classmethod
    def from_kwargs(
        cls, file_path: str | bytes | os.PathLike[str] = "", **kwargs: Any
    ) -> ReadOptions:
        """Build from keyword arguments, naming any unknown one (a typo must not pass silently);
        a path given as bytes (a name that is not UTF-8) is decoded as Python decodes names."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise InvalidOptionError(
                f"unknown read option(s): {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        path = os.fsdecode(file_path) if isinstance(file_path, bytes | os.PathLike) else file_path
        return cls(file_path=str(path), **{k: v for k, v in kwargs.items() if v is not None})

    def replace(self, **changes: Any) -> ReadOptions:
        return dataclasses.replace(self, **changes)

    def given(self) -> dict[str, Any]:
        """The content options set away from their defaults (what an extractor may not honour)."""
        return {
            name: value
            for name, default in _CONTENT_DEFAULTS.items()
            if (value := getattr(self, name)) != default
        }

    @property
    def page_spec(self) -> PageSpec | None:
        return PageSpec.parse(self.pages) if self.pages is not None else None

    @property
    def row_spec(self) -> RowSpec | None:
        return RowSpec.parse(self.rows) if self.rows is not None else None

    @property
    def column_spec(self) -> ColumnSpec | None:
        return ColumnSpec.parse(self.columns) if self.columns is not None else None

    def cache_key_fields(self) -> dict[str, Any]:
        """Options that change extraction (not rendering): part of the cache key. Of the
        output format only whether it is markdown (a PDF page's paragraphs joined, an HTML
        page converted): text and JSON views share their reads."""
        data = dataclasses.asdict(self)
        data.pop("file_path")
        data["output_format"] = self.output_format == "markdown"
        return data


def _check_int(name: str, value: Any, *, minimum: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidOptionError(f"{name}={shown_name(repr(value), 40)}: must be a whole number")
    check_number(name, value)
    if value < minimum:
        raise InvalidOptionError(f"{name}={value!r}: must be at least {minimum}")


def _check_choice(name: str, value: Any, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise InvalidOptionError(f"{name}={value!r}: must be one of {', '.join(choices)}")


def check_keywords(owner: Callable[..., Any], given: Mapping[str, Any], *, reads: bool) -> None:
    """The keywords a wrapper took beyond its own parameters (``owner``: its class or its
    ``__init__``): docread read options when it ``reads`` (checked now, so a typo fails when the
    wrapper is made, not mid-load), else none. Any other is an InvalidOptionError that names
    the wrapper's own parameters as well as the read options, and what it may have meant:
    ``DocReadLoader(glob_pattern=...)`` was told of the read options only."""
    read = sorted(f.name for f in dataclasses.fields(ReadOptions) if f.name != "file_path")
    allowed = set(read) if reads else set()
    unknown = sorted(set(given) - allowed)
    if unknown:
        skip = (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
        params = inspect.signature(owner).parameters.values()
        own = [p.name for p in params if p.name != "self" and p.kind not in skip]
        name = owner.__qualname__.split(".")[0]
        lists = f"its parameters: {', '.join(own)}"
        if reads:
            lists += f"; read options: {', '.join(read)}"
        raise InvalidOptionError(
            f"{name}: unknown parameter(s) {', '.join(unknown)}"
            f"{suggestion(unknown, [*own, *allowed])}; {lists}"
        )
    if reads:
        ReadOptions.from_kwargs("", **given)


def suggestion(given: Iterable[str], known: Iterable[str]) -> str:
    """ " (did you mean pattern?)" for the names given that look like a known one (a leading
    "--" kept on both sides), else "": the CLI's flags and the wrappers' keywords."""
    import difflib  # an error's hint: not on every process's import path

    names = list(known)
    meant = [
        close
        for word in given
        for close in difflib.get_close_matches(word.split("=")[0], names, n=1, cutoff=0.6)
    ]
    return f" (did you mean {', '.join(dict.fromkeys(meant))}?)" if meant else ""
