"""Table windows on a generated 1 GB CSV and a 1 GB Parquet, side by side with the floor.

Each case runs in a fresh process (peak RSS is per case); libraries are imported before the clock
starts, in every case, so wall times compare the reads themselves.
  CSV:     docread rows="head:50" / rows="tail:20"  vs  pandas.read_csv(nrows=50) (the floor)
           and naive pandas.read_csv (what peers do)
  Parquet: docread rows="head:50" / rows="tail:20"  vs  pyarrow reading one row group (the floor)
           and naive pandas.read_parquet
  XLSX:    docread rows="head:50" on 1,000,000 rows  vs  openpyxl read-only, 50 rows (the floor)
Goals: head:50 within 2x of the floor and under 150 MB peak RSS on both; CSV tail:20 under 3 s.

    python bench/tabular.py [--size-gb 1] [--skip-naive]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"

CASE = r"""
import json, resource, sys, time
path, kind = sys.argv[1], sys.argv[2]
if kind.startswith("docread"):
    import docread
    import docread.extractors.tables.lines, docread.extractors.tables.parquet  # noqa: F401
    import docread.extractors.tables.workbook  # noqa: F401
    if path.endswith(".xlsx"):
        import openpyxl  # noqa: F401
    if path.endswith(".parquet"):
        import pyarrow.parquet  # noqa: F401
    reader = docread.Reader("/", config={"cache": {"enabled": False}, "isolation": {"enabled": False}})
    rows = kind.split(":", 1)[1]
    start = time.perf_counter()
    result = reader.read(path, rows=rows)
    out = result.render()
    header = result.header.get("Rows")
elif kind == "pandas_head":
    import pandas as pd
    start = time.perf_counter()
    out = pd.read_csv(path, nrows=50).to_string()
    header = None
elif kind == "pandas_full_csv":
    import pandas as pd
    start = time.perf_counter()
    out = pd.read_csv(path).tail(20).to_string()
    header = None
elif kind == "arrow_row_group":
    import pyarrow.parquet as pq
    start = time.perf_counter()
    out = str(pq.ParquetFile(path).read_row_group(0).slice(0, 50).to_pylist())
    header = None
elif kind == "openpyxl_head":
    from itertools import islice
    import openpyxl
    start = time.perf_counter()
    wb = openpyxl.load_workbook(path, read_only=True, data_only=True)
    out = str(list(islice(wb.active.iter_rows(values_only=True), 51)))
    wb.close()
    header = None
elif kind == "pandas_full_parquet":
    import pandas as pd
    start = time.perf_counter()
    out = pd.read_parquet(path).tail(20).to_string()
    header = None
