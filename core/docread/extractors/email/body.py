"""Bodies that are not plain text: HTML through the HTML family's converter, RTF (Outlook) through
the office family's pandoc conversion; one place for both, shared by every e-mail variant."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from .message import tidy

if TYPE_CHECKING:
    from ..base import Context


def html_text(html: str, ctx: Context) -> str:
    """An HTML body as markdown (links, lists and tables kept; scripts and styles dropped), its
    input cut at 8x ``output.max_chars``; what was cut is said in a note."""
    from ..html.convert import html_to_markdown
    from ..markdown import TableCaps

    page = html_to_markdown(
        html, limit_chars=ctx.settings.output.max_chars * 8, tick=ctx.check_deadline,
        tables=TableCaps.of(ctx),
    )  # fmt: skip
    for note in page.notes:
        ctx.warn(f"{ctx.info.source}: {note}")
    return tidy(page.markdown)


def rtf_text(rtf: bytes, ctx: Context) -> str:
    """An RTF body as markdown through the office family's conversion (the same depth guard,
    headers and footers), page marks dropped and pictures as ``[image]``."""
    from ..office.convert.parts import MARK, image_placeholders
    from ..office.convert.rtf import RTF_MAX_DEPTH, rtf_markdown, rtf_too_deep

    if rtf_too_deep(rtf):
        ctx.warn(
            f"{ctx.info.source}: the RTF body nests groups more than {RTF_MAX_DEPTH:,} deep "
            f"(RTF_MAX_DEPTH) and was not converted."
        )
        return ""
    with tempfile.TemporaryDirectory(prefix="docread-email-") as tmp:
        markdown = rtf_markdown(rtf, ctx, Path(tmp))
    return tidy(image_placeholders(markdown.replace(MARK, ""))[0])
