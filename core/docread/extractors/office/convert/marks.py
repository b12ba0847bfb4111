"""Page-break markers put into the source before pandoc runs (pandoc drops page breaks): a marker
word where the source has one (``w:br type=page``, ``pageBreakBefore``, ODF
``fo:break-before="page"``), split on and removed afterwards by ``parts``; text boxes and frames
moved where pandoc reads them."""

from __future__ import annotations

import re

from .parts import MARK

_W_BR = re.compile(rb"<w:br\b[^>]*w:type=\"page\"[^>]*/>")
_W_PBB = re.compile(
    rb"(<w:pPr>(?:(?!</w:pPr>).)*?<w:pageBreakBefore(?:\s+w:val=\"(?:1|true|on)\")?\s*/>(?:(?!</w:pPr>).)*?</w:pPr>)",
    re.S,
)
_W_ALT = re.compile(
    rb"<mc:AlternateContent>(?:(?!</mc:AlternateContent>).)*?</mc:AlternateContent>", re.S
)
_W_SHAPE = re.compile(  # a VML picture or a DrawingML drawing outside alternate content
    rb"<w:pict\b(?:(?!</w:pict>).)*?</w:pict>|<w:drawing\b(?:(?!</w:drawing>).)*?</w:drawing>", re.S
)
_W_T = re.compile(rb"<w:t(?:\s[^>]*)?>([^<]*)</w:t>")
ODF_BREAK_STYLE = re.compile(
    rb"<style:style\b[^>]*style:name=\"([^\"]+)\"[^>]*>(?:(?!</style:style>).)*?fo:break-before=\"page\"",
    re.S,
)


def docx_marks(name: str, data: bytes) -> bytes:
    """Put the marker where word/document.xml has a hard page break; flatten text boxes (in
    alternate content, VML-only and DrawingML-only shapes alike)."""
    if name != "word/document.xml":
        return data
    word = f'<w:t xml:space="preserve"> {MARK} </w:t>'.encode()
    data = _W_SHAPE.sub(_textbox_words, _W_ALT.sub(_textbox_words, data))
    data = _W_BR.sub(word, data)
    return _W_PBB.sub(lambda m: m.group(1) + b"<w:r>" + word + b"</w:r>", data)


def _textbox_words(m: re.Match[bytes]) -> bytes:
    """A text box inside a run becomes its words: pandoc otherwise keeps the box and drops the
    rest of the paragraph around it."""
    block = m.group()
    if b"txbxContent" not in block:
        return block
    body = block.rsplit(b"<mc:Fallback>", 1)[-1]
    paras = [b"".join(_W_T.findall(p)) for p in body.split(b"</w:p>")]
    words = b" ".join(p.strip() for p in paras if p.strip())
    return b'<w:t xml:space="preserve"> ' + words + b" </w:t>"


def odt_marks(name: str, data: bytes) -> bytes:
    """Put the marker at the start of ODT paragraphs whose style breaks the page before them;
    text boxes moved out of their frames (pandoc drops frames)."""
    if name != "content.xml":
        return data
    data = odt_frames(data)
    styles = set(ODF_BREAK_STYLE.findall(data))
    if not styles:
        return data
    names = b"|".join(re.escape(s) for s in styles)
    opening = re.compile(
        rb"(<text:(?:p|h)\b[^>]*text:style-name=\"(?:" + names + rb")\"[^>]*(?<!/)>)"
    )
    return opening.sub(lambda m: m.group(1) + f"{MARK} ".encode(), data)


_ODF_FRAME = re.compile(
    rb"<draw:frame\b[^>]*>(?:(?!</draw:frame>).)*?<draw:text-box\b[^>]*(?<!/)>(?P<box>.*?)"
    rb"</draw:text-box>(?:(?!</draw:frame>).)*?</draw:frame>"
    rb"|<draw:(?P<kind>custom-shape|rect|ellipse|circle|polygon)\b[^>]*(?<!/)>(?P<shape>.*?)"
    rb"</draw:(?P=kind)>",
    re.S,
)
_ODF_GEOMETRY = re.compile(
    rb"<draw:enhanced-geometry\b(?:[^>]*/>|.*?</draw:enhanced-geometry>)|<svg:(?:title|desc)\b.*?</svg:(?:title|desc)>",
    re.S,
)
_ODF_PARA_END = re.compile(rb"</text:(?:p|h)>")


def odt_frames(data: bytes) -> bytes:
    """Text boxes (``draw:frame/draw:text-box``: paragraphs, lists, tables) and the text of
    drawn shapes (custom shapes, rectangles, ellipses) taken out of the paragraph that anchors
    them and put right after it, where pandoc reads them; nested boxes too."""
    if b"<draw:" not in data:
        return data
    out, pos, pending = bytearray(), 0, bytearray()
    while True:
        frame = _ODF_FRAME.search(data, pos)
        end = _ODF_PARA_END.search(data, pos) if pending else None
        if end is not None and (frame is None or end.start() < frame.start()):
            out += data[pos : end.end()] + pending
            pending.clear()
            pos = end.end()
        elif frame is not None:
            out += data[pos : frame.start()]
            box = frame.group("box")
            inner = box if box is not None else _ODF_GEOMETRY.sub(b"", frame.group("shape"))
            pending += odt_frames(inner)
            pos = frame.end()
        else:
            break
    return bytes(out + data[pos:] + pending)
