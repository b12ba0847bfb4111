"""Long base64 bodies kept out of the MIME parser: the stdlib parser holds a message several times
over (a text copy, a string per line, the joined payload; ~11x an .eml with one big attachment),
so each long run of base64 lines that opens a part declared ``Content-Transfer-Encoding: base64``
is replaced by one token line before parsing, and its bytes are decoded from the message's own
bytes only when the part is read."""

from __future__ import annotations

import binascii
import os
import re

# a run of base64 lines over 4 KB from a line start: one character class repeated, so the regex
# engine keeps no state per line (a repeated group held ~3x the message for a 60 MB one)
_RUN = re.compile(rb"^[A-Za-z0-9+/][A-Za-z0-9+/=\r\n]{4096,}", re.M)
_BASE64_PART = re.compile(rb"^content-transfer-encoding:[ \t]*base64[ \t]*\r?$", re.I | re.M)
_BLANK = re.compile(rb"\r?\n\r?\n")
_HEAD_SCAN = 16384  # how far back the part's header block is looked for


class Blobs:
    """A message's bytes with its long base64 bodies cut out: ``skeleton`` is what is parsed,
    ``payload``/``decoded_size`` give a part's bytes back from the tokens in its body."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.spans: list[tuple[int, int]] = []
        prefix = b"docread-blob-" + os.urandom(8).hex().encode() + b"-"
        self.token = re.compile(re.escape(prefix) + rb"(\d+)(?:\r?\n)?")  # the last one is cut
        pieces, pos = [], 0
        for match in _RUN.finditer(data):
            start, end = match.start(), data.rfind(b"\n", *match.span()) + 1  # whole lines
            if not end or not _opens_base64_body(data, start):
                continue
            pieces += [data[pos:start], prefix + b"%d\n" % len(self.spans)]
            self.spans.append((start, end))
            pos = end
        self.skeleton = b"".join([*pieces, data[pos:]]) if self.spans else data

    def restore(self, raw: bytes) -> bytes:
        """``raw`` (a part's transfer-encoded body, or a nested message) with its bytes back."""
        if not self.spans or self.token.search(raw) is None:
            return raw
        out, pos = [], 0
        for match in self.token.finditer(raw):
            start, end = self.spans[int(match.group(1))]
            out += [raw[pos : match.start()], self.data[start:end]]
            pos = match.end()
        out.append(raw[pos:])
        return b"".join(out)

    def restored_size(self, raw: bytes) -> int:
        """The length ``restore(raw)`` would have, without making it."""
        size = len(raw)
        for match in self.token.finditer(raw) if self.spans else ():
            start, end = self.spans[int(match.group(1))]
            size += end - start - len(match.group(0))
        return size

    def decoded_size(self, body: str) -> int:
        """The decoded size of a base64 ``body`` holding tokens, counted without decoding."""
        raw = body.encode("ascii", "replace")
        chars = 0
        for match in self.token.finditer(raw):
            start, end = self.spans[int(match.group(1))]
            chars += end - start - self.data.count(b"\n", start, end)
            chars -= self.data.count(b"\r", start, end)
        rest = b"".join(self.token.sub(b"", raw).split())
        return (chars + len(rest)) * 3 // 4 - rest.count(b"=")

    def holds(self, body: object) -> bool:
        """Whether a part's (still encoded) ``body`` has tokens in it."""
        return bool(self.spans) and isinstance(body, str) and bool(self.token.search(body.encode()))

    def decoded(self, body: str) -> bytes:
        """A base64 ``body`` holding tokens, decoded (bad characters skipped, as the parser does)."""
        return binascii.a2b_base64(self.restore(body.encode("ascii", "replace")))


def _opens_base64_body(data: bytes, start: int) -> bool:
    """Whether the run at ``start`` begins the body of a part whose header declares base64."""
    before = data[max(0, start - _HEAD_SCAN) : start]
    ends = list(_BLANK.finditer(before))
    if not ends or ends[-1].end() != len(before):
        return False
    head_end = ends[-1].start() + 1
    head_start = ends[-2].end() if len(ends) > 1 else 0
    head_start = max(head_start, before.rfind(b"\n--", head_start, head_end) + 1)  # the boundary
    return _BASE64_PART.search(before, head_start, head_end) is not None
