"""Structure recall of office, e-book and HTML files: how many of the headings, table cells,
paragraphs, chart values, titles, numbered items and review comments a reader keeps, per format,
side by side in one run: docread before (another checkout, e.g. untouched main), docread after
(this tree), pandoc alone (``-t gfm``), kreuzberg and markitdown (from a peers venv).

Two sets:
- ``corpus``: the shared corpus's files with hand-made truth in ``bench/office_truth/`` (how it
  was made: its README.md; never from a reader's output);
- ``generated``: office files written by ``tests/office_fixtures.py`` (python-docx, odfpy,
  python-pptx) with merged cells and a nested table.

Scoring (text normalized: runs of whitespace as one space, markdown link and image syntax as
their words, emphasis and code marks and HTML tags dropped, ``\\|`` as ``|``):
- a heading is found when a markdown heading line (``#`` .. ``######``) holds its text;
- a cell is found when a cell of a pipe-table row (a line starting with ``|``; a list bullet at
  its start left out) is its text, or
  holds it as a whole word run (a long cell's text, a nested table's cells flattened into a
  cell), or is its text once a nested ``[nested table: ...]`` is left out; a cell of 3
  characters or fewer must be a cell, or a word of a flattened nested table;
- a paragraph (a list item of 8+ words too) is found when the text holds it whole;
- a chart's cells (a truth table marked ``chart``) are scored as cells, in their own column;
- a title (a ``Title``/``Subtitle`` paragraph) is found as a heading is;
- a numbered item (``2) Item`` as Word or LibreOffice shows it) is found when a line, a list
  bullet at its start left out, starts with it;
- a review comment is found when the text holds it.
Each reader runs in its own process (``PYTHONPATH`` picks the docread tree); a reader that fails
on a file scores nothing there.

    python3 -m venv /tmp/peers && /tmp/peers/bin/pip install kreuzberg markitdown[all]
    git archive main core | tar -x -C /tmp/base   # the 'before' tree
    DOCREAD_CORPUS=/work/shared/corpus .venv/bin/python bench/office_structure.py \\
        --before /tmp/base/core [--peers /tmp/peers/bin/python] [--json scores.json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _harness import CORPUS

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TRUTH = HERE / "office_truth"
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$")
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MARKS = re.compile(r"(\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`)")
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^>\s]+)>")
_BULLET = re.compile(r"^(?:[-*+\u2022\u25cf\u25e6\u25aa]\s*)+")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")
_NESTED = re.compile(r"\[nested table: ([^\]]*)\]")


def _norm(text: str) -> str:
    text = _AUTOLINK.sub(r"\1", text)
    text = _TAG.sub(" ", _LINK.sub(r"\1", _IMAGE.sub(r"\1", text)))
    return " ".join(_MARKS.sub("", text).replace("\\|", "|").replace("\\", "").split())


def _cells(line: str) -> list[str]:
    """A pipe-table row's cells, normalized; a list bullet at a cell's start left out (as the
    truth writes cells)."""
    return [_BULLET.sub("", _norm(c)) for c in _CELL_SPLIT.split(line.strip().strip("|"))]


#: What is scored, in the table's column order; a truth file without a key scores nothing there.
KEYS = ("headings", "cells", "paragraphs", "charts", "titles", "numbering", "comments")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]\s+)?")


def score(text: str, truth: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """(found, wanted) of each of ``KEYS`` by the rules above."""
    lines = text.splitlines()
    heads = [_norm(m.group(1)) for m in map(_HEADING.match, lines) if m]
    cells = [c for line in lines if line.lstrip().startswith("|") for c in _cells(line)]
    starts = [_norm(_LIST_MARK.sub("", line)) for line in lines]
    whole = _norm(text)

    nested = [n for c in cells for n in _NESTED.findall(c)]
    outer = [" ".join(_NESTED.sub(" ", c).split()) for c in cells]

    def cell_found(want: str) -> bool:
        if want in cells or want in outer:
            return True
        pattern = re.compile(rf"(?<![\w]){re.escape(want)}(?![\w])")
        if len(want) <= 3:
            return any(pattern.search(n) for n in nested)
        return any(pattern.search(c) for c in cells + outer)

    def table_cells(charts: bool) -> list[str]:
        return list(dict.fromkeys(
            _norm(c) for t in truth.get("tables", []) if bool(t.get("chart")) == charts
            for row in t["rows"] for c in row if c.strip()
        ))  # fmt: skip

    def count(wanted: list[str], found: Callable[[str], bool]) -> tuple[int, int]:
        return sum(map(found, wanted)), len(wanted)

    def norms(key: str) -> list[str]:
        return [_norm(t) for t in truth.get(key, [])]

    def heading(want: str) -> bool:
        return any(want in h for h in heads)

    return {
        "headings": count([_norm(h[1]) for h in truth.get("headings", [])], heading),
        "cells": count(table_cells(False), cell_found),
        "paragraphs": count(norms("paragraphs"), lambda p: p in whole),
        "charts": count(table_cells(True), cell_found),
        "titles": count(norms("titles"), heading),
        "numbering": count(norms("numbering"), lambda n: any(x.startswith(n) for x in starts)),
        "comments": count(norms("comments"), lambda c: c in whole),
    }


# -- readers, each in its own process ------------------------------------------------------------
def _reader(tool: str) -> Callable[[str], str]:
    """``tool``'s markdown of a file: docread (the tree on PYTHONPATH, every unit joined),
    kreuzberg, markitdown, or pandoc alone (``pandoc -t gfm``, the format from the name)."""
    if tool == "kreuzberg":
        import kreuzberg

        config = kreuzberg.ExtractionConfig(output_format="markdown", use_cache=False)
        return lambda f: str(kreuzberg.extract_file_sync(f, config=config).content)
    if tool == "markitdown":
        from markitdown import MarkItDown

        md = MarkItDown()
        return lambda f: str(md.convert(f).text_content)
    if tool == "pandoc":
        import pypandoc

        argv = [pypandoc.get_pandoc_path(), "--sandbox", "-t", "gfm", "--wrap=none"]
        return lambda f: (
            subprocess.run(
                [*argv, f], capture_output=True, text=True, check=True, timeout=300
            ).stdout
        )
    import docread

    reader = docread.Reader("/", config={"cache": {"enabled": False}})
    return lambda f: "\n\n".join(d.text for d in reader.iter_documents(f))


def child(tool: str, files: list[str]) -> None:
    """Print {path: text} for ``files`` read by ``tool``."""
    read = _reader(tool)
    out: dict[str, str] = {}
    for f in files:
        try:
            out[f] = read(f)
        except Exception as exc:  # a reader that fails on a file scores nothing there
            out[f] = ""
            print(f"{tool}: {Path(f).name}: {type(exc).__name__}: {exc}"[:300], file=sys.stderr)
    print(json.dumps(out))


def _run(tool: str, exe: str, files: list[str], tree: str | None) -> dict[str, str] | None:
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = tree
    cmd = [exe, __file__, "--child", tool, *files]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if done.returncode != 0:
        print(f"{tool}: failed: {done.stderr.strip()[-300:]}")
        return None
    for line in done.stderr.strip().splitlines():
        print(f"  ({line})")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _corpus() -> dict[str, dict[str, Any]]:
    """Truth by the file's absolute path."""
    out = {}
    for path in sorted(TRUTH.glob("*.json")):
        truth = json.loads(path.read_text(encoding="utf-8"))
        out[str(CORPUS / truth["file"])] = truth
    return out