wall = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"wall": wall, "rss_mb": rss, "chars": len(out), "rows": header}))
"""


def make_csv(size_gb: float) -> Path:
    path = DATA / f"big-{size_gb:g}gb.csv"
    target = int(size_gb * 1024**3)
    if path.exists() and path.stat().st_size >= target:
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    cities = ["Oslo", "Zürich", "Lyon", "Porto", "Kyoto", "Lima", "Perth"]
    with path.open("w", encoding="utf-8", newline="") as f:
        f.write("id,customer,city,amount,date,comment\n")
        written, i = 0, 0
        while written < target:
            block = "".join(
                f'{n},customer {n % 9973},{cities[n % 7]},{n % 100000 / 100:.2f},2024-{n % 12 + 1:02d}-{n % 28 + 1:02d},"note {n % 31}, ok"\n'
                for n in range(i, i + 100000)
            )
            f.write(block)
            written += len(block.encode())
            i += 100000
    return path


def make_parquet(size_gb: float) -> Path:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = DATA / f"big-{size_gb:g}gb.parquet"
    target = int(size_gb * 1024**3)
    if path.exists() and path.stat().st_size >= target * 0.95:
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(7)
    group = 1 << 20
    n = 0
    schema = None
    with pq.ParquetWriter(
        path,
        pa.schema(
            [("id", pa.int64())]
            + [(f"x{k}", pa.float64()) for k in range(10)]
            + [("label", pa.string())]
        ),
    ) as writer:
        schema = writer.schema
        while path.stat().st_size < target:
            cols = [pa.array(np.arange(n, n + group))] + [
                pa.array(rng.random(group)) for _ in range(10)
            ]
            cols.append(pa.array([f"label-{k % 1000}" for k in range(group)]))
            writer.write_table(pa.Table.from_arrays(cols, schema=schema), row_group_size=group)
            n += group
    return path


def make_xlsx(rows: int = 1_000_000) -> Path:
    """A real XLSX with ``rows`` rows, its sheet XML written directly (openpyxl takes minutes)."""
    import zipfile

    import openpyxl

    path = DATA / f"rows-{rows}.xlsx"
    if path.exists():
        return path
    base = DATA / "empty.xlsx"
    openpyxl.Workbook().save(base)
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    with zipfile.ZipFile(base) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            if item.filename != "xl/worksheets/sheet1.xml":
                dst.writestr(item, src.read(item))
        with dst.open("xl/worksheets/sheet1.xml", "w") as f:
            f.write(
                f'<worksheet xmlns="{ns}"><dimension ref="A1:C{rows + 1}"/><sheetData>'.encode()
            )
            f.write(b'<row r="1"><c t="inlineStr"><is><t>id</t></is></c><c t="inlineStr"><is><t>sq</t></is></c>'
                    b'<c t="inlineStr"><is><t>half</t></is></c></row>')  # fmt: skip
            for first in range(2, rows + 2, 100_000):
                f.write("".join(
                    f'<row r="{r}"><c><v>{r - 1}</v></c><c><v>{(r - 1) ** 2}</v></c><c><v>{(r - 1) / 2}</v></c></row>'
                    for r in range(first, min(first + 100_000, rows + 2))
                ).encode())  # fmt: skip
            f.write(b"</sheetData></worksheet>")
    return path


def run(path: Path, kind: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CASE, str(path), kind], capture_output=True, text=True
    )
    if out.returncode:
        return {
            "wall": float("nan"),
            "rss_mb": float("nan"),
            "error": out.stderr.strip().splitlines()[-1:],
        }
    return json.loads(out.stdout)


def best(path: Path, kind: str, repeat: int) -> dict:
    return min((run(path, kind) for _ in range(repeat)), key=lambda r: r["wall"])


def show(label: str, r: dict, floor: dict | None = None) -> None:
    ratio = f"   {r['wall'] / floor['wall']:7.2f}x the floor" if floor else ""
    rows = f"   Rows: {r['rows']}" if r.get("rows") else ""
    err = f"   ERROR {r['error']}" if r.get("error") else ""
    print(
        f"   {label:34s} {r['wall'] * 1000:10.1f} ms   peak RSS {r['rss_mb']:7.1f} MB{ratio}{rows}{err}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-gb", type=float, default=1.0)
    parser.add_argument(
        "--skip-naive", action="store_true", help="skip the full-load peers (slow, GBs of RAM)"
    )
    args = parser.parse_args()

    csv_path, pq_path = make_csv(args.size_gb), make_parquet(args.size_gb)
    print(
        f"1) {csv_path.name} ({csv_path.stat().st_size / 1024**3:.2f} GB), fresh process per case, best of 3"
    )
    floor = best(csv_path, "pandas_head", 3)
    show("floor pandas.read_csv(nrows=50)", floor)
    show('docread rows="head:50"', best(csv_path, "docread:head:50", 3), floor)
    show('docread rows="tail:20"', best(csv_path, "docread:tail:20", 3), floor)
    if not args.skip_naive:
        show("naive pandas.read_csv (whole file)", run(csv_path, "pandas_full_csv"), floor)

    print(
        f"2) {pq_path.name} ({pq_path.stat().st_size / 1024**3:.2f} GB), fresh process per case, best of 3"
    )
    floor = best(pq_path, "arrow_row_group", 3)
    show("floor pyarrow read_row_group(0)", floor)
    show('docread rows="head:50"', best(pq_path, "docread:head:50", 3), floor)
    show('docread rows="tail:20"', best(pq_path, "docread:tail:20", 3), floor)
    if not args.skip_naive:
        show("naive pandas.read_parquet (whole file)", run(pq_path, "pandas_full_parquet"), floor)

    xlsx = make_xlsx()
    print(
        f"3) {xlsx.name} ({xlsx.stat().st_size / 1024**2:.1f} MB, 1,000,000 rows), fresh process per case, best of 3"
    )
    floor = best(xlsx, "openpyxl_head", 3)
    show("floor openpyxl read-only, 50 rows", floor)
    show('docread rows="head:50"', best(xlsx, "docread:head:50", 3), floor)


if __name__ == "__main__":
    main()
