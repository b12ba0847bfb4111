"""Structure recall on generated office files: how many of the headings, table cells and
paragraphs a reader keeps, per family (DOCX, ODT, PPTX), for docread before (another checkout,
e.g. untouched main), docread after (this tree) and kreuzberg (when its venv exists).

The files come from ``tests/office_fixtures.py`` (python-docx, odfpy, python-pptx), with merged
cells and a nested table. Scoring rules (as for PDFs in bench/structure.py):
- a heading is found when a markdown heading line (``#`` .. ``######``) holds its text;
- a cell is found when a pipe-table row (a line starting with ``|``) holds its text;
- a paragraph (a bullet item too) is found when the text holds it whole.
Text is compared with runs of whitespace as one space.

    .venv/bin/python bench/office_structure.py --before /work/main/core [--sections 12]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KREUZBERG = Path(
    "/tmp/kz/bin/python"
)  # a bench-only venv: python3 -m venv /tmp/kz; pip install kreuzberg
FAMILIES = ("docx", "odt", "pptx")
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")


def _norm(text: str) -> str:
    return " ".join(text.replace("\\|", "|").split())


def score(
    text: str, headings: list[str], cells: list[str], paragraphs: list[str]
) -> dict[str, float]:
    """Recall (0-1) of headings, cells and paragraphs in ``text`` by the rules above."""
    lines = text.splitlines()
    heads = [_norm(m.group(1)) for m in map(_HEADING.match, lines) if m]
    rows = [_norm(line) for line in lines if line.lstrip().startswith("|")]
    whole = _norm(text)

    def found(wanted: list[str], where: list[str]) -> float:
        hits = sum(1 for w in wanted if any(_norm(w) in line for line in where))
        return hits / len(wanted) if wanted else 1.0

    return {
        "headings": found(headings, heads),
        "cells": found(cells, rows),
        "paragraphs": found(paragraphs, [whole]),
    }


def child(tool: str, folder: str) -> None:
    """Print {file name: text} for every generated file, read by ``tool``."""
    files = sorted(p for p in Path(folder).iterdir() if p.suffix[1:] in FAMILIES)
    out: dict[str, str] = {}
    if tool == "kreuzberg":
        import kreuzberg

        config = kreuzberg.ExtractionConfig(output_format="markdown", use_cache=False)
        for f in files:
            out[f.name] = kreuzberg.extract_file_sync(str(f), config=config).content
    else:
        import docread

        with docread.Reader(folder, config={"cache": {"enabled": False}}) as reader:
            for f in files:
                out[f.name] = "\n\n".join(d.text for d in reader.iter_documents(f.name))
    print(json.dumps(out))


def _run(tool: str, folder: Path, tree: str | None) -> dict[str, str] | None:
    exe = str(KREUZBERG) if tool == "kreuzberg" else sys.executable
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = tree
    cmd = [exe, __file__, "--child", tool, str(folder)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    if done.returncode != 0:
        print(f"{tool}: failed: {done.stderr.strip()[-300:]}")
        return None
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", help="core folder of the 'before' docread (e.g. /work/main/core)")
    ap.add_argument("--sections", type=int, default=12)
    ap.add_argument("--child", nargs=2, metavar=("TOOL", "FOLDER"))
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    sys.path.insert(0, str(ROOT / "tests"))
    from office_fixtures import WRITERS, office_spec

    specs = {}
    with tempfile.TemporaryDirectory(prefix="office-structure-") as tmp:
        folder = Path(tmp)
        for fam, write in WRITERS.items():
            spec = office_spec(args.sections, nested=fam != "pptx")
            write(folder / f"generated.{fam}", spec)
            specs[f"generated.{fam}"] = spec
        tools = {"after": str(ROOT / "core")}
        if args.before:
            tools = {"before": args.before, **tools}
        runs = {name: _run("docread", folder, tree) for name, tree in tools.items()}
        if KREUZBERG.exists():
            runs["kreuzberg"] = _run("kreuzberg", folder, None)
        else:
            print(f"kreuzberg: no venv at {KREUZBERG}: skipped")
    print(f"{'file':16} {'reader':10} {'headings':>9} {'cells':>7} {'paragraphs':>11}")
    for name, spec in specs.items():
        for tool, texts in runs.items():
            if texts is None:
                continue
            s = score(texts[name], spec.headings, spec.cells, spec.paragraphs)
            print(
                f"{name:16} {tool:10} {s['headings']:9.0%} {s['cells']:7.0%} {s['paragraphs']:11.0%}"
            )


if __name__ == "__main__":
    main()
