"""Hostile-input benchmark: peak worker RSS and wall time of each expensive input, every case in
a fresh process (a fresh worker pool), the worker's RSS sampled with psutil every 20 ms.

    PYTHONPATH=core:. .venv/bin/python bench/hostile.py          # prints a table
    PYTHONPATH=core:. .venv/bin/python bench/hostile.py sqlite   # one case

Run it once with main's code and once with a branch's (PYTHONPATH) for a before/after table.
The files are made once under bench/data/hostile/.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import contextlib

import hostile_files  # noqa: E402

DATA = Path(__file__).resolve().parent / "data" / "hostile"

CASES: dict[str, tuple[str, Callable[[Path], Path], dict[str, Any]]] = {
    "sqlite": ("schema.sqlite", hostile_files.sqlite_schema_bomb, {}),
    "pdf": ("operators.pdf", hostile_files.pdf_operator_bomb, {}),
    "csv": ("wide.csv", hostile_files.wide_csv, {}),
    "csv-load": ("wide.csv", hostile_files.wide_csv, {"loader": True}),
    "rtf": ("nested.rtf", hostile_files.nested_rtf, {}),
    "ocr": ("noise.pdf", hostile_files.noise_pdf, {}),
    "tar-list": ("negative.tar", hostile_files.tar_bad_size, {}),
    "tar-read": ("negative.tar", hostile_files.tar_bad_size, {"archive_path": "m2.txt"}),
    "pages": ("wide.csv", hostile_files.wide_csv, {"pages": "1-" + "9" * 5000}),
    "rows": ("wide.csv", hostile_files.wide_csv, {"rows": "head:" + "9" * 5000}),
    "offset": ("lines.txt", lambda p: (p.write_text("line\n" * 10), p)[1], {"offset": 10**5000}),
    "sheet": ("wide.csv", hostile_files.wide_csv, {"sheet": 10**5000}),
    # issue 32: small files whose attributes multiply (loader: iter_documents; host: in-process)
    "1-xlsx-corners": ("corners.xlsx", hostile_files.xlsx_far_corners, {"loader": True}),
    "1-xlsx-head": ("corners.xlsx", hostile_files.xlsx_far_corners, {"rows": "head:5"}),
    "2-odt-repeat": ("repeat.odt", hostile_files.odf_repeated_table, {"loader": True}),
    "2-ods-repeat": ("repeat.ods", hostile_files.odf_repeated_table, {"loader": True}),
    "3-epub-spine": ("spine.epub", hostile_files.epub_repeated_spine, {"loader": True}),
    "4-docx-ilvl": ("ilvl.docx", hostile_files.docx_deep_list, {"loader": True}),
    "4-docx-ilvl-host": ("ilvl.docx", hostile_files.docx_deep_list, {"loader": True, "host": True}),
    "5-docx-span": ("span.docx", hostile_files.docx_spans, {"loader": True}),
    "5-pptx-span": ("span.pptx", hostile_files.pptx_spans, {"loader": True}),
    "7-xlsx-shared": ("shared.xlsx", hostile_files.xlsx_shared_string, {"loader": True}),
    "7-xlsx-shared-view": ("shared.xlsx", hostile_files.xlsx_shared_string, {"rows": "1-100000"}),
    # issue 32 items 6, 8: a hostile outline, a vector grid (and its floor, structure off)
    "pdf-outline": ("outline.pdf", hostile_files.pdf_deep_outline, {}),
    "pdf-grid": ("grid.pdf", hostile_files.pdf_vector_grid, {}),
    "pdf-grid-off": (
        "grid.pdf",
        hostile_files.pdf_vector_grid,
        {"config": {"pdf": {"structure": "off"}}},
    ),
}


def run_case(name: str) -> dict[str, Any]:
    """Read one hostile file through a 1-worker pool; peak worker RSS (MB), seconds, outcome."""
    import docread
    import psutil

    file_name, make, options = CASES[name]
    options = dict(options)
    loader, host = options.pop("loader", False), options.pop("host", False)
    path = DATA / file_name
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        make(path)
    config = {"cache": {"enabled": False}, "isolation": {"workers": 1, "enabled": not host}}
    config.update(
        options.pop("config", {})
    )  # this case's settings (e.g. the floor's pdf.structure)
    me = psutil.Process()
    peak = 0
    stop = threading.Event()

    def sample() -> None:  # the worker's RSS; with isolation off, the growth of this process's
        nonlocal peak
        base = me.memory_info().rss
        while not stop.is_set():
            with contextlib.suppress(psutil.Error):
                if host:
                    peak = max(peak, me.memory_info().rss - base)
                for child in me.children(recursive=True):
                    peak = max(peak, child.memory_info().rss)
            time.sleep(0.02)

    with docread.Reader(DATA, config=config) as reader:
        reader.read("noise.pdf", pages="1", ocr=False) if name != "ocr" else None  # warm
        sampler = threading.Thread(target=sample, daemon=True)
        peak = 0
        sampler.start()
        start = time.perf_counter()
        try:
            if loader:  # iter_documents: every row, notes to the logger; counted, not kept
                docs = chars = cut = 0
                for doc in reader.iter_documents(file_name):
                    docs, chars = docs + 1, chars + len(doc.text)
                    cut += bool(doc.metadata.get("truncated"))
                outcome = f"ok, {docs} documents, {chars:,} chars"
                outcome += f", {cut} truncated" if cut else ""
            else:
                result = reader.read(file_name, **options)
                outcome = f"ok, {len(result.text):,} chars, {len(result.notes)} notes"
                if result.notes:
                    outcome += ": " + result.notes[-1][:90]
        except docread.ReadDocumentError as exc:
            outcome = f"{type(exc).__name__}: {exc.message[:110]}"
        except ValueError as exc:  # not a docread error: a bug this benchmark shows
            outcome = f"raw {type(exc).__name__}: {str(exc)[:100]}"
        seconds = time.perf_counter() - start
        stop.set()
        sampler.join()
    return {"case": name, "seconds": round(seconds, 2), "worker_mb": peak // (1024 * 1024),
            "outcome": outcome}  # fmt: skip


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--case":
        print(json.dumps(run_case(sys.argv[2])))
        return
    names = sys.argv[1:] or list(CASES)
    for name in names:  # made here, so the first timed case does not include making a file
        file_name, make, _ = CASES[name]
        if not (DATA / file_name).exists():
            DATA.mkdir(parents=True, exist_ok=True)
            make(DATA / file_name)
    if not (DATA / "noise.pdf").exists():
        hostile_files.noise_pdf(DATA / "noise.pdf")
    width = max(map(len, names))
    print(f"{'case':{width}} {'worker MB':>9} {'seconds':>8}  outcome")
    for name in names:
        out = subprocess.run(
            [sys.executable, __file__, "--case", name], capture_output=True, text=True, timeout=600
        )
        if out.returncode:
            print(f"{name:{width}} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        row = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{name:{width}} {row['worker_mb']:>9} {row['seconds']:>8}  {row['outcome']}")


if __name__ == "__main__":
    main()
