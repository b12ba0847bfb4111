"""PDF structure benchmark, side by side in one run: raw ``page.get_text()`` (the floor), docread
(pdf.structure off / auto) and ``pymupdf4llm.to_markdown`` with its layout model (what
``pdf.structure: layout`` runs), in process.

Recall on PDFs whose structure is known (tests/structure_fixtures.py, made with PyMuPDF's Story,
plus corpus PDFs with hand-checked truth in bench/structure_truth.json):
- headings: an expected heading's text is a markdown heading line (``#``..``######``);
- table cells: an expected cell is a cell of a markdown pipe-table row;
- paragraphs: an expected paragraph is found whole, in one piece (whitespace and emphasis
  marks aside), which multi-column reading order and glued running headers break.
Speed: pages/s (wall, and per CPU second of the process: steadier on a shared machine) and
peak RSS on that set, on every corpus ``pdf/`` file that opens (the 619-page
manual and the 117-page course included), on its papers (vector figures, two columns, tables),
on the 619-page manual alone and on a generated 2,000-page text PDF; pymupdf4llm on the first
100 pages of each file (it runs ~0.3 s a page). Each case in a fresh process (imports, the
layout model and a Reader set up and warmed on one page before the clock starts), rounds
interleaved: wall pages/s the median of ``--rounds``, pages per CPU second the best round (the
least CPU: what a shared machine adds least to). ``docread:auto+pymupdf``: auto in a process that imported
``pymupdf`` itself before docread (PyMuPDF 2.x then loads its layout packages).

``--before TREE`` runs the docread cases a second time with ``PYTHONPATH=TREE/core`` (another
checkout, e.g. main's) in the same rounds, labelled ``@before``: a before/after table from one
run on the same machine; an ``@before`` case's "x off" is against ``docread:off@before``.

``--stages`` also runs each docread case once a round with stage timers (a process apart from
the timed ones): CPU seconds in MuPDF's text page and ``dict``, ``off``'s text out of its text
page, the characters of a page with a number's made-up space (``rawdict``), ``read_page``'s
Python, where its pictures are drawn, the survey's own work, the content guard, the engine
(``analyse`` and the markdown) and the rest, each the least of the rounds.

    python bench/structure.py [--rounds 3] [--sets corpus,papers] [--before /work/main]
        [--cases docread:auto] [--stages] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from _harness import CORPUS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data" / "structure"
TRUTH = HERE / "structure_truth.json"
PEER_PAGES = 100

CHILD = r"""
import json, os, sys, time
case, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
pages = 0
texts = {}
# imports, the layout model and a Reader are set up and warmed before the clock starts
if case == "raw":
    import pymupdf
elif case == "pymupdf4llm":
    import pymupdf, pymupdf4llm
    with pymupdf.open(files[0]) as doc:
        pymupdf4llm.to_markdown(doc, pages=[0], show_progress=False)
else:
    if case.endswith("+pymupdf"):
        import pymupdf  # the user's own import, before docread's
    import docread
    mode = case.split(":")[1].split("+")[0]
    cfg = {"cache": {"enabled": False}, "isolation": {"enabled": False},
           "timeouts": {"global": 3600}, "pdf": {"structure": mode}}
    reader = docread.Reader("/", config=cfg)
    sum(1 for _ in reader.iter_documents(files[0], pages="1"))
    if os.environ.get("STRUCTURE_STAGES"):  # --stages: the timers (STAGES)
        exec(os.environ["STRUCTURE_STAGES"])
t0, c0 = time.perf_counter(), time.process_time()
if case == "raw":
    for f in files:
        with pymupdf.open(f) as doc:
            parts = [page.get_text() for page in doc]
        pages += len(parts)
        texts[f] = "\n".join(parts)
elif case == "pymupdf4llm":
    for f in files:
        with pymupdf.open(f) as doc:
            count = min(doc.page_count, PEER_PAGES)
            texts[f] = pymupdf4llm.to_markdown(doc, pages=list(range(count)), show_progress=False)
        pages += count
else:
    for f in files:
        units = [d for d in reader.iter_documents(f) if "table_index" not in d.metadata]
        pages += len(units)
        texts[f] = "\n\n".join(d.text for d in units)
seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
if out != "-":
    with open(out, "w") as fh:
        json.dump(texts, fh)
# VmHWM: this process's own peak (ru_maxrss also counts the forked parent's before exec)
with open("/proc/self/status") as fh:
    peak = next(int(ln.split()[1]) for ln in fh if ln.startswith("VmHWM")) / 1024
found = {"pages": pages, "seconds": seconds, "cpu": cpu, "peak_mb": peak}
if "spent" in globals():
    found["stages"] = {**spent, "rest": cpu - sum(spent.values())}
print(json.dumps(found))
""".replace("PEER_PAGES", str(PEER_PAGES))

# ``--stages``: where a docread case's CPU goes, each second to the innermost stage running
# (MuPDF's text page and ``dict``; ``off``'s text out of its text page; ``read_page``'s Python;
# the survey's own work; the content guard; the engine: ``analyse`` and the markdown); a stage
# the tree does not have is left out. Its own process: the timers cost ~2 us a call.
STAGE_NAMES = (
    "guard", "text page", "text out", "dict", "raw chars", "read_page", "pictures", "survey",
    "engine", "rest",
)  # fmt: skip
STAGES = r"""
import pymupdf
from docread.extractors.pdf import document, pages as pdf_pages, structure, survey
try:
    from docread.extractors.pdf.text import reading as lines
except ImportError:  # a tree before the text subpackage
    from docread.extractors.pdf import lines
spent, stack = {}, []

def timed(owner, name, stage):
    inner = getattr(owner, name, None)
    if inner is None:
        return
    def wrapper(*args, **kwargs):
        now = time.process_time()
        if stack:
            spent[stack[-1][0]] = spent.get(stack[-1][0], 0.0) + now - stack[-1][1]
        stack.append([stage, now])
        try:
            return inner(*args, **kwargs)
        finally:
            now, (done, since) = time.process_time(), stack.pop()
            spent[done] = spent.get(done, 0.0) + now - since
            if stack:
                stack[-1][1] = now
    setattr(owner, name, wrapper)

timed(pymupdf.extra, "page_get_textpage", "text page")
timed(pymupdf.TextPage, "extractDICT", "dict")
timed(document, "_plain_text", "text out")
for owner in (pdf_pages, survey):
    timed(owner, "read_page", "read_page")
timed(pdf_pages, "with_pictures", "read_page")
timed(lines, "drawn_pictures", "pictures")
timed(lines, "raw_lines", "raw chars")
timed(pdf_pages, "survey", "survey")
for owner in (pdf_pages, document, survey):
    timed(owner, "bound_content", "guard")
