"""Parallel loading benchmark (issue 16 §1): docread folder loads with 1 and 2 workers against raw
PyMuPDF in 1 and 2 processes, a 2,000-page PDF, 10,000 small files, 20 scanned pages on 1 core vs
2. Every case runs in its own process (peak RSS per case: host and its largest child), cases of a
row interleaved, the median and best of the repeats kept; generated inputs live in a temp folder.

Issue 27's table (``--table 27``) times each case from outside, process start included (wall
seconds from spawn to exit; the raw PyMuPDF processes are spawned by this script itself): the
shared corpus, every format, automatic OCR, 2 workers vs 1; the corpus PDFs three times over
with ``pdf.structure: off``, 1 worker vs raw PyMuPDF in 1 process and 2 workers vs 2 processes;
and a scanned page read by the agent view then by a loader, its tesseract runs counted (a
logging ``tesseract`` first on PATH, the real one behind it; the cache on, in a temp folder).
Ray Data's row is ``bench/ray_data.py --cluster``.

The raw floor is PyMuPDF as a user's ``import pymupdf`` gives it, settings untouched (with its
layout packages where installed, as here: quad corrections then off, as docread's ``off`` reads
its text), ``page.get_text()`` a page; its import (~0.9 s of CPU with the layout packages) is
timed apart, and so is a docread case's ``import docread`` (``RAW``, ``case_docread``): one
floor with bench/structure.py's and bench/load_path.py's.

    .venv/bin/python bench/scale.py            # full size, 3 repeats, both tables
    .venv/bin/python bench/scale.py --quick    # smaller inputs, 2 repeats (a few minutes)
    .venv/bin/python bench/scale.py --table 27 # issue 27's rows only
    .venv/bin/python bench/scale.py --table 35 --before 601ec3e  # issue 35's (bench/load_path.py)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _harness import CORPUS, text_pdf

CORPUS_PDF = CORPUS / "pdf"
BODY = "The quick brown fox jumps over the lazy dog. " * 8
NO_CACHE = {"cache": {"enabled": False}}

# raw PyMuPDF: process ``part`` of ``parts`` reads every parts-th page of every file. The floor
# is PyMuPDF as a user's ``import pymupdf`` gives it, its settings untouched: with its layout
# packages when they are installed (this bench's environment: ~0.9 s of CPU, and pymupdf4llm's
# import turns quad corrections off, as docread's ``off`` reads), its import timed apart (its
# wall and CPU seconds printed after the characters: ``raw_import``).
RAW = """
import sys, time
began, cpu = time.perf_counter(), time.process_time()
import pymupdf
imported = (time.perf_counter() - began, time.process_time() - cpu)
pymupdf.TOOLS.mupdf_display_errors(False)
part, parts, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
chars = 0
for name in files:
    try:
        doc = pymupdf.open(name)
        if doc.needs_pass and not doc.authenticate(""):
            continue
        for n in range(part, doc.page_count, parts):
            chars += len(doc[n].get_text())
    except Exception:
        continue
