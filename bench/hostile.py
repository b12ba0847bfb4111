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
    path = DATA / file_name
    if not path.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        make(path)
    options = dict(options)  # "config": settings of this case (e.g. the floor's pdf.structure)
    config = {"cache": {"enabled": False}, "isolation": {"workers": 1}, **options.pop("config", {})}
    me = psutil.Process()
    peak = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not stop.is_set():
            for child in me.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    peak = max(peak, child.memory_info().rss)
            time.sleep(0.02)

    with docread.Reader(DATA, config=config) as reader:
        reader.read("noise.pdf", pages="1", ocr=False) if name != "ocr" else None  # warm
        sampler = threading.Thread(target=sample, daemon=True)
        peak = 0
        sampler.start()
        start = time.perf_counter()
        try:
            if options.get("loader"):  # iter_documents: every row, notes to the logger
                docs = list(reader.iter_documents(file_name))
                outcome = f"ok, {len(docs)} documents, {sum(len(d.text) for d in docs):,} chars"
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
    print(f"{'case':12} {'worker MB':>9} {'seconds':>8}  outcome")
    for name in names:
        out = subprocess.run(
            [sys.executable, __file__, "--case", name], capture_output=True, text=True, timeout=600
        )
        if out.returncode:
            print(f"{name:12} failed: {out.stderr.strip().splitlines()[-1:]}")
            continue
        row = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{name:12} {row['worker_mb']:>9} {row['seconds']:>8}  {row['outcome']}")


if __name__ == "__main__":
    main()