def _generated(folder: Path, sections: int) -> dict[str, dict[str, Any]]:
    sys.path.insert(0, str(ROOT / "tests"))
    from office_fixtures import WRITERS, office_spec

    out = {}
    for fam, write in WRITERS.items():
        spec = office_spec(sections, nested=fam != "pptx")
        write(folder / f"generated.{fam}", spec)
        cells = [[c] for c in spec.cells]
        out[str(folder / f"generated.{fam}")] = {
            "headings": [[1, h] for h in spec.headings],
            "tables": [{"rows": cells}],
            "paragraphs": spec.paragraphs,
        }
    return out


def _format(path: str) -> str:
    return Path(path).suffix.lstrip(".")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", help="core folder of the 'before' docread (e.g. /work/main/core)")
    ap.add_argument(
        "--peers", default="/tmp/peers/bin/python", help="python with kreuzberg and markitdown"
    )
    ap.add_argument("--sections", type=int, default=12)
    ap.add_argument("--json", help="write the per-file scores here")
    ap.add_argument("--child", nargs="+", metavar=("TOOL", "FILE"))
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.child[1:])
        return
    with tempfile.TemporaryDirectory(prefix="office-structure-") as tmp:
        truths = {**_corpus(), **_generated(Path(tmp), args.sections)}
        files = list(truths)
        readers = {"after": (sys.executable, str(ROOT / "core"))}
        if args.before:
            readers = {"before": (sys.executable, args.before), **readers}
        readers["pandoc"] = (sys.executable, None)
        if Path(args.peers).exists():
            readers |= {"kreuzberg": (args.peers, None), "markitdown": (args.peers, None)}
        else:
            print(f"peers: no python at {args.peers}: kreuzberg and markitdown skipped")
        texts = {}
        for name, (exe, tree) in readers.items():
            tool = name if name in ("kreuzberg", "markitdown", "pandoc") else "docread"
            texts[name] = _run(tool, exe, files, tree)
    per_file: dict[str, dict[str, Any]] = defaultdict(dict)
    totals: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(
        lambda: {key: [0, 0] for key in ("files", *KEYS)}
    )
    for path, truth in truths.items():
        group = "generated " + _format(path) if "generated." in path else _format(path)
        for name, found in texts.items():
            if found is None:
                continue
            scored = score(found.get(path, ""), truth)
            per_file[Path(path).name][name] = scored
            total = totals[(group, name)]
            total["files"][0] += 1
            for key, (hit, want) in scored.items():
                total[key][0] += hit
                total[key][1] += want
    _table(totals, [name for name, found in texts.items() if found is not None])
    if args.json:
        Path(args.json).write_text(json.dumps(per_file, indent=1))


def _table(totals: dict[tuple[str, str], dict[str, list[int]]], names: list[str]) -> None:
    """One markdown table: a row per format and reader, then every corpus file together; a
    column only when some truth has it."""
    groups = sorted({g for g, _ in totals}, key=lambda g: (g.startswith("generated"), g))
    corpus = [g for g in groups if not g.startswith("generated")]
    for name in names:
        every = totals[("all corpus", name)]
        for group in corpus:
            for key, (hit, want) in totals[(group, name)].items():
                every[key][0] += hit
                every[key][1] += want
    keys = [k for k in KEYS if any(t[k][1] for t in totals.values())]

    def cell(hit: int, want: int) -> str:
        return f"{hit / want:.0%} ({hit}/{want})" if want else "-"

    print(f"| format | files | reader | {' | '.join(keys)} |\n|{'---|' * (3 + len(keys))}")
    for group in [*groups, "all corpus"]:
        for name in names:
            if (group, name) in totals:
                row = totals[(group, name)]
                shown = " | ".join(cell(*row[k]) for k in keys)
                print(f"| {group} | {row['files'][0]} | {name} | {shown} |")


if __name__ == "__main__":
    main()
