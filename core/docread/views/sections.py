"""How one unit looks in the agent view, keyed on the extractor that made it (``metadata["extractor"]``):
its section text, the separator before it, and the hint that reads on when the view is cut inside it
("" when the cut left none of the unit's own content out: the next unit's hint applies).

Extractors only yield units; everything about presentation lives here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..model import Document, dataclass


def number_lines(text: str, start: int) -> str:
    """cat -n style: right-aligned 1-based line numbers, a tab, the line."""
    return "\n".join(f"{n:>6}\t{line}" for n, line in enumerate(text.split("\n"), start))


def _plain(doc: Document) -> str:
    return doc.text


def _default_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    if "page_number" in meta:
        return f"use pages={meta['page_number']}- to continue"
    if "row_start" in meta:
        return f"use rows={meta['row_start']}- or a smaller rows/columns window to continue"
    if "slide_number" in meta:
        return f"use pages={meta['slide_number']}- to continue"
    return "narrow the selection to read the rest"


@dataclass(frozen=True, slots=True)
class Window:
    """Where a line-granular unit keeps its position: the metadata keys of its first and last
    line (or row), and how many lines of its text come before the first (a table's head: a
    number, or one that depends on the unit's metadata)."""

    start: str
    end: str
    head: int | Callable[[Mapping[str, Any]], int] = 0

    def next(self, meta: Mapping[str, Any], shown_lines: int) -> int | None:
        """The first line (row) a cut after ``shown_lines`` lines of the text left out; None
        when every one is shown."""
        head = self.head(meta) if callable(self.head) else self.head
        first = int(meta.get(self.start, 1)) + max(shown_lines - head, 0)
        return None if first > int(meta.get(self.end, first)) else first


LINES, ROWS, SQL_ROWS = (
    Window("line_start", "line_end"),
    Window("row_start", "row_end", lambda meta: _table_head(meta)),
    (
        Window("row_start", "row_end", 4)  # heading, blank, header, rule
    ),
)


@dataclass(frozen=True, slots=True)
class Section:
    """One kind of unit's rendering: body, separator before it, continuation hint; ``whole``
    units (pages, slides) are not cut at a line when others precede them: a hint cannot point
    inside them."""

    render: Callable[[Document], str] = _plain
    hint: Callable[[Mapping[str, Any], int], str] = _default_hint
    separator: str = "\n\n"
    whole: bool = False
    window: Window | None = None  # line-granular units: what a cut leaves shown


# -- text and notebooks: cat -n numbering, offset= to read on -------------------------------------
def _numbered(doc: Document) -> str:
    if "line_start" not in doc.metadata:
        return doc.text
    return number_lines(doc.text, int(doc.metadata["line_start"]))


def _offset_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    next_line = LINES.next(meta, shown_lines)
    return "" if next_line is None else f"use offset={next_line} to continue"


# -- HTML: numbered source lines, or the page as markdown (lines counted in the markdown) ----------
def _html(doc: Document) -> str:
    return doc.text if doc.metadata.get("markdown") else _numbered(doc)


def _html_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    hint = _offset_hint(meta, shown_lines)
    return (
        hint.replace("use ", "use output_format='markdown' ", 1) if meta.get("markdown") else hint
    )


# -- tables: the markdown table, then a summary ----------------------------------------------------
def _table(doc: Document) -> str:
    """The table, then a summary: total rows and column names with their types."""
    meta = doc.metadata
    total = meta.get("total_rows")
    shown = f"{total:,}" if isinstance(total, int) else "unknown"
    if meta.get("total_rows_note"):
        shown += f" ({meta['total_rows_note']})"
    lines = [doc.text, "", "**Summary:**", f"  - Total rows: {shown}"]
    if meta.get("column_types"):
        lines.append(f"  - Columns: {meta['column_types']}")
    return "\n".join(lines)


def _table_head(meta: Mapping[str, Any]) -> int:
    """Lines of a table unit's text before its first data row: the header and rule, after a
    sheet's heading and a caption (two lines each)."""
    return 2 + 2 * ("sheet" in meta) + 2 * ("table_caption" in meta)


def _rows_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    """Data rows follow the table's head (see _table_head)."""
    next_row = ROWS.next(meta, shown_lines)
    if next_row is None:
        return ""  # every row is shown; only the summary was cut
    return f"use rows={next_row}- (or fewer columns) to continue"


# -- PDF and office pages ----------------------------------------------------------------------------
def _pdf_page(doc: Document) -> str:
    """``## Page 3 [OCR]`` (or ``## Page 3 - Table 1``) and the page's text."""
    meta = doc.metadata
    if "page_number" not in meta:
        return doc.text
    title = f"## Page {meta['page_number']}"
    if "table_index" in meta:
        title += f" - Table {meta['table_index']}"
    elif meta.get("ocr"):
        title += " [OCR]"
    return f"{title}\n\n{doc.text}" if doc.text else title


def _office_page(doc: Document) -> str:
    meta = doc.metadata
    if "slide_number" in meta or "page_number" not in meta:
        return doc.text
    head = f"## Page {meta['page_number']}"
    return f"{head}\n\n{doc.text}" if doc.text else head


def _office_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    for key, unit in (("section_index", "sections"), ("chapter", "chapters")):
        if key in meta:
            return f"use pages={meta[key]}- to continue (pages count {unit} in this file)"
    return _default_hint(meta, shown_lines)


# -- archives and databases ----------------------------------------------------------------------------
def _archive_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    if "file_count" in meta:
        return "use pattern= (e.g. 'src/**' or '*.py') to list fewer members"
    return _default_hint(meta, shown_lines)


def _sqlite_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    """Name the table: a preview cut short reads on with ``table=... rows=N-``."""
    if "table" not in meta:
        return "use table=<name> to read one table"
    start = SQL_ROWS.next(meta, shown_lines)
    return "" if start is None else f"use table={meta['table']!r} rows={start}- to continue"


# -- outlines and sections: lines of their own, read on by offset ------------------------------------
def _outline_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    next_line = LINES.next(meta, shown_lines)
    return (
        ""
        if next_line is None
        else (
            f"use view='outline' offset={next_line} to list more, or view='outline' "
            "section='<id>' for one section's subsections"
        )
    )


def _section_hint(meta: Mapping[str, Any], shown_lines: int) -> str:
    next_line = LINES.next(meta, shown_lines)
    if next_line is None:
        return ""
    return f"use section={meta.get('section_id', 's0')!r} offset={next_line} to continue"


DEFAULT = Section()
SECTIONS: dict[str, Section] = {
    "text": Section(_numbered, _offset_hint, window=LINES),
    "notebook": Section(_numbered, _offset_hint, window=LINES),
    "html": Section(_html, _html_hint, window=LINES),
    "tabular": Section(_table, _rows_hint, window=ROWS),
    "pdf": Section(_pdf_page, separator="\n\n---\n\n", whole=True),
    "office": Section(_office_page, _office_hint, whole=True),
    "archive": Section(hint=_archive_hint),
    "sqlite": Section(hint=_sqlite_hint, window=SQL_ROWS),
    "email": Section(separator="\n\n---\n\n"),  # one unit per message (an mbox has many)
    "outline": Section(hint=_outline_hint, window=LINES),
    "section": Section(hint=_section_hint, window=LINES),
}


def section_for(doc: Document) -> Section:
    """The rendering of the extractor that made ``doc`` (archive members keep their own)."""
    return SECTIONS.get(str(doc.metadata.get("extractor", "")), DEFAULT)
