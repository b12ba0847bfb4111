"""OCR fidelity benchmark: words recovered before/after, side by side in one run.

Every file is read in loader mode with default options (what a RAG index gets) by two code
trees in fresh processes, interleaved: ``--before`` (the floor: the ``core/`` folder of another
checkout, e.g. ``git worktree add /tmp/before 0e7db13``) and this checkout's ``core``. Files: the corpus's scanned PDFs and images (MANIFEST.tsv, classes 2
and 7), two generated slide pages (class 1: a 44-character caption over a photo; a caption over
a scanned text block) and a generated scan turned 3 degrees (class 7). Per file and tree:

- ``strings``: the corpus's must-include strings found (expected.json), case and spacing folded;
- ``words``: tokens of >= 3 letters that are in Tesseract's own English word list (extracted
  once from eng.traineddata with combine_tessdata + dawg2wordlist into bench/data/ocr/);
- ``junk``: tokens of >= 3 letters that are not (OCR noise, or a language the list lacks);
- ``s/page``: wall seconds per page (the machine is shared: word counts are what matter);
- ``cpu/page``: CPU seconds per page of the whole read (in-process, isolation off: the
  process and every tesseract it ran), against the floor: plain ``tesseract`` on the same page
  images (rendered as docread renders them for OCR, at the same dpi and colour), run in the
  same minute.

``--texts DIR`` writes each tree's text of each file (``DIR/before/...``, ``DIR/after/...``) to
diff what a change did to the words.

    python bench/ocr.py --before /tmp/before/core [--only pdf-scanned/ocr_test.pdf] [--texts DIR]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from _harness import CORPUS

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "ocr"
TESSDATA = Path("/usr/share/tesseract-ocr/5/tessdata/eng.traineddata")
CAPTION = "Figure 3: Quarterly revenue by region, 2024"  # 44 characters
TOKEN = re.compile(r"[^\W\d_]{3,}")

CHILD = r"""
import json, resource, sys, time
import docread
def cpu():
    return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
path = sys.argv[1]
config = {"cache": {"enabled": False}, "isolation": {"enabled": False}}
with docread.Reader("/", config=config) as reader:
    start, began = time.perf_counter(), cpu()
    docs = list(reader.iter_documents(path))
    wall, used = time.perf_counter() - start, cpu() - began
keys = ("page_number", "ocr", "ocr_confidence", "ocr_discarded", "ocr_rotation", "ocr_dpi")
print(json.dumps({
    "wall": wall,
    "cpu": used,
    "text": "\n".join(d.text for d in docs),
    "meta": [{k: d.metadata[k] for k in keys if k in d.metadata} for d in docs],
}))
"""


def words() -> frozenset[str]:
    """Tesseract's English word list, lower-cased (extracted once)."""
    out = DATA / "eng-words.txt"
    if not out.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        prefix = str(DATA / "eng.")
        subprocess.run(["combine_tessdata", "-u", str(TESSDATA), prefix], check=True,
                       capture_output=True)  # fmt: skip
        subprocess.run(["dawg2wordlist", prefix + "lstm-unicharset", prefix + "lstm-word-dawg",
                        str(out)], check=True, capture_output=True)  # fmt: skip
    return frozenset(w.lower() for w in out.read_text().split())


def slides() -> dict[str, list[str]]:
    """Two generated slide pages (class 1): a caption over a photo-like picture, and a caption
    over a picture of printed text (the sentences a reader sees in it are the expected strings)."""
    from PIL import Image, ImageDraw, ImageFont

    DATA.mkdir(parents=True, exist_ok=True)
    photo_pdf, scan_pdf = DATA / "slide-photo.pdf", DATA / "slide-scan.pdf"
    lines = ["Shipping costs fell by nine percent", "Northern stores opened on Monday",
             "Customer returns stayed below plan"]  # fmt: skip
    if not photo_pdf.exists():
        sys.path.insert(0, str(HERE.parent / "tests"))
        from factories import photo  # the same photo-like picture the tests use

        _slide(photo_pdf, photo((1440, 960)))
    if not scan_pdf.exists():
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 44)
        sheet = Image.new("L", (1440, 960), 255)
        for i, line in enumerate(lines):
            ImageDraw.Draw(sheet).text((60, 120 + i * 160), line, fill=0, font=font)
        _slide(scan_pdf, sheet)
    return {str(photo_pdf): [CAPTION], str(scan_pdf): [CAPTION, *lines], **skewed()}


