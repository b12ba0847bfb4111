"""pandoc (DOCX, ODT, RTF, EPUB) and antiword (legacy DOC), run through ``run_tool`` (no shell,
timeout, capped output) in a private temp directory: their markdown, or text, for ``parts``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from ....errors import EncryptedDocumentError, ExtractionError
from ...programs import find_program, run_tool
from .parts import MARK

if TYPE_CHECKING:
    from ...base import Context

_PANDOC_READERS = {"docx": "docx", "odt": "odt", "rtf": "rtf", "epub": "epub"}


# Title-block paragraphs (Title, Subtitle, Author, Date, Abstract styles) go back into the text,
# since pandoc moves them to metadata that gfm output drops (the title and subtitle as headings 1
# and 2, as the in-process readers give them); inline emphasis is dropped (it costs
# tokens and splits phrases); id-less spans are unwrapped (EPUB chapter anchors keep their ids);
# section divs are unwrapped (gfm would keep them as raw <div> lines around every section);
# display math in a table cell becomes inline math (a fenced block would break the row).
_FILTER = """
local function plain(e) return e.content end
Strong, Emph, Underline, SmallCaps, Div = plain, plain, plain, plain, plain
function Span(e) if e.identifier == "" then return e.content end end
-- a pipe table's cell holds one line: display math there is written inline ($`...`$)
local function inline_math(m)
  if m.mathtype == "DisplayMath" then return pandoc.Math("InlineMath", m.text) end
end
function Table(t) return pandoc.walk_block(t, {Math = inline_math}) end
function Pandoc(doc)
  if not doc.meta.docread_titleblock then return nil end
  local head = {}
  local levels = {title = 1, subtitle = 2}
  for _, key in ipairs({"title", "subtitle", "author", "date", "abstract"}) do
    local v = doc.meta[key]
    if v and levels[key] then
      table.insert(head, pandoc.Header(levels[key], pandoc.utils.stringify(v)))
    elseif v then
      table.insert(head, pandoc.Para(pandoc.utils.stringify(v)))
    end
  end
  doc.blocks = head .. doc.blocks
  return doc
end
"""


def pandoc(path: Path, fmt: str, ctx: Context, workdir: Path) -> str:
    """``pandoc --sandbox`` to GitHub-flavoured markdown; stdout capped, killed at the timeout."""
    exe = find_program("pandoc", path=ctx.info.source, need=f"reading {fmt} files")
    lua = workdir / "docread.lua"
    lua.write_text(_FILTER, encoding="utf-8")
    argv = [
        exe,
        "--sandbox",
        "-f",
        _PANDOC_READERS[fmt],
        "-t",
        "gfm",
        "--wrap=none",
        "-L",
        str(lua),
    ]
    if fmt in ("docx", "odt"):
        argv += ["-M", "docread_titleblock=1"]
    argv.append(str(path))
    result = run_tool(
        argv, timeout=ctx.settings.timeouts.pandoc, what="pandoc", path=ctx.info.source,
        cwd=str(workdir), max_output=ctx.settings.output.max_chars * 8 + (1 << 20),
    )  # fmt: skip
    if result.truncated:
        ctx.warn("The converted document was larger than the output cap; its end is missing.")
    return result.stdout.decode("utf-8", "replace")


def antiword(path: Path, ctx: Context) -> str:
    """Legacy Word text through antiword (headings, lists and tables become plain text), always
    with its UTF-8 mapping: its default follows the locale, and under C/POSIX it turns Greek,
    Cyrillic, CJK and typographic quotes into '?' or ASCII look-alikes."""
    exe = find_program("antiword", path=ctx.info.source, need="reading legacy .doc files")
    result = run_tool(
        [exe, "-w", "0", "-m", "UTF-8.txt", str(path)], timeout=ctx.settings.timeouts.antiword,
        what="antiword",
        path=ctx.info.source, check=False,
    )  # fmt: skip
    err = result.stderr.decode("utf-8", "replace").strip()
    if "encrypted" in err.lower():
        raise EncryptedDocumentError(
            f"{ctx.info.source}: the document is password-protected; remove the password and retry",
            path=ctx.info.source,
        )
    if "too small" in err:  # antiword refuses very short documents; their text is UTF-16 runs
        ctx.warn("antiword refused this very short document; its text was recovered by a scan.")
        return "\n\n".join(_utf16_runs(path.read_bytes()))
    if result.returncode != 0:
        raise ExtractionError(
            f"{ctx.info.source}: antiword could not read the file: {err}", path=ctx.info.source
        )
    text = result.stdout.decode("utf-8", "replace")
    return text.replace("\f", f"\n{MARK}\n")


# UTF-16LE characters of text: ASCII and Latin-1, Greek, Cyrillic and general punctuation (curly
# quotes, dashes, bullets); not CJK, whose code units look like misaligned ASCII
_UTF16_RUN = re.compile(rb"(?:[\x20-\x7e\r\t]\x00|[\xa0-\xff]\x00|[\x00-\xff][\x03\x04\x20]){16,}")


def _utf16_runs(data: bytes) -> list[str]:
    """Paragraphs stored as UTF-16 in a legacy Word file: runs of 16+ characters that hold a
    paragraph mark (style and font names in the same file have none)."""
    runs = (m.group().decode("utf-16-le") for m in _UTF16_RUN.finditer(data))
    return [r.replace("\r", "\n").strip() for r in runs if "\r" in r and " " in r]
