"""The ReadDocument tool's parameters as one framework-free table (type, default, constraint,
model-facing description) and its description text, so every framework wrapper builds the same
schema from it; types and defaults come from ReadOptions, so the schema cannot drift from it."""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from ..errors import DependencyMissingError
from ..settings import Settings

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError
    from pydantic.v1 import ValidationError as ValidationErrorV1
from .options import ARCHIVE_MODES, OUTPUT_FORMATS, VIEWS, ReadOptions


@dataclass(frozen=True, slots=True)
class Parameter:
    """One tool argument: ``type`` and ``default`` as in ReadOptions, ``minimum`` for whole
    numbers, ``choices`` for strings that take a fixed set of values."""

    name: str
    type: Any
    default: Any
    description: str
    required: bool = False
    minimum: int | None = None
    choices: tuple[str, ...] | None = None

    @property
    def annotation(self) -> Any:
        """The type for a schema: a Literal of the choices (optional when the default is None)."""
        if self.choices is None:
            return self.type
        literal = cast(Any, Literal)[self.choices]  # a Literal built at run time
        return literal | None if self.default is None else literal

    def field_options(self) -> dict[str, Any]:
        """Keyword arguments for a schema field: description, default unless required, ``ge``."""
        options: dict[str, Any] = {"description": self.description}
        if not self.required:
            options["default"] = self.default
        if self.minimum is not None:
            options["ge"] = self.minimum
        return options


_DESCRIPTIONS: dict[str, str] = {
    "file_path": "Path of the file or directory, relative to the workspace (or /workspace/...).",
    "offset": "Text files (and a section or an outline): first line to read, 1-based.",
    "limit": "Text files (and a section or an outline): number of lines to read (text files: "
    "default 2000; 0 = up to the output cap).",
    "pages": 'PDF/slides/documents: page range, e.g. "1-5" or "1,3,7-9".',
    "section": "Long documents: read one section whole, with its subsections, across pages: its "
    'id from view="outline" (e.g. "s12") or its heading text (a unique start of it is enough). '
    "A long section is cut; the note gives the offset that reads on inside it.",
    "rows": 'Tables: row range, e.g. "1-100", "head:50", "tail:20".',
    "columns": 'Tables: columns by letter or name, e.g. "A,C" or "name,age".',
    "sheet": "Spreadsheets: sheet name or 0-based index.",
    "table": "SQLite: the table to preview (default: the schema).",
    "mode": 'Archives: "list" the members (default), "read" one, or "extract" one.',
    "archive_path": "Archives: the member to read or extract.",
    "pattern": 'Archives/directories: a glob filter, e.g. "*.py".',
    "include_metadata": "Include file metadata in the header.",
    "format_hint": 'Force a format when detection is wrong, e.g. "csv".',
    "output_format": '"text" (default), "markdown" or "json".',
    "view": '"outline": the document\'s sections (id, heading, pages or lines, size in tokens), '
    "to pick one to read with section=; with section=, that section's subsections. PDFs: "
    '"text" (default), "visual" (page images), "pdf" (the raw PDF, if the model takes files), '
    '"auto" (text plus images of scanned pages).',
    "extract_images": "PDF/documents: also list embedded images.",
    "extract_tables": "PDF: also extract tables as markdown.",
    "ocr": "PDF/images: force OCR on (true) or off (false); default: OCR when needed.",
}
_MINIMUMS = {"offset": 1, "limit": 0}
_CHOICES = {"mode": ARCHIVE_MODES, "output_format": OUTPUT_FORMATS, "view": VIEWS}


def _table() -> tuple[Parameter, ...]:
    """Every ReadOptions field, in its order, with its annotation and default."""
    hints = typing.get_type_hints(ReadOptions)
    return tuple(
        Parameter(
            name=f.name,
            type=str if f.name == "file_path" else hints[f.name],
            default=f.default,
            description=_DESCRIPTIONS[f.name],
            required=f.name == "file_path",
            minimum=_MINIMUMS.get(f.name),
            choices=_CHOICES.get(f.name),
        )
        for f in dataclasses.fields(ReadOptions)
    )


PARAMETERS: tuple[Parameter, ...] = _table()

TOOL_DESCRIPTION = """Read a file in the workspace and return its content as text, plus images \
when useful. Reads text and code, PDF (with OCR of scanned pages), Word/RTF/ODT/EPUB, PowerPoint, \
spreadsheets and tables (CSV, TSV, Excel, ODS, Parquet, JSON, JSONL), Jupyter notebooks, \
archives (zip, tar, 7z), images (metadata, EXIF), audio (tags, duration), SQLite databases, and \
directories (a listing).
Windows keep the output small; read in steps instead of all at once:
- long documents (PDF, Word, EPUB, HTML, Markdown, slides, sheets): view="outline" lists the \
sections with their ids, pages and sizes; then section="s12" (or the heading text) reads one \
section whole, its subsections included.
- text/code: offset (1-based first line) and limit (number of lines; default 2000). Lines are \
numbered like cat -n.
- PDF, slides, documents: pages like "1-5" or "1,3,7-9"; view="visual" returns page images \
(for charts, scans, layout), view="auto" adds images of scanned pages to the text.
- tables: sheet (name or 0-based index), rows ("1-100", "head:50", "tail:20"), columns \
("A,C" or "name,age"); SQLite: table.
- archives: mode="list" (default; pattern filters names), mode="read" with archive_path to \
read one member, mode="extract" to unpack a member into the workspace.
The output starts with a header (pages, rows, sizes) and ends with notes; when it is \
truncated, a note says exactly which parameters read on. Errors (missing file, bad range, \
encrypted, too large) come back as a message saying what to do instead."""


def tool_description(settings: Settings) -> str:
    """TOOL_DESCRIPTION plus the limits a model should plan around, from the actual settings."""
    return (
        f"{TOOL_DESCRIPTION}\nLimits: at most {settings.pdf.max_pages_text} PDF pages of text, "
        f"{settings.pdf.max_pages_ocr} OCR pages and {settings.pdf.max_visual_pages} page images "
        f"per call; {settings.text.default_limit} lines and {settings.tabular.default_rows} rows by "
        f"default; output is cut at {settings.output.max_chars:,} characters or "
        f"{settings.output.max_tokens:,} tokens."
    )


def arguments_model(name: str = "ReadDocumentInput", module: str = __name__) -> type[BaseModel]:
    """The tool's arguments as a pydantic model built from PARAMETERS (unknown keys refused): what
    every wrapper validates a call with and takes its JSON schema from. Needs pydantic, which every
    framework extra brings; ``import docread`` does not load it."""
    try:
        from pydantic import ConfigDict, Field, create_model
    except ImportError as exc:  # a bare core install
        raise DependencyMissingError(
            "the tool schema needs pydantic: pip install 'docread[mcp]' (or [langchain])"
        ) from exc
    model: type[BaseModel] = create_model(
        name,
        __config__=ConfigDict(extra="forbid"),
        __doc__="The tool's arguments, built from docread's parameter table.",
        __module__=module,
        # Any: the field definitions are not create_model's own double-underscore keywords
        **cast(
            dict[str, Any], {p.name: (p.annotation, Field(**p.field_options())) for p in PARAMETERS}
        ),
    )
    return model


def describe_invalid_arguments(
    error: ValidationError | ValidationErrorV1, tool: str = "ReadDocument"
) -> str:
    """Bad arguments, said to the model so it can retry: "offset: must be >= 1; ..."."""
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in error.errors()
    )
    return f"Invalid {tool} arguments: {problems}. Fix them and call the tool again."