timed(pdf_pages, "analyse", "engine")
timed(structure.PageModel, "markdown", "engine")
"""

CASES = ("raw", "docread:off", "docread:auto", "pymupdf4llm")
SKIP = {"password.pdf", "libreoffice-writer-password.pdf", "copy-protected.pdf"}  # no text
PAPERS = (  # papers and handbooks with vector figures, columns, tables, formulas
    "2305.03393v1-pg9.pdf", "GeoTopo-komprimiert.pdf", "amt_handbook_sample.pdf",
    "code_and_formula.pdf", "layout-parser-paper-fast.pdf", "multi-column-2p.pdf",
    "multi-column.pdf", "multicolumn.pdf", "normal_4pages.pdf", "pdflatex-4-pages.pdf",
    "picture_classification.pdf", "redp5110_sampled.pdf", "test.pdf", "embedded-images-tables.pdf",
)  # fmt: skip
_EMPHASIS = re.compile(r"[*_`]+|<br\s*/?>|\\(?=[|*_])")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def norm(text: str) -> str:
    """Casefolded, emphasis marks and <br> out, whitespace as single spaces."""
    return " ".join(_EMPHASIS.sub(" ", text).split()).casefold()


def score(markdown: str, truth: dict[str, list]) -> dict[str, tuple[int, int]]:
    """(found, expected) for headings, table cells and paragraphs."""
    lines = markdown.splitlines()
    heads = {norm(m.group(1)) for line in lines if (m := _HEADING.match(line))}
    cells = {
        norm(c)
        for line in lines
        if line.lstrip().startswith("|")
        for c in _CELL_SPLIT.split(line.strip().strip("|"))
    }
    whole = norm(markdown)
    want_h = [norm(t) for _, t in truth.get("headings", [])]
    want_c = [norm(c) for c in truth.get("cells", []) if c.strip()]
    want_p = [norm(p) for p in truth.get("paragraphs", [])]
    return {
        "headings": (sum(h in heads for h in want_h), len(want_h)),
        "cells": (sum(c in cells for c in want_c), len(want_c)),
        "paragraphs": (sum(p in whole for p in want_p), len(want_p)),
    }


def structure_set() -> dict[str, dict[str, list]]:
    """The generated PDFs (written once under bench/data/structure) and the corpus PDFs with
    hand-checked truth: path -> truth."""
    sys.path.insert(0, str(ROOT / "tests"))
    import structure_fixtures

    DATA.mkdir(parents=True, exist_ok=True)
    out: dict[str, dict[str, list]] = {}
    for name, make in structure_fixtures.MAKERS.items():
        data, truth = make()
        path = DATA / f"{name}.pdf"
        path.write_bytes(data)
        out[str(path)] = truth.as_json()
    for name, truth in json.loads(TRUTH.read_text()).items():
        if (CORPUS / name).exists():
            out[str(CORPUS / name)] = truth
    return out


def corpus_pdfs() -> list[str]:
    """Every corpus ``pdf/`` file that opens with text (not the encrypted or copy-protected)."""
    return [str(p) for p in sorted((CORPUS / "pdf").glob("*.pdf")) if p.name not in SKIP]


def run(
    case: str, files: list[str], keep: Path | None, tree: Path = ROOT, *, stages: bool = False
) -> dict[str, Any]:
    """One case over ``files`` in a fresh process (``stages``: with the stage timers)."""
    env = {**os.environ, "PYTHONPATH": f"{tree / 'core'}:{ROOT}"}
    if stages:
        env["STRUCTURE_STAGES"] = STAGES
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, case.split("@")[0], str(keep) if keep else "-", *files],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def _rates(runs: list[dict[str, float]]) -> tuple[float, float]:
    """A case's wall pages/s (the median round) and pages per CPU second (the best round)."""
    return (
        statistics.median(x["pages"] / x["seconds"] for x in runs),
        max(x["pages"] / x["cpu"] for x in runs),
    )