print(chars, *imported)
"""


def raw_import(outs: list[str]) -> tuple[int, float, float]:
    """What RAW processes printed: their characters, and the longest ``import pymupdf`` among
    them, wall and CPU seconds (the processes import at once: the floor starts after it)."""
    rows = [out.split() for out in outs if out.strip()]
    chars = sum(int(row[0]) for row in rows)
    if len(rows) != len(outs) or not chars:  # a crashed process: no floor, not a fast one
        raise RuntimeError(
            f"raw PyMuPDF: {len(outs) - len(rows)} of {len(outs)} processes "
            f"printed nothing, {chars} characters read"
        )
    wall = max((float(row[1]) for row in rows), default=0.0)
    return chars, wall, sum(float(row[2]) for row in rows)


# -- cases (each runs in a fresh process: ``scale.py case KIND ARGS...``) ---------------------
def case_docread(folder: str, target: str, workers: int, config: str = "{}") -> dict[str, Any]:
    """A default isolated Reader (cache off, ``config`` JSON merged in) loading ``target`` with
    ``workers``; ``import docread`` timed apart (``import``, ``import_cpu``), as the raw floor's
    ``import pymupdf`` is."""
    began, cpu = time.perf_counter(), time.process_time()
    import docread

    docread.Reader  # noqa: B018  (``import docread`` defers the Reader's modules to this)
    imported = (time.perf_counter() - began, time.process_time() - cpu)
    start = time.perf_counter()
    cpu = time.process_time()
    units = 0
    with docread.Reader(folder, {**NO_CACHE, **json.loads(config)}) as reader:
        for _ in reader.iter_units(target, workers=workers, on_error=lambda p, e: None):
            units += 1
    return {
        "seconds": time.perf_counter() - start,
        "units": units,
        "host_cpu": time.process_time() - cpu,  # every host thread's CPU time
        "import": imported[0],
        "import_cpu": imported[1],
    }


def case_cores(folder: str, target: str, cores: int) -> dict[str, Any]:
    """The default load (workers: one per usable core) with this process pinned to ``cores``."""
    os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:cores]))
    return case_docread(folder, target, 0)


def case_ocr_once(folder: str) -> dict[str, Any]:
    """A one-page scan read by the agent view, then by a loader, with the cache on (a fresh
    folder): seconds of each and the tesseract runs that read an image, counted by a logging
    ``tesseract`` first on PATH (the real one behind it; workers start after PATH is set)."""
    import shutil

    import docread

    real, work = shutil.which("tesseract"), Path(folder)
    log, shim = work / "tesseract.log", work / "bin" / "tesseract"
    shim.parent.mkdir()
    shim.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
    shim.chmod(0o755)
    os.environ["PATH"] = f"{shim.parent}{os.pathsep}{os.environ['PATH']}"
    config = {"cache": {"enabled": True, "directory": str(work / "cache")}}
    with docread.Reader(work, config) as reader:
        start = time.perf_counter()
        viewed = reader.read("scan.pdf").documents[0].text
        middle = time.perf_counter()
        loaded = next(iter(reader.iter_documents(["scan.pdf"]))).text
        end = time.perf_counter()
    runs = sum(1 for line in log.read_text().splitlines() if line.startswith("stdin"))
    return {
        "seconds": end - start, "view": middle - start, "loader": end - middle,
        "runs": runs, "same_text": viewed.split() == loaded.split(), "units": 2,
    }  # fmt: skip


def run_case(*args: str, tree: str | None = None) -> dict[str, Any]:
    """One case in a fresh process; ``tree``: a checkout whose docread it imports (both trees
    from compiled bytecode kept outside them)."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = os.pathsep.join([f"{tree}/core", tree])
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), "docread-scale-pycache")
    out = subprocess.run(
        [sys.executable, __file__, "case", *args], check=True, capture_output=True, text=True,
        env=env,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def against(before: str, count: int, repeats: int) -> None:
    """``count`` small mixed files, a tail case (130 small HTML pages and one big one last) and
    the corpus PDFs, on 1 and 2 workers, this tree and ``before`` interleaved: median seconds,
    the host's CPU per file and peak RSS."""
    here = str(Path(__file__).resolve().parents[1])
    trees = {"before": before, "after": here}
    with tempfile.TemporaryDirectory(prefix="docread-scale-") as tmp:
        run_case("mixed", tmp, str(count))
        rows = {"small": ("docread", tmp, "mixed"), "tail": ("docread", tmp, "tail")}
        if CORPUS_PDF.is_dir():
            rows["corpus PDFs"] = ("docread", str(CORPUS_PDF.parent), CORPUS_PDF.name)
        for row, args in rows.items():
            runs: dict[str, list[dict[str, Any]]] = {}
            for _ in range(repeats):
                for label, tree in trees.items():
                    for w in (1, 2):
                        runs.setdefault(f"{label}, {w} worker{'s' * (w > 1)}", []).append(
                            run_case(*args, str(w), tree=tree)
                        )
            files = sum(1 for p in Path(args[1], args[2]).rglob("*") if p.is_file())
            print(f"\n{row}: {files:,} files, median of {repeats}")
            for name, rs in runs.items():
                secs = statistics.median(r["seconds"] for r in rs)
                cpu = statistics.median(r["host_cpu"] for r in rs) / files * 1000
                host = max(r["host_mb"] for r in rs)
                print(
                    f"  {name:<20} {secs:7.2f} s  host CPU {cpu:5.2f} ms/file  host RSS {host:6.1f} MB"
                )
            for label in trees:
                one = statistics.median(r["seconds"] for r in runs[f"{label}, 1 worker"])
                two = statistics.median(r["seconds"] for r in runs[f"{label}, 2 workers"])
                print(f"  {label}: 2 workers vs 1: {one / two:.2f}x")


def run_wall(*args: str) -> dict[str, Any]:
    """A case timed from outside, process start included: wall seconds from spawn to exit, with
    the case's own JSON (its peak RSS, ``host_mb``, and its workers', ``child_mb``)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, __file__, "case", *args], stdout=subprocess.PIPE, text=True
    )
    out = proc.stdout.read() if proc.stdout else ""
    _, status, _ = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise RuntimeError(f"case {args} failed ({proc.returncode})")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    # peak RSS: the case's own (host, workers); ``import docread`` timed apart (case_docread)
    result["seconds"] = time.perf_counter() - start - result.get("import", 0.0)
    return result


def run_raw(folder: str, processes: int) -> dict[str, Any]:
    """Raw PyMuPDF over every PDF under ``folder`` in ``processes`` processes spawned here,
    timed from spawn to the last exit, the import timed apart (``import``, ``import_cpu``:
    RAW); peak RSS of the largest. The one raw runner: table 16 runs it as ``case raw``,
    table 27 and load_path.py call it."""
    files = sorted(str(p) for p in Path(folder).rglob("*.pdf"))
    start = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RAW, str(i), str(processes), *files],
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for i in range(processes)
    ]
    outs, peak = [], 0.0
    for proc in procs:
        outs.append(proc.stdout.read() if proc.stdout else "")
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
        peak = max(peak, usage.ru_maxrss / 1024)
    chars, imported, imported_cpu = raw_import(outs)
    return {
        "seconds": time.perf_counter() - start - imported,
        "units": chars,
        "host_mb": peak,
        "child_mb": 0.0,
        "import": imported,
        "import_cpu": imported_cpu,
    }


# -- inputs -----------------------------------------------------------------------------------
def small_files(folder: Path, count: int) -> None:
    """``count`` small text and markdown files, 100 per subfolder."""
    for n in range(count):
        sub = folder / f"d{n // 100:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        if n % 2:
            (sub / f"f{n}.md").write_text(f"# Note {n}\n\n{BODY}\n\n## More\n\n- a\n- b\n")
        else:
            (sub / f"f{n}.txt").write_text(f"file {n}\n{BODY}\n" * 3)


def small_mixed(folder: Path, count: int) -> None:
    """``count`` small files of six kinds in turn (txt, md, csv, json, html, docx), 100 per
    subfolder; the docx is one document written by python-docx, copied. And the tail case: 130
    small HTML pages and one of 3 MB, last in walk order."""
    import io

    import docx

    made = docx.Document()
    made.add_heading("Small report", 1)
    made.add_paragraph(BODY)
    buffer = io.BytesIO()
    made.save(buffer)
    kinds = {
        "txt": lambda n: f"file {n}\n{BODY}\n".encode(),
        "md": lambda n: f"# Note {n}\n\n{BODY}\n".encode(),
        "csv": lambda n: (
            "id,name,value\n" + "".join(f"{i},row {i},{n}\n" for i in range(20))
        ).encode(),
        "json": lambda n: json.dumps({"id": n, "items": [{"k": i} for i in range(10)]}).encode(),
        "html": lambda n: f"<html><body><h1>Page {n}</h1><p>{BODY}</p></body></html>".encode(),
        "docx": lambda n: buffer.getvalue(),
    }
    for n in range(count):
        sub = folder / "mixed" / f"d{n // 100:03d}"
        sub.mkdir(parents=True, exist_ok=True)
        ext = list(kinds)[n % len(kinds)]
        (sub / f"f{n}.{ext}").write_bytes(kinds[ext](n))
    tail = folder / "tail"
    tail.mkdir()
    section = f"<p>{BODY}</p><table><tr><td>a</td><td>b</td></tr></table>"
    for n in range(130):
        (tail / f"f{n:03d}.html").write_text(f"<html><body>{section * 40}</body></html>")
    (tail / "zz-big.html").write_text(f"<html><body>{section * 5000}</body></html>")


def scanned_pdf(path: Path, pages: int) -> None:
    """A PDF of image-only pages (text rendered at 200 dpi, no text layer): OCR on every page."""
    import pymupdf

    src = pymupdf.open()
    for n in range(1, pages + 1):
        src.new_page().insert_textbox(
            (72, 72, 540, 770), f"Scanned page {n}. {BODY * 3}", fontsize=11
        )
    out = pymupdf.open()
    for page in src:
        pix = page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY)
        out.new_page(width=page.rect.width, height=page.rect.height).insert_image(
            page.rect, stream=pix.tobytes("png")
        )
    out.save(path)


def make27(data: Path) -> None:
    """Issue 27's inputs: the corpus PDFs three times over (pdf3/a, b, c) and a one-page scan."""
    import shutil

    for copy in "abc":
        for pdf in CORPUS_PDF.rglob("*.pdf"):
            target = data / "pdf3" / copy / pdf.relative_to(CORPUS_PDF)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(pdf, target)
    (data / "ocr").mkdir()
    scanned_pdf(data / "ocr" / "scan.pdf", 1)


def make(data: Path, big_pages: int, small_count: int, scanned: int) -> None:
    """Every generated input (in a child: PyMuPDF never grows the bench's own process, whose
    peak RSS its case processes inherit)."""
    text_pdf(data / "big" / "big.pdf", big_pages, BODY)
    small_files(data / "small", small_count)
    small_mixed(data, small_count)
    (data / "scan").mkdir()
    scanned_pdf(data / "scan" / "scanned.pdf", scanned)


# -- rows -------------------------------------------------------------------------------------
def measure(
    cases: dict[str, tuple[str, ...]], repeats: int, wall: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """Every case ``repeats`` times, interleaved (a, b, a, b...) so noise hits both alike;
    ``wall``: timed from outside, process start included (``raw`` cases spawned here)."""
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in cases}
    for _ in range(repeats):
        for name, args in cases.items():
            if not wall:
                runs[name].append(run_case(*args))
            elif args[0] == "raw":
                runs[name].append(run_raw(args[1], int(args[2])))
            else:
                runs[name].append(run_wall(*args))
    return runs


def table27(data: Path, repeats: int) -> None:
    """Issue 27's rows (wall seconds, process start included), each with its goal."""
    corpus = CORPUS
    run_case("make27", str(data))
    print("\nissue 27 (wall seconds from spawn to exit, process start included)")
    runs = measure(
        {f"docread, {w} worker{'s' * (w > 1)}": ("docread", str(corpus), ".", str(w)) for w in (1, 2)},
        repeats, wall=True,
    )  # fmt: skip
    show(
        "shared corpus, all formats, automatic OCR",
        runs,
        ("docread, 2 workers", "docread, 1 worker"),
        1.85,
    )
    off = json.dumps({"pdf": {"structure": "off"}})
    pdf3 = str(data / "pdf3")
    runs = measure(
        {
            "raw PyMuPDF, 1 process": ("raw", pdf3, "1"),
            "raw PyMuPDF, 2 processes": ("raw", pdf3, "2"),
            "docread off, 1 worker": ("docread", str(data), "pdf3", "1", off),
            "docread off, 2 workers": ("docread", str(data), "pdf3", "2", off),
        },
        repeats, wall=True,
    )  # fmt: skip
    show(
        "corpus PDFs x3, pdf.structure: off",
        runs,
        ("docread off, 1 worker", "raw PyMuPDF, 1 process"),
        0.9,
    )
    show("  (same runs)", runs, ("docread off, 2 workers", "raw PyMuPDF, 2 processes"), 0.9)
    once = [run_wall("ocronce", str(data / "ocr"))]
    for _ in range(repeats - 1):  # a fresh folder (and cache) each time
        fresh = data / f"ocr{len(once)}"
        fresh.mkdir()
        (fresh / "scan.pdf").write_bytes((data / "ocr" / "scan.pdf").read_bytes())
        once.append(run_wall("ocronce", str(fresh)))
    med = {k: statistics.median(r[k] for r in once) for k in ("view", "loader")}
    runs_seen = sorted({r["runs"] for r in once})
    print(
        f"\na scanned page read by the agent view then by the loader: tesseract runs {runs_seen} "
        f"(goal: one; {'ok' if runs_seen == [1] else 'BELOW'}), same text "
        f"{all(r['same_text'] for r in once)}; agent view {med['view']:.2f} s, loader "
        f"{med['loader']:.2f} s (median of {len(once)})"
    )


def show(
    title: str, runs: dict[str, list[dict[str, Any]]], ratio: tuple[str, str], floor: float
) -> None:
    """One row: each case's median/best seconds and peak RSS, the speed ratio against the floor."""
    print(f"\n{title}")
    for name, rs in runs.items():
        secs = [r["seconds"] for r in rs]
        host = max(r["host_mb"] for r in rs)
        child = max(r["child_mb"] for r in rs)
        print(
            f"  {name:<26} median {statistics.median(secs):7.2f} s  best {min(secs):7.2f} s  "
            f"peak RSS host {host:6.1f} MB  worker {child:6.1f} MB  ({rs[0]['units']} out)"
        )
    fast, slow = ratio
    med = statistics.median(r["seconds"] for r in runs[slow]) / statistics.median(
        r["seconds"] for r in runs[fast]
    )
    best = min(r["seconds"] for r in runs[slow]) / min(r["seconds"] for r in runs[fast])
    verdict = "ok" if med >= floor else "BELOW"
    print(
        f"  {fast} vs {slow}: {med:.2f}x median, {best:.2f}x best (target >= {floor}x: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller inputs, 2 repeats")
    parser.add_argument("--repeats", type=int, help="runs per case (default 3, quick 2)")
    parser.add_argument(
        "--before",
        help="a checkout to compare with: small files and the tail; with --table 35, a checkout "
        "or a git ref, every row",
    )
    parser.add_argument("--table", choices=("16", "27", "35"), help="only this issue's rows")
    args = parser.parse_args()
    if args.table == "35":  # the load path's table: its own script, every row before and after
        from load_path import ROWS, table35

        table35(args.before, args.repeats or 3, ROWS, 2000 if args.quick else 10000)
        return
    if args.before:
        against(args.before, 2000 if args.quick else 10000, args.repeats or 3)
        return
    repeats = args.repeats or (2 if args.quick else 3)
    big_pages, small_count, scanned = (500, 2000, 6) if args.quick else (2000, 10000, 20)
    print(
        f"bench/scale.py: {os.cpu_count()} CPUs, {repeats} repeats{' (quick)' if args.quick else ''}"
    )
    with tempfile.TemporaryDirectory(prefix="docread-scale-") as tmp:
        data = Path(tmp)
        if args.table != "16":
            table27(data, repeats)
        if args.table == "27":
            return
        run_case("make", tmp, str(big_pages), str(small_count), str(scanned))
        if CORPUS_PDF.is_dir():
            pdfs = str(CORPUS_PDF.parent)
            runs = measure(
                {
                    "raw get_text, 1 process": ("raw", str(CORPUS_PDF), "1"),
                    "raw get_text, 2 processes": ("raw", str(CORPUS_PDF), "2"),
                    "docread, 1 worker": ("docread", pdfs, "pdf", "1"),
                    "docread, 2 workers": ("docread", pdfs, "pdf", "2"),
                },
                repeats,
            )
            title = f"{CORPUS_PDF} folder"
            show(title, runs, ("docread, 1 worker", "raw get_text, 1 process"), 0.9)
            print("  " + "-" * 40)
            show("  (same runs)", runs, ("docread, 2 workers", "docread, 1 worker"), 1.8)
            show("  (same runs)", runs, ("docread, 2 workers", "raw get_text, 2 processes"), 0.9)
        else:
            print(f"\n{CORPUS_PDF} is missing: the corpus rows are skipped")
        runs = measure(
            {
                f"docread, {w} worker{'s' * (w > 1)}": (
                    "docread",
                    str(data / "big"),
                    "big.pdf",
                    str(w),
                )
                for w in (1, 2)
            },
            repeats,
        )
        show(
            f"one {big_pages:,}-page text PDF",
            runs,
            ("docread, 2 workers", "docread, 1 worker"),
            1.7,
        )
        runs = measure(
            {
                f"docread, {w} worker{'s' * (w > 1)}": ("docread", str(data), "small", str(w))
                for w in (1, 2)
            },
            repeats,
        )
        show(
            f"{small_count:,} small text/markdown files",
            runs,
            ("docread, 2 workers", "docread, 1 worker"),
            1.6,
        )
        host = max(r["host_mb"] for r in runs["docread, 2 workers"])
        print(
            f"  host peak RSS with 2 workers {host:.1f} MB (target < 100 MB: {'ok' if host < 100 else 'BELOW'})"
        )
        runs = measure(
            {
                f"docread, {c} core{'s' * (c > 1)}": (
                    "cores",
                    str(data / "scan"),
                    "scanned.pdf",
                    str(c),
                )
                for c in (1, 2)
            },
            repeats,
        )
        show(f"{scanned} scanned pages (OCR)", runs, ("docread, 2 cores", "docread, 1 core"), 1.9)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "case":
        kind, rest = sys.argv[2], sys.argv[3:]
        if kind == "make":
            make(Path(rest[0]), *(int(n) for n in rest[1:]))
            result: dict[str, Any] = {"seconds": 0.0}
        elif kind == "mixed":
            small_mixed(Path(rest[0]), int(rest[1]))
            result = {"seconds": 0.0}
        elif kind == "make27":
            make27(Path(rest[0]))
            result = {"seconds": 0.0}
        elif kind == "ocronce":
            result = case_ocr_once(rest[0])
        elif kind == "raw":  # its processes' peak RSS: this case's children's (``child_mb``)
            result = run_raw(rest[0], int(rest[1]))
        elif kind == "cores":
            result = case_cores(rest[0], rest[1], int(rest[2]))
        else:
            result = case_docread(rest[0], rest[1], int(rest[2]), *rest[3:])
        result["host_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        result["child_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(json.dumps(result))
    else:
        main()
