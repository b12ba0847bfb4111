"""Tesseract itself: the program (``PROGRAMS["tesseract"]``, with every configured language
installed), and one image read upright.

Every tesseract run goes through ``extractors.programs.run_tool`` (fixed argv, no shell, the
``timeouts.ocr_per_page`` timeout that kills the whole process group, capped output) with
``OMP_THREAD_LIMIT=1``, the image piped on stdin as PGM/PPM; its TSV, OSD and ``--list-langs``
output are parsed here. pytesseract is never imported by docread (it imports pandas, 0.26 s a
process, on the path of every PDF's cache key): its ``tesseract_cmd``, the knob users already
set, is read when the caller imported it (``programs``). Its runners would not do anyway: they
start the process without a process-group kill, go through temp files and cannot share
docread's output cap.

Rotation: a page is read as is; only when that reading looks poor (no words, or mean confidence
under 60) Tesseract's orientation detection (OSD) runs, and the upright reading is kept if it
is better. Skew: every image is first checked for a small one (1-5 degrees, a projection
profile on a small copy, a few tenths of a second); Tesseract reads a skewed scan with high
confidence but interleaves its lines, so a skewed image is also read straightened and that
reading kept unless its confidence is lower. Normal pages therefore pay for one tesseract run,
skewed or rotated scans for two or three, a skewed scan that still reads poorly for four.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import TYPE_CHECKING

from ...errors import DependencyMissingError, ExtractionError
from ...sanitize import lazy_pattern
from ..programs import find_program, run_tool
from .images import dpi_args, encode, skew_angle, straighten
from .result import OcrLine, OcrResult

if TYPE_CHECKING:
    from PIL.Image import Image

    from ..base import Context

ENGINE = 1  # bump when the reading rules here change: cached readings are then redone
PSM = 3  # Tesseract's page segmentation: its default, full-page automatic (not passed)
_ENV = {"OMP_THREAD_LIMIT": "1"}
_RETRY_CONFIDENCE = 60.0  # below this mean word confidence, check the orientation
_MAX_OUTPUT = 16 * 1024 * 1024
_LANGUAGE = lazy_pattern(r"^[a-z_]+$")  # a language line of --list-langs (pytesseract's rule)


def tesseract(ctx: Context) -> str:
    """The tesseract binary (pytesseract's ``tesseract_cmd``), with every configured language
    installed; else DependencyMissingError saying what to install."""
    path = find_program("tesseract", path=ctx.info.source, need="OCR")
    wanted = [lang for lang in ctx.settings.pdf.ocr_languages.split("+") if lang]
    missing = [lang for lang in wanted if lang not in _languages(path)]
    if missing:
        packages = " ".join(f"tesseract-ocr-{lang.lower().replace('_', '-')}" for lang in missing)
        raise DependencyMissingError(
            f"{ctx.info.source}: the OCR language(s) {', '.join(missing)} of pdf.ocr_languages="
            f"{ctx.settings.pdf.ocr_languages!r} are not installed; install them with: "
            f"apt-get install {packages}, or change pdf.ocr_languages "
            f"(installed: {', '.join(sorted(_languages(path))) or 'none'})",
            path=ctx.info.source,
        )
    return path


def available(ctx: Context) -> bool:
    """Tesseract and the configured languages are installed (automatic OCR runs only then)."""
    try:
        tesseract(ctx)
    except DependencyMissingError:
        return False
    return True


@lru_cache(maxsize=8)
def _languages(path: str) -> frozenset[str]:
    """Languages this tesseract has (``--list-langs``), asked once per binary."""
    out = run_tool([path, "--list-langs"], timeout=30, what="tesseract --list-langs", env=_ENV)
    lines = out.stdout.decode("utf-8", "replace").splitlines()[1:]  # first line is a title
    return frozenset(line.strip() for line in lines if _LANGUAGE.match(line.strip()))


@lru_cache(maxsize=8)
def version(path: str) -> str:
    """This tesseract's version line (``--version``), asked once per binary and process."""
    out = run_tool([path, "--version"], timeout=30, what="tesseract --version", env=_ENV)
    return (out.stdout or out.stderr).decode("utf-8", "replace").partition("\n")[0].strip()


def read_upright(image: Image, gray: Image, ctx: Context, cmd: str, what: str) -> OcrResult:
    """As is, and straightened when skewed (kept unless less confident); when that reads
    poorly, OSD, and the upright reading if it is better."""
    skew = skew_angle(gray)
    best = _read(image, ctx, cmd, what)
    if skew:  # a skewed scan reads with high confidence but its lines interleave: straighten
        straight = _read(straighten(image, skew), ctx, cmd, what)
        if (straight.confidence or 0.0) >= (best.confidence or 0.0):
            best = dataclasses.replace(straight, skew=skew)
    if _good(best):
        return best
    rotation = _orientation(image, ctx, cmd, what)
    if not rotation:
        return best
    turned = _read(image.rotate(-rotation, expand=True), ctx, cmd, what)
    return dataclasses.replace(turned, rotation=rotation) if _score(turned) > _score(best) else best


def _good(result: OcrResult) -> bool:
    """Read well enough that turning the image cannot be worth another run."""
    return result.confidence is not None and result.confidence >= _RETRY_CONFIDENCE


def _score(result: OcrResult) -> float:
    """How much was read how surely: compares the as-is and the turned reading."""
    return (result.confidence or 0.0) * len(result.text.split())


def _read(image: Image, ctx: Context, cmd: str, what: str) -> OcrResult:
    """One tesseract run, TSV out: text by line and paragraph, mean word confidence."""
    argv = [cmd, "stdin", "stdout", *dpi_args(image), "-l", ctx.settings.pdf.ocr_languages, "tsv"]
    out = run_tool(
        argv, timeout=ctx.settings.timeouts.ocr_per_page, what=what, path=ctx.info.source,
        stdin=encode(image), env=_ENV, max_output=_MAX_OUTPUT,
    )  # fmt: skip
    if out.truncated:
        raise ExtractionError(f"{ctx.info.source}: {what} produced more than {_MAX_OUTPUT:,} bytes")
    lines: list[tuple[tuple[str, str, str], list[str], list[float]]] = []
    for here, word, conf in _words(out.stdout.decode("utf-8", "replace")):
        if not lines or lines[-1][0] != here:
            lines.append((here, [], []))
        lines[-1][1].append(word)
        lines[-1][2].append(conf)
    read = [
        OcrLine(tuple(words), tuple(confs), i == 0 or key[:2] != lines[i - 1][0][:2])
        for i, (key, words, confs) in enumerate(lines)
    ]
    return OcrResult.of(read)


def _words(tsv: str) -> list[tuple[tuple[str, str, str], str, float]]:
    """The words of Tesseract's TSV: (block, paragraph, line), the word, its confidence (whole
    numbers, as pytesseract's parser gave them; -1 when Tesseract gives none)."""
    rows = [row.split("\t") for row in tsv.strip().split("\n")]
    column = {name: i for i, name in enumerate(rows[0])} if rows else {}
    need = ("level", "block_num", "par_num", "line_num", "conf", "text")
    if not all(name in column for name in need):
        return []
    level, block, par, line, conf, text = (column[name] for name in need)
    words = []
    for row in rows[1:]:
        word = row[text].strip() if len(row) > text else ""
        if not word or row[level] != "5":
            continue
        try:
            whole = int(float(row[conf]))
        except (ValueError, IndexError):
            whole = -1
        words.append(
            ((row[block], row[par], row[line]), word, float(whole) if whole >= 0 else -1.0)
        )
    return words


def _orientation(image: Image, ctx: Context, cmd: str, what: str) -> int:
    """Clockwise degrees that make the image upright per Tesseract OSD; 0 when unsure or no osd."""
    if "osd" not in _languages(cmd):
        return 0
    out = run_tool(
        [cmd, "stdin", "stdout", *dpi_args(image), "--psm", "0"],
        timeout=ctx.settings.timeouts.ocr_per_page, what=f"{what} (orientation)",
        path=ctx.info.source, stdin=encode(image), env=_ENV, check=False,
    )  # fmt: skip
    if out.returncode != 0:  # too few characters to tell
        return 0
    text = out.stdout.decode("utf-8", "replace")
    said = dict(line.partition(": ")[::2] for line in text.splitlines())
    rotate = int(said["Rotate"]) % 360 if said.get("Rotate", "").isdigit() else 0
    return rotate if rotate in (90, 180, 270) else 0