def skewed() -> dict[str, list[str]]:
    """A scanned page turned 3 degrees (class 7): six sentences typeset, rendered at 200 dpi."""
    import pymupdf

    path = DATA / "skewed-scan.pdf"
    sentences = [f"Sentence number {w} of the skewed page reads clearly from left to right."
                 for w in ("one", "two", "three", "four", "five", "six")]  # fmt: skip
    if not path.exists():
        sys.path.insert(0, str(HERE.parent / "tests"))
        from factories import encode, rendered_text

        scan = rendered_text(" ".join(sentences), dpi=200).rotate(3, expand=True, fillcolor=255)
        doc = pymupdf.open()
        page = doc.new_page(width=scan.width * 72 / 200, height=scan.height * 72 / 200)
        page.insert_image(page.rect, stream=encode(scan))
        doc.save(path)
        doc.close()
    return {str(path): sentences}


def _slide(path: Path, picture: object) -> None:
    """A 16:9 slide: the caption as a text layer at the bottom, the picture above it."""
    import io

    import pymupdf

    buf = io.BytesIO()
    picture.save(buf, "PNG")  # type: ignore[attr-defined]
    doc = pymupdf.open()
    page = doc.new_page(width=960, height=540)
    page.insert_image(pymupdf.Rect(120, 30, 840, 510 - 30), stream=buf.getvalue())
    page.insert_text((120, 520), CAPTION, fontsize=14)
    doc.save(path)
    doc.close()


def corpus() -> dict[str, list[str]]:
    """The corpus's scanned PDFs and images with their must-include strings."""
    expected = json.loads((CORPUS / "expected.json").read_text())
    out = {}
    with (CORPUS / "MANIFEST.tsv").open() as f:
        for row in csv.reader(f, delimiter="\t"):
            name = row[0]
            if name.startswith(("pdf-scanned/", "images/")):
                out[str(CORPUS / name)] = list(expected.get(name, {}).get("must_include", []))
    return out


def run(core: str, path: str) -> dict:
    env = {**os.environ, "PYTHONPATH": core}
    out = subprocess.run([sys.executable, "-c", CHILD, path], capture_output=True, text=True,
                         env=env, check=False)  # fmt: skip
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


FLOOR = r"""
import json, resource, subprocess, sys
import pymupdf
from PIL import Image
from docread.extractors.ocr.images import at_reading_size, encode, plain, recorded_dpi
from docread.extractors.pdf.parts import ocr_dpi, scan_image
path = sys.argv[1]
if path.endswith(".pdf"):
    with pymupdf.open(path) as doc:  # the pages docread OCRs: no usable text layer
        pages = [scan_image(p, ocr_dpi(p, 300, 400), hide_text=True) for p in doc
                 if len(p.get_text().strip()) < 50]
else:  # an image as docread hands it over before its own checks (scaled, no alpha)
    img = Image.open(path)
    img.load()
    pages = [at_reading_size(img)]
    pages[0] = plain(pages[0]) if pages[0].mode in ("L", "RGB") else pages[0].convert("RGB")
used = 0.0
for img in pages:
    dpi = ["--dpi", str(recorded_dpi(img))] if recorded_dpi(img) else []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["tesseract", "stdin", "stdout", *dpi, "-l", "eng"], input=encode(img),
                   capture_output=True, check=True, env={"OMP_THREAD_LIMIT": "1", "PATH": "/usr/bin:/bin"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used += after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
print(json.dumps({"cpu": used, "pages": len(pages)}))
"""


