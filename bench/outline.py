"""Reading by the outline (issue 36), on the shared corpus.

questions  Five questions about pdf/DA-619p.pdf (619 pages, 1,372 bookmarks), each answered
           inside one section (found by reading the PDF; QUESTIONS below). For each, the tokens an
           agent reads until the answer is in what it read, under three scripted policies:
           - outline+section: ``view="outline"`` once, then ``section=<id>`` of the outline line
             whose heading holds most of the question's subject words (the first such line on a
             tie), the next best line when the answer is not in that section;
           - paging: ``pages="1-"``, then each continuation the view's note gives
             (``pages=N-``), until the answer is in the output (a reader that pages on);
           - right pages: ``pages=<first>-<last>`` of the answer's section (a pager that already
             knows where to look: paging's floor).
           Tokens are the view's own estimate (``views.budget.estimate_tokens``) of each rendered
           output, with the default output limits (25,000 tokens a call). The outline is read
           once for all five (an agent keeps it); its cost is shown apart.
speed      The outline of DA-619p with the result cache off, against its floor (PyMuPDF: open
           the file, walk the outline), each in a fresh process, rounds interleaved, median of
           ``--rounds``: ``docread`` as configured by default (a warm worker pool does the read:
           the peak RSS shown is the calling process's only), ``in-process`` with isolation off
           (its peak RSS holds the read, comparable with the floor's).
coverage   The share of the corpus's chunks (every file through ``Reader.iter_units`` and
           ``chunk_units(chunk_size=800, chunk_overlap=100)``, cache off) that carry a heading
           path, for this tree and ``--before TREE`` (its ``core`` on PYTHONPATH: e.g. a copy of
           main made with ``git archive main core | tar -x -C TREE``), per corpus folder.

    python bench/outline.py [questions] [speed] [coverage] [--rounds 5] [--before TREE]
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

from _harness import CORPUS

ROOT = Path(__file__).resolve().parents[1]
MANUAL = "pdf/DA-619p.pdf"

#: (question, subject words a policy looks for in headings, the answer's words, its section)
QUESTIONS = [
    ("From which animals were the mabari war hounds bred, by Fereldan folklore?",
     ["mabari", "war", "hound"], "bred from the wolves who served Dane",
     "s20 Mabari War Hound, page 12"),
    ("Which paragon moved the seat of the dwarven kingdom to Orzammar, and what was the "
     "capital before?", ["orzammar", "history"], "Paragon Garal moved the seat of power",
     "s148 Orzammar History: Chapter One, page 75"),
    ("What is the powder called when glitterdust is gathered in caves where darkspawn dwell?",
     ["glitterdust"], "Tainted Glitterdust", "s505 Glitterdust, page 226"),
    ("Where did Mother Diana say Sister Kira would go with her, in the letter on Ferelden after "
     "the Blight?", ["ferelden", "after", "blight"], "the Conclave in Haven",
     "s1086 Ferelden After the Blight, page 468"),
    ("Whose book maps the lines of power across the Frostback Basin, by the notes on its "
     "mysteries?", ["mysteries", "frostback", "basin"], "Professor Whalen Vankin",
     "s1266 Mysteries of the Frostback Basin, pages 565-567"),
]  # fmt: skip
_LINE = re.compile(r"^ *(s\d+)  (.*)  \((.*), ~[\d,]+ tokens[^)]*\)$")


def _found(answer: str, text: str) -> bool:
    return " ".join(answer.split()).lower() in " ".join(text.split()).lower()


def questions() -> dict[str, object]:
    import docread
    from docread.views.budget import estimate_tokens

    rows = []
    with docread.Reader(CORPUS) as reader:
        outline = reader.read(MANUAL, view="outline").render()
        outline_tokens = estimate_tokens(outline)
        lines = [m.groups() for line in outline.split("\n") if (m := _LINE.match(line))]
        for question, subject, answer, where in QUESTIONS:
            ranked = sorted(
                lines, key=lambda g: -sum(w in g[1].lower() for w in subject)
            )  # stable: the first line wins a tie
            spent, calls, found = 0, 0, False
            for sid, _title, _place in ranked[:10]:
                text = reader.read(MANUAL, section=sid).render()
                spent, calls = spent + estimate_tokens(text), calls + 1
                if found := _found(answer, text):
                    break
            paged, pcalls, pages = 0, 0, "1-"
            while True:
                text = reader.read(MANUAL, pages=pages).render()
                paged, pcalls = paged + estimate_tokens(text), pcalls + 1
                hint = re.search(r"use pages=(\d+)- to continue|Use pages=([\d,-]+) to read", text)
                if _found(answer, text) or hint is None:
                    break
                pages = f"{hint.group(1)}-" if hint.group(1) else hint.group(2)
            first, last = re.search(r"pages? (\d+)(?:-(\d+))?$", where).groups()  # type: ignore[union-attr]
            right = reader.read(MANUAL, pages=f"{first}-{last or first}").render()
            rows.append({
                "question": question, "where": where,
                "outline_section": {"tokens": spent, "calls": calls, "found": found,
                                    "with_outline": spent + outline_tokens},
                "paging": {"tokens": paged, "calls": pcalls, "found": _found(answer, text)},
                "right_pages": {"tokens": estimate_tokens(right), "found": _found(answer, right)},
            })  # fmt: skip
    return {"outline_tokens": outline_tokens, "rows": rows}


SPEED_CHILD = r"""
import json, resource, sys, time
case, path = sys.argv[1], sys.argv[2]
if case == "floor":  # PyMuPDF as docread imports it (without its layout model: library.py)
    from docread.extractors.pdf.library import load_pymupdf
    from docread.extractors.pdf.survey import outline
    pymupdf = load_pymupdf()
    start = time.perf_counter()
    with pymupdf.open(path) as doc:
        entries = len(outline(doc))
