"""The agent view: a ReadResult rendered as text, markdown or JSON, cut to the output limits
(characters, lines, tokens) with one hint on how to read on. Only this view truncates; loaders
get every unit.

The hint is the truth about what was not shown: the first unit the output caps left out when they
cut the view, else the extractor's own next window (``Context.read_on``); never both.
"""

from __future__ import annotations

import json
from dataclasses import field, replace
from typing import TYPE_CHECKING

from ..extractors.base import WINDOW_NEXT, WINDOW_SHOWN
from ..extractors.properties import DOCUMENT_CATEGORIES
from ..model import Document, dataclass
from ..outline.build import no_structure
from ..request.ranges import compact_spans
from ..sanitize import capped, capped_lines, shown_name, shown_text
from ..settings import OutputSettings, Settings
from .budget import OutputBudget
from .sections import Window, section_for

if TYPE_CHECKING:
    from ..result import ReadResult


#: Room kept for the continuation note, so the whole view stays within the budget.
HINT_ROOM = " " * 160
#: The note a cut read of a document with sections adds (``_outline_tip``).
OUTLINE_TIP = (
    "A long document: view='outline' lists its sections (ids, pages, sizes); read the one you "
    "need whole with section='<id>'."
)


@dataclass(slots=True)
class Shown:
    """What fits in the view: (document, its shown text) in order, and how to read on."""

    parts: list[tuple[Document, str]] = field(default_factory=list)
    cut: bool = False
    continuation: str = ""  # the one note that reads on ("" when everything was shown)


def render(
    result: ReadResult, output_format: str = "text", *, settings: Settings | None = None
) -> str:
    out = (settings or Settings()).output
    header = _header(header_layout(result), out)
    notes = [shown_text(n) for n in result.notes]
    budget = OutputBudget(out)
    if output_format == "json":
        return _render_json(result, header, notes, budget)
    tip = _outline_tip(result)
    budget.spend(_head(result, header, output_format), "max_chars", "max_tokens", "max_bytes")
    budget.spend(
        "\n".join([*notes, tip, out.truncation_marker, HINT_ROOM]), "max_tokens", "max_bytes"
    )
    shown = _fit(result, budget, rendered=True)
    head = _head(result, _shown_header(header, shown), output_format)
    body = "".join(text for _, text in shown.parts)
    if shown.cut:
        body += out.truncation_marker
    if shown.continuation:
        notes += [shown.continuation, tip] if tip else [shown.continuation]
    tail = "\n\n" + "\n".join(f"[{n}]" for n in notes) if notes else ""
    return (head + "\n" if head else "") + body + tail


def _head(result: ReadResult, header: dict[str, str], output_format: str) -> str:
    """The text views' top: the file name (markdown), the header lines and a rule."""
    parts: list[str] = []
    if output_format == "markdown":
        parts.append(f"# {shown_name(result.file.name)}\n")
    if header:
        parts.append("\n".join(_header_line(k, v) for k, v in header.items()))
        parts.append("\n---\n")
    return "\n".join(parts)


def _fit(result: ReadResult, budget: OutputBudget, *, rendered: bool) -> Shown:
    """The documents as they fit in ``budget`` (rendered sections with their separators for the
    text views, plain texts for JSON) and the one continuation note.

    Line-granular units (text, tables, listings) are cut at a whole line and read on from the
    first line not shown; page-like units (PDF pages, slides) are shown whole or not at all,
    except a first one that alone is over the budget (its beginning is shown)."""
    shown = Shown()
    for i, doc in enumerate(result.documents):
        kind = section_for(doc)
        text = kind.render(doc) if rendered else doc.text
        sep = kind.separator if rendered and shown.parts else ""
        kept = budget.take(sep + text)
        if kept == sep + text:
            shown.parts.append((doc, kept))
            continue
        shown.cut = True
        kept = kept[len(sep) :] if len(kept) > len(sep) else ""
        if kind.whole and shown.parts:
            kept = ""
        lines = kept.count("\n") + 1 if kept else 0
        if kept:
            shown.parts.append((_cut_unit(doc, kind.window, lines), sep + kept))
        hint = "" if kind.whole and kept else _member_hint(doc, kind.hint(doc.metadata, lines))
        hint = hint or _next_hint(result, i + 1)
        shown.continuation = shown_text(
            f"Output truncated at the output limit ({budget.hit}): "
            + (hint or "the end of the last unit shown was left out")
        )
        return shown
    window = result.header.get(WINDOW_NEXT)
    if window:
        shown_window = result.header.get(WINDOW_SHOWN, "")
        shown.continuation = shown_text(f"Showing {shown_window}. Use {window} to read more.")
    return shown


def _outline_tip(result: ReadResult) -> str:
    """The note beside the continuation of a long document's read: how to find the part that
    matters instead of reading on page by page ("" for a file without sections, an outline or
    a section read)."""
    docs = result.documents
    if (
        result.file.is_dir
        or no_structure(result.file)
        or (docs and docs[0].metadata.get("extractor") in ("outline", "section"))
    ):
        return ""
    return OUTLINE_TIP