def floor(core: str, path: str) -> tuple[float, int] | None:
    """CPU seconds of plain ``tesseract`` on the page images docread would OCR, and how many."""
    env = {**os.environ, "PYTHONPATH": core}
    out = subprocess.run([sys.executable, "-c", FLOOR, path], capture_output=True, text=True,
                         env=env, check=False)  # fmt: skip
    if out.returncode != 0:
        return None
    got = json.loads(out.stdout.strip().splitlines()[-1])
    return (float(got["cpu"]), int(got["pages"])) if got["pages"] else None


def score(result: dict, strings: list[str], vocab: frozenset[str]) -> dict:
    fold = " ".join(result["text"].lower().split())
    tokens = [t.lower() for t in TOKEN.findall(result["text"])]
    pages = max(len({m.get("page_number") for m in result["meta"]}), 1)
    return {
        "strings": sum(" ".join(s.lower().split()) in fold for s in strings),
        "words": sum(t in vocab for t in tokens),
        "junk": sum(t not in vocab for t in tokens),
        "spp": result["wall"] / pages,
        "cpp": result["cpu"] / pages,
        "cpu": result["cpu"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    ap.add_argument("--before", required=True, help="the floor's core/ folder (another checkout)")
    ap.add_argument("--only", action="append", help="a file under the corpus (repeatable)")
    ap.add_argument("--texts", help="a folder to write each tree's text of each file to")
    args = ap.parse_args()
    vocab = words()
    files = {**corpus(), **slides()}
    if args.only:
        files = {f: s for f, s in files.items() if any(f.endswith(o) for o in args.only)}
    trees = {"before": args.before, "after": str(HERE.parent / "core")}
    print(f"{'file':44} {'strings':>9} {'words':>11} {'junk':>11} {'s/page':>11} "
          f"{'CPU s/page':>17}")  # fmt: skip
    print(f"{'':44} {'bef/aft':>9} {'bef/aft':>11} {'bef/aft':>11} {'bef/aft':>11} "
          f"{'floor/bef/aft':>17}")  # fmt: skip
    totals = {t: {"strings": 0, "words": 0, "junk": 0} for t in trees}
    spent = {"floor": 0.0, **{t: 0.0 for t in trees}}  # CPU of the files with OCR'd pages
    pages = 0
    for path, strings in files.items():
        got = {}
        base = floor(trees["after"], path)  # the floor first, then each tree: one minute
        for tree, core in trees.items():  # interleaved per file
            r = run(core, path)
            got[tree] = score(r, strings, vocab) if "error" not in r else None
            if got[tree] is None:
                print(f"  {tree} failed on {path}: {r['error']}")
            elif args.texts:
                out = Path(args.texts, tree, Path(path).name + ".txt")
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(r["text"])
        if None in got.values():
            continue
        for tree in trees:
            for k in totals[tree]:
                totals[tree][k] += got[tree][k]
        if base is not None:
            pages += base[1]
            spent["floor"] += base[0]
            for tree in trees:
                spent[tree] += got[tree]["cpu"]
        b, a = got["before"], got["after"]
        name = path.replace(str(CORPUS) + "/", "").replace(str(DATA) + "/", "generated/")
        shown = f"{base[0] / base[1]:5.2f}" if base is not None else "    -"
        print(f"{name[-44:]:44} {b['strings']:>3}/{a['strings']:<2}/{len(strings):<2} "
              f"{b['words']:>5}/{a['words']:<5} {b['junk']:>5}/{a['junk']:<5} "
              f"{b['spp']:>5.1f}/{a['spp']:<5.1f} {shown}/{b['cpp']:5.2f}/{a['cpp']:<5.2f}")  # fmt: skip
    b, a = totals["before"], totals["after"]
    print(f"{'total':44} {b['strings']:>3}/{a['strings']:<5} {b['words']:>5}/{a['words']:<5} "
          f"{b['junk']:>5}/{a['junk']:<5}")  # fmt: skip
    per = {k: v / max(pages, 1) for k, v in spent.items()}
    print(f"CPU s per OCR'd page ({pages} pages): floor {per['floor']:.2f}, before "
          f"{per['before']:.2f} ({per['before'] / per['floor']:.2f}x), after {per['after']:.2f} "
          f"({per['after'] / per['floor']:.2f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
