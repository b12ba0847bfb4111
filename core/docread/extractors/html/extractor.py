"""HTML pages: loaders (and ``output_format="markdown"``) get the page as markdown, windowed in
lines like any text; the agent view shows the numbered source (HTML is code to an agent) with a
note on how to get the markdown. The charset comes from the BOM, the page's ``<meta>``, then
detection."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from ...model import Document, Unit
from ...source import Source
from ..base import WINDOW_NEXT, WINDOW_SHOWN, Context
from ..markdown import TableCaps
from ..text.plain import TextExtractor
from .charset import html_encoding, refused_note

SOURCE_NOTE = "HTML shown as source; output_format='markdown' gives the page as markdown."


class HtmlExtractor(TextExtractor):
    """``.html``/``.htm``/``.xhtml`` and content-detected HTML. The markdown's lines are windowed
    by the text reader's own rules (``offset``/``limit``, ``text.lines_per_document``), its units
    marked ``markdown=True`` since their line numbers count markdown lines, not the file's."""

    name: ClassVar[str] = "html"
    isolated: ClassVar[bool] = True  # markdownify on a 10 MB page holds ~700 MB: never in the host

    def encoding(self, source: Source, ctx: Context) -> str:
        return html_encoding(source.head(), ctx.info.encoding).codec

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        codec, refused = html_encoding(source.head(), ctx.info.encoding)
        if refused is not None:
            ctx.warn(f"{ctx.info.source}: {refused_note(refused, codec)}.")
        if source.size and (ctx.loader or ctx.options.output_format == "markdown"):
            yield from self._markdown(source, ctx)
            return
        if source.size:
            ctx.warn(SOURCE_NOTE)
        yield from super().extract(source, ctx)

    def _markdown(self, source: Source, ctx: Context) -> Iterator[Unit]:
        """The page (its first ``limits.text`` bytes: it is parsed whole) as markdown lines."""
        from .convert import html_to_markdown

        encoding, limit = self.encoding(source, ctx), ctx.settings.limits.text
        with source.open() as stream:
            data = stream.read(limit)
        extra: dict[str, Any] = {"encoding": encoding, "markdown": True}
        if source.size > limit:
            ctx.warn(
                f"{ctx.info.source}: {source.size:,} bytes is over the text size limit of "
                f"{limit:,} bytes (limits.text): only the first {limit:,} bytes were converted to "
                "markdown; the agent view's source lines (output_format='text') read all of it"
            )
            extra["truncated"] = True
        page = html_to_markdown(
            data.decode(encoding, errors="replace"),
            tick=lambda: ctx.check_deadline("converting HTML to markdown"),
            tables=TableCaps.of(ctx),
        )
        del data
        for note in page.notes:
            ctx.warn(f"{ctx.info.source}: {note}")
        for key, value in (("title", page.title), ("description", page.description)):
            if value:
                extra[key] = value
        if not page.markdown:
            ctx.warn(f"{ctx.info.source}: the page has no text to show.")
            return
        lines = Source.from_bytes(page.markdown.encode(), ctx.info.name)
        with lines:
            window = self._chunks if ctx.loader else self._window
            units = window(lines, ctx, "utf-8")
            for doc in units:
                yield Document(doc.text, {**doc.metadata, **extra})
        if WINDOW_NEXT in ctx.header:  # reading on needs the markdown view again
            ctx.read_on(
                f"markdown {ctx.header[WINDOW_SHOWN]}",
                f"output_format='markdown' {ctx.header[WINDOW_NEXT]}",
            )
