"""Jupyter notebooks: cells rendered with their outputs (streams, results, errors, images).

The agent view is the rendered notebook as numbered lines (offset/limit apply to them), with image
outputs as Media parts; loader mode yields one Document per cell."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterator
from typing import Any, ClassVar

from ...errors import ExtractionError
from ...model import Document, Media, Unit
from ...source import Source
from ..base import Context, Extractor

_IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")  # IPython colours its tracebacks


def _text(value: Any) -> str:
    """nbformat stores multi-line strings as lists of lines."""
    if isinstance(value, list):
        return "".join(str(v) for v in value)
    return "" if value is None else str(value)


class NotebookExtractor(Extractor):
    """.ipynb (nbformat 4, and 3's worksheets) without nbformat: plain JSON, read once."""

    name: ClassVar[str] = "notebook"
    options: ClassVar[frozenset[str]] = frozenset({"offset", "limit"})

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        nb = self._load(source, ctx)
        cells = nb.get("cells")
        if cells is None:  # nbformat 3
            cells = [c for ws in nb.get("worksheets", []) for c in ws.get("cells", [])]
        language = _language(nb)
        ctx.set_header("Notebook", ctx.info.name)
        ctx.set_header("Language", language)
        ctx.set_header("Cells", len(cells))
        rendered = [self._cell(i, cell, language) for i, cell in enumerate(cells, 1)]
        if ctx.loader:
            for (text, media), (i, cell) in zip(rendered, enumerate(cells, 1), strict=True):
                meta = _cell_meta(i, cell)
                yield Document(text, meta)
                for j, (mime, data) in enumerate(media):
                    yield Media(mime, data, {**meta, "output_index": j})
            return
        yield from self._window(rendered, cells, ctx)

    def _window(
        self, rendered: list[tuple[str, list[tuple[str, bytes]]]], cells: list[Any], ctx: Context
    ) -> Iterator[Unit]:
        """The rendered notebook as one text; offset/limit pick lines, media follow their cells."""
        offset = ctx.options.offset or 1
        limit = ctx.settings.text.default_limit if ctx.options.limit is None else ctx.options.limit
        lines: list[str] = []
        spans: list[tuple[int, int]] = []  # (first line, last line) of each cell, 1-based
        for text, _media in rendered:
            first = len(lines) + 1
            lines.extend(text.split("\n"))
            spans.append((first, len(lines)))
            lines.append("")
        if lines:
            lines.pop()  # no blank line after the last cell
        total = len(lines)
        if offset > total:
            ctx.warn(
                f"offset={offset} is past the end of the rendered notebook: it has {total} lines."
            )
            return
        end = total if not limit else min(total, offset + limit - 1)
        yield Document(
            "\n".join(lines[offset - 1 : end]),
            {"line_start": offset, "line_end": end, "total_lines": total, "cell_count": len(cells)},
        )
        if end < total:
            ctx.read_on(f"lines {offset}-{end} of {total:,}", f"offset={end + 1}")
        for (first, last), (_, media), (i, cell) in zip(
            spans, rendered, enumerate(cells, 1), strict=True
        ):
            if last >= offset and first <= end:
                for j, (mime, data) in enumerate(media):
                    yield Media(mime, data, {**_cell_meta(i, cell), "output_index": j})

    def _load(self, source: Source, ctx: Context) -> dict[str, Any]:
        raw = source.read_bytes()
        try:
            nb = json.loads(raw.decode(ctx.info.encoding or "utf-8", errors="replace"))
        except ValueError as exc:
            raise ExtractionError(
                f"{ctx.info.source}: not a valid notebook: invalid JSON ({exc})",
                path=ctx.info.source,
            ) from None
        if not isinstance(nb, dict) or not ("cells" in nb or "worksheets" in nb):
            raise ExtractionError(
                f"{ctx.info.source}: not a Jupyter notebook (no 'cells' list)", path=ctx.info.source
            )
        return nb

    def _cell(
        self, index: int, cell: dict[str, Any], language: str
    ) -> tuple[str, list[tuple[str, bytes]]]:
        kind = cell.get("cell_type", "code")
        count = cell.get("execution_count", cell.get("prompt_number"))
        title = f"## Cell {index} [{kind}]" + (
            f" In [{count}]" if kind == "code" and count is not None else ""
        )
        source = _text(cell.get("source", cell.get("input", ""))).rstrip("\n")
        if kind == "code" and source:
            fence = "`" * max(3, _longest_run(source, "`") + 1)
            source = f"{fence}{'' if language == 'unknown' else language}\n{source}\n{fence}"
        parts = [title, source]
        media: list[tuple[str, bytes]] = []
        outputs = [text for out in cell.get("outputs") or [] if (text := _output(out, media))]
        if outputs:
            parts.append("\n**Output:**")
            parts.extend(outputs)
        return "\n".join(p for p in parts if p != ""), media


def _language(nb: dict[str, Any]) -> str:
    meta = nb.get("metadata") or {}
    return str(
        (meta.get("language_info") or {}).get("name")
        or (meta.get("kernelspec") or {}).get("language")
        or "unknown"
    )


def _cell_meta(index: int, cell: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = {"cell_index": index, "cell_type": cell.get("cell_type", "code")}
    count = cell.get("execution_count", cell.get("prompt_number"))
    if count is not None:
        meta["execution_count"] = count
    return meta


def _output(out: dict[str, Any], media: list[tuple[str, bytes]]) -> str:
    """One output as text; images are collected as (mime, bytes) and shown as a placeholder."""
    kind = out.get("output_type")
    if kind == "stream":
        return _text(out.get("text")).rstrip("\n")
    if kind == "error" or kind == "pyerr":
        trace = [_text(t) for t in out.get("traceback") or []]
        summary = f"{out.get('ename', 'Error')}: {out.get('evalue', '')}"
        if trace and _ANSI.sub("", trace[-1]).strip() == summary.strip():
            return "\n".join(trace)  # the traceback ends with the error line: said once
        return "\n".join([*trace, summary])
    data = out.get("data") or {}
    if kind in ("pyout", "display_data") and not data:  # nbformat 3 keeps MIME keys at top level
        data = {
            k: v for k, v in out.items() if k not in ("output_type", "metadata", "prompt_number")
        }
    lines: list[str] = []
    for mime in _IMAGE_TYPES:
        key = mime if mime in data else {"image/png": "png", "image/jpeg": "jpeg"}.get(mime, mime)
        if key in data:
            payload = _text(data[key])
            blob = payload.encode() if mime == "image/svg+xml" else _b64(payload)
            if blob:
                media.append((mime, blob))
                lines.append(f"[{mime} output]")
            break
    if "text/plain" in data or "text" in data:
        text = _text(data.get("text/plain", data.get("text")))
        lines.append(text.rstrip("\n"))
    elif "text/markdown" in data:
        lines.append(_text(data["text/markdown"]).rstrip("\n"))
    elif "text/html" in data and not lines:
        lines.append("[text/html output]")
    return "\n".join(lines)


def _longest_run(text: str, char: str) -> int:
    """The longest run of ``char`` in ``text`` (a code fence must be longer)."""
    return max((len(run) for run in re.findall(f"{re.escape(char)}+", text)), default=0)


def _b64(payload: str) -> bytes:
    try:
        return base64.b64decode("".join(payload.split()), validate=True)
    except (binascii.Error, ValueError):
        return b""