def _cut_unit(doc: Document, window: Window | None, lines: int) -> Document:
    """``doc`` as a cut after ``lines`` lines of its text shows it: its last line or row is the
    last one shown (``line_end``, ``row_end``), and it is marked ``truncated``."""
    meta = {**doc.metadata, "truncated": True}
    if window is not None and window.start in meta:
        after = window.next(meta, lines)
        if after is not None and after > int(meta[window.start]):
            meta[window.end] = after - 1
        elif after is not None:  # none of its lines or rows was shown
            del meta[window.start], meta[window.end]
    return replace(doc, metadata=meta)


def _shown_header(header: dict[str, str], shown: Shown) -> dict[str, str]:
    """The window headers (``Pages``, ``Rows``) of a view the output caps cut: the pages and
    rows shown, not the ones asked for."""
    if not shown.cut:
        return header
    out, docs = dict(header), [doc.metadata for doc, _ in shown.parts]
    pages = list(dict.fromkeys(m["page_number"] for m in docs if "page_number" in m))
    if "Pages" in out:
        total = out["Pages"].partition(" of ")[2]
        spans = compact_spans(pages) or "none"
        out["Pages"] = f"{spans} of {total} (cut by the output limit)" if total else spans
    rows = [m for m in docs if "row_start" in m]
    if "Rows" in out and len(rows) <= 1:
        total = out["Rows"].partition(" of ")[2]
        spans = f"{rows[0]['row_start']:,}-{rows[0]['row_end']:,}" if rows else "none"
        out["Rows"] = f"{spans} of {total} (cut by the output limit)" if total else spans
    return out


def _next_hint(result: ReadResult, index: int) -> str:
    """How to read from the ``index``-th document on (the extractor's next window past the end)."""
    if index < len(result.documents):
        doc = result.documents[index]
        return _member_hint(doc, section_for(doc).hint(doc.metadata, 0))
    window = result.header.get(WINDOW_NEXT)
    return f"use {window} to continue" if window else ""


def _member_hint(doc: Document, hint: str) -> str:
    """An archive member's hint names the member: ``use archive_path='a/b.csv' rows=51- ...``."""
    member = doc.metadata.get("member")
    if member is None or doc.metadata.get("extractor") == "archive" or not hint.startswith("use "):
        return hint
    return f"use mode='read' archive_path={shown_name(str(member))!r} {hint[4:]}"


def header_layout(result: ReadResult) -> dict[str, str]:
    """THE header layout, one for every family: a document file (PDF, office, workbook, table)
    opens with ``Document: name``, then what the extractor said in its order (pages, slides,
    sheet, rows...), and its ``Metadata`` block comes last (the design's PDF header)."""
    header = dict(result.header)
    first = {}
    if result.file.category in DOCUMENT_CATEGORIES:
        first["Document"] = header.pop("Document", result.file.name)
    last = {"Metadata": header.pop("Metadata")} if "Metadata" in header else {}
    return {**first, **header, **last}


def _header(header: dict[str, str], out: OutputSettings) -> dict[str, str]:
    """The header as printed: view-only facts left out, every value escaped (``shown_text``) and
    held to the metadata caps (``max_metadata_value_len`` per value, ``max_metadata_fields``
    lines in a multi-line block)."""
    return {
        label: _shown_value(value, out)
        for label, value in header.items()
        if label not in (WINDOW_SHOWN, WINDOW_NEXT)
    }


def _header_line(label: str, value: str) -> str:
    """``**Pages:** 1-5 of 42``; a multi-line value (a metadata block) starts on its own line."""
    return f"**{label}:**{value}" if value.startswith("\n") else f"**{label}:** {value}"


def _shown_value(value: str, out: OutputSettings) -> str:
    """A header value escaped (shown_text): a file name with a newline or a terminal escape cannot
    add a line; only a block that starts with a newline (metadata) keeps its lines."""
    if not value.startswith("\n"):
        return _capped(shown_text(value), out)
    lines = capped_lines(value.split("\n")[1:], out.max_metadata_fields)
    return "".join(f"\n{_capped(shown_text(line), out)}" for line in lines)


def _capped(value: str, out: OutputSettings) -> str:
    return capped(value, out.max_metadata_value_len)


def _render_json(
    result: ReadResult, header: dict[str, str], notes: list[str], budget: OutputBudget
) -> str:
    """The same truth as the text view: the documents that fit, and ``truncated`` /
    ``continuation`` saying how to read on (an output cap's cut or the extractor's window; it is
    not repeated in ``notes``)."""
    tip = _outline_tip(result)
    budget.spend("\n".join([*header.values(), *notes, tip, HINT_ROOM]), "max_tokens", "max_bytes")
    shown = _fit(result, budget, rendered=False)
    if shown.continuation and tip:
        notes = [*notes, tip]
    header = _shown_header(header, shown)
    payload = {
        "file": {
            "path": shown_name(result.file.source or result.file.path),
            "name": shown_name(result.file.name),
            "format": result.file.format,
            "category": result.file.category,
            "mime_type": result.file.mime_type,
            "size": result.file.size,
            "modified": result.file.modified,
        },
        "header": header,
        "documents": [
            {"id": doc.id, "text": text, "metadata": dict(doc.metadata)}
            for doc, text in shown.parts
        ],
        "media": [
            {
                "id": m.id,
                "mime_type": m.mime_type,
                "bytes": len(m.data),
                "metadata": dict(m.metadata),
            }
            for m in result.media
        ],
        "notes": notes,
        "truncated": bool(shown.continuation),
        "continuation": shown.continuation,
    }
    return json.dumps(payload, ensure_ascii=False, indent=2, default=str)