else:
    import docread
    config = {"cache": {"enabled": False}}
    if case == "in-process":  # the work in this process: its peak RSS compares with the floor's
        config["isolation"] = {"enabled": False}
    reader = docread.Reader(sys.argv[3], config)
    reader.read(sys.argv[4], pages="1")  # the worker pool up before the clock starts
    start = time.perf_counter()
    entries = reader.read(path, view="outline").render().count("\n")
    reader.close()
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "rss_mb": rss, "entries": entries}))
"""


def speed(rounds: int) -> dict[str, object]:
    cases = {"floor": [], "docread": [], "in-process": []}  # type: dict[str, list[dict[str, float]]]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "core")}
    for _ in range(rounds):
        for case in cases:
            argv = [sys.executable, "-c", SPEED_CHILD, case, str(CORPUS / MANUAL), str(CORPUS),
                    "pdf/multi_page.pdf"]  # fmt: skip
            out = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
            cases[case].append(json.loads(out.stdout.strip().splitlines()[-1]))
    median = {c: statistics.median(r["seconds"] for r in runs) for c, runs in cases.items()}
    return {
        c: {"median_s": round(median[c], 3), "peak_rss_mb": round(max(r["rss_mb"] for r in runs))}
        for c, runs in cases.items()
    } | {f"ratio {c}": round(median[c] / median["floor"], 1) for c in ("docread", "in-process")}


COVERAGE_CHILD = r"""
import json, os, sys, docread
from docread.rag.chunking import chunk_units
root = sys.argv[1]
skip = {"MANIFEST.tsv", "expected.json", "README.md"}
files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root)
               for f in fs if not (d == root and f in skip))
out = {}
with docread.Reader(root, {"cache": {"enabled": False}}) as reader:
    for f in files:
        try:
            units = list(reader.iter_units(f))
        except docread.ReadDocumentError:
            continue  # encrypted PDFs: no chunks
        chunks = [c for c in chunk_units(units, chunk_size=800, chunk_overlap=100)
                  if isinstance(c, docread.Document)]
        out[f] = [len(chunks), sum(1 for c in chunks if c.metadata.get("headings")),
                  sum(1 for c in chunks if c.metadata.get("section_id"))]
print(json.dumps(out))
"""


def coverage(tree: Path) -> dict[str, list[int]]:
    env = {**os.environ, "PYTHONPATH": str(tree / "core")}
    argv = [sys.executable, "-c", COVERAGE_CHILD, str(CORPUS)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    per_file: dict[str, list[int]] = json.loads(out.stdout.strip().splitlines()[-1])
    folders: dict[str, list[int]] = {}
    for name, counts in per_file.items():
        total = folders.setdefault(name.split("/")[0], [0, 0, 0])
        for i, n in enumerate(counts):
            total[i] += n
    folders["all"] = [sum(v[i] for k, v in folders.items() if k != "all") for i in range(3)]
    return folders


def _yes(run: dict[str, object]) -> str:
    return "found" if run["found"] else "NOT found"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="*", default=["questions", "speed", "coverage"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, help="another tree (its core/) for coverage")
    args = parser.parse_args()
    report: dict[str, object] = {}
    if "questions" in args.what:
        report["questions"] = found = questions()
        print(f"outline of {MANUAL}: {found['outline_tokens']:,} tokens (read once)")  # type: ignore[index]
        print(f"{'section of the answer':<52} {'outline+section':>22} {'paging':>24} "
              f"{'right pages':>14}")  # fmt: skip
        for row in found["rows"]:  # type: ignore[index]
            o, p, r = row["outline_section"], row["paging"], row["right_pages"]
            print(f"{row['where']:<52} {o['tokens']:>7,} ({o['calls']} call, {_yes(o)}) "
                  f"{p['tokens']:>8,} ({p['calls']:>2} calls, {_yes(p)}) "
                  f"{r['tokens']:>7,} ({_yes(r)})")  # fmt: skip
    if "speed" in args.what:
        report["speed"] = timed = speed(args.rounds)
        print("outline of DA-619p (median of", args.rounds, "rounds):", timed)
    if "coverage" in args.what:
        trees = {"after": ROOT} | ({"before": args.before} if args.before else {})
        report["coverage"] = covered = {name: coverage(tree) for name, tree in trees.items()}
        for name, folders in covered.items():
            for folder, (chunks, headed, ids) in sorted(folders.items()):
                print(f"{name:<7} {folder:<12} {headed:>6,} of {chunks:>6,} chunks with headings "
                      f"({headed / max(chunks, 1):.0%}), {ids:,} with a section_id")  # fmt: skip
    print(json.dumps(report))


if __name__ == "__main__":
    main()