def _print_stages(staged: dict[tuple[str, str], list[dict[str, float]]]) -> dict[str, object]:
    """Each stage's CPU seconds, the least over the rounds (``--stages``), case by case."""
    names = [n for n in STAGE_NAMES if any(n in r for runs in staged.values() for r in runs)]
    print(f"\n{'set':<11} {'case':<22}" + "".join(f"{n:>11}" for n in names) + f"{'sum':>8}")
    out: dict[str, object] = {}
    for (set_name, case), runs in staged.items():
        least = {n: min(r.get(n, 0.0) for r in runs) for n in names}
        out[f"{set_name}/{case}"] = least
        cells = "".join(f"{least[n]:>11.3f}" for n in names)
        print(f"{set_name:<11} {case:<22}{cells}{sum(least.values()):>8.3f}")
    print("CPU seconds by stage, each the least of the rounds (a run of its own, timers on)")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--sets",
        default="structure,corpus,papers,manual-619,text-2000",
        help="comma-separated: structure (recall), corpus, papers, manual-619, text-2000",
    )
    parser.add_argument("--before", type=Path, help="another checkout: its docread as @before")
    parser.add_argument("--json", help="write the results here")
    parser.add_argument(
        "--cases",
        help="comma-separated: only these cases (raw and docread:off "
        "are always run: the ratios' floors)",
    )
    parser.add_argument(
        "--stages", action="store_true",
        help="also run each docread case once a round with stage timers: where its CPU goes",
    )  # fmt: skip
    args = parser.parse_args()
    truths = structure_set()
    sys.path.insert(0, str(ROOT / "tests"))
    import structure_fixtures

    big = DATA / "text-2000.pdf"
    if not big.exists():
        big.write_bytes(structure_fixtures.text_pages(2000))
    every = {"structure": list(truths), "corpus": corpus_pdfs(),
             "papers": [str(CORPUS / "pdf" / name) for name in PAPERS],
             "manual-619": [str(CORPUS / "pdf" / "DA-619p.pdf")], "text-2000": [str(big)]}  # fmt: skip
    sets = {name: every[name] for name in args.sets.split(",")}
    cases = [*CASES, "docread:auto+pymupdf"]
    if args.before:
        cases += [f"{c}@before" for c in cases if c.startswith("docread")]
    if args.cases:
        wanted = {"raw", "docread:off", *args.cases.split(",")}
        cases = [c for c in cases if c.split("@")[0] in wanted]
    times: dict[tuple[str, str], list[dict[str, Any]]] = {}
    staged: dict[tuple[str, str], list[dict[str, float]]] = {}
    recall: dict[str, dict[str, dict[str, tuple[int, int]]]] = {}
    for r in range(args.rounds):
        for set_name, files in sets.items():
            for case in cases:
                if "+pymupdf" in case and set_name != "papers":
                    continue  # the user's own import: on the papers only
                keep = (
                    DATA / f"out-{case.replace(':', '-').replace('@', '-')}.json"
                    if set_name == "structure" and r == 0
                    else None
                )
                tree = args.before if case.endswith("@before") else ROOT
                times.setdefault((set_name, case), []).append(run(case, files, keep, tree))
                if args.stages and case.startswith("docread") and set_name != "structure":
                    found = run(case, files, None, tree, stages=True)
                    staged.setdefault((set_name, case), []).append(found["stages"])
                if keep:
                    texts = json.loads(keep.read_text())
                    recall[case] = {f: score(texts[f], truths[f]) for f in files}
    report: dict[str, dict[str, object]] = {"recall": {}, "speed": {}}
    if recall:
        print(f"{'case':<22} {'headings':>9} {'cells':>9} {'paragraphs':>11}")
    for case, found in recall.items():
        sums = {k: [sum(v[k][0] for v in found.values()), sum(v[k][1] for v in found.values())] for k in ("headings", "cells", "paragraphs")}  # fmt: skip
        report["recall"][case] = {
            "total": sums,
            "files": {Path(f).name: v for f, v in found.items()},
        }
        cols = [f"{100 * a / b:8.1f}%" if b else "      -" for a, b in sums.values()]
        print(f"{case:<22} {cols[0]:>9} {cols[1]:>9} {cols[2]:>11}")
    print(
        f"\n{'set':<11} {'case':<22} {'pages':>6} {'pages/s':>9} {'x raw':>6} {'x off':>6} "
        f"{'cpu p/s':>8} {'x raw':>6} {'x off':>6} {'peak MB':>8}"
    )
    for (set_name, case), runs in times.items():
        pages = runs[0]["pages"]
        peak = max(x["peak_mb"] for x in runs)
        # wall pages/s (median of the rounds), and pages per CPU second (all of the process's
        # threads; the best round: the least CPU, what other work on a shared machine adds
        # least to), the steadier of the two; "x off" against the same tree's off
        rate, cpu = _rates(runs)
        before = case.endswith("@before") and (set_name, "docread:off@before") in times
        (raw, cpu_raw), (off, cpu_off) = (
            _rates(times[(set_name, c)])
            for c in ("raw", "docread:off@before" if before else "docread:off")
        )
        report["speed"][f"{set_name}/{case}"] = {
            "pages": pages, "seconds": pages / rate, "pages_per_s": rate, "peak_mb": peak,
            "x_raw": rate / raw, "x_off": rate / off, "pages_per_cpu_s": cpu,
            "cpu_x_raw": cpu / cpu_raw, "cpu_x_off": cpu / cpu_off,
        }  # fmt: skip
        print(
            f"{set_name:<11} {case:<22} {pages:>6} {rate:>9.1f} {rate / raw:>6.2f} "
            f"{rate / off:>6.2f} {cpu:>8.1f} {cpu / cpu_raw:>6.2f} {cpu / cpu_off:>6.2f} "
            f"{peak:>8.0f}"
        )
    if staged:
        report["stages"] = _print_stages(staged)
    for file_case, found in recall.items():
        print(f"\n{file_case} per file:", {Path(f).name: v for f, v in found.items()})
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
