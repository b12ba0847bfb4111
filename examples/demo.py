"""The main job: docread over the sample documents, as an agent and as a RAG loader sees them.

python examples/demo.py            # every sample: the agent view (first lines) + loader units
python examples/demo.py --full     # whole agent views
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).parent))

import docread  # noqa: E402
from make_samples import make_samples  # noqa: E402

SAMPLES = Path(__file__).parent / "samples"
# a few reads with options, as an agent would ask for them
REQUESTS = [
    ("server.log", {"offset": 100, "limit": 5}),
    ("report.pdf", {"pages": "2-3"}),
    ("sales.xlsx", {"sheet": "Q4_Sales", "rows": "head:3", "columns": "Product,Sales"}),
    ("project.zip", {"mode": "list", "pattern": "*.py"}),
    ("project.zip", {"mode": "read", "archive_path": "data/sales.csv"}),
]


def show(reader: docread.Reader, name: str, options: dict, *, full: bool) -> bool:
    label = f"{name} {options}" if options else name
    print(f"\n{'=' * 100}\n>>> docread.read({label!r})\n{'=' * 100}")
    try:
        started = time.perf_counter()
        result = reader.read(name, **options)
        text = result.render()
        took = time.perf_counter() - started
    except docread.ReadDocumentError as exc:
        print(f"[error] {type(exc).__name__}: {exc}")
        return False
    lines = text.split("\n")
    print("\n".join(lines if full else lines[:30]))
    if not full and len(lines) > 30:
        print(f"... ({len(lines) - 30} more lines; --full shows everything)")
    media = ", ".join(f"{m.mime_type} {len(m.data):,} B" for m in result.media)
    print(
        f"-- {took * 1000:.0f} ms, {len(result.documents)} documents"
        + (f", media: {media}" if media else "")
    )
    return True


def main() -> int:
    full = "--full" in sys.argv
    for problem in make_samples(SAMPLES):
        print(f"[sample skipped] {problem}")
    files = sorted(p.name for p in SAMPLES.iterdir() if p.is_file())
    ok = 0
    with docread.Reader(SAMPLES, config={"cache": {"enabled": False}}) as reader:
        for name in files:
            ok += show(reader, name, {}, full=full)
        for name, options in REQUESTS:
            show(reader, name, options, full=full)

        print(
            f"\n{'=' * 100}\n>>> loader mode: docread.iter_units over the whole folder\n{'=' * 100}"
        )
        errors: list[str] = []
        kinds: Counter[str] = Counter()
        for path in tqdm(list(reader.walk(".")), desc="loading", unit="file"):
            try:
                for unit in reader.iter_units(path):
                    kinds[f"{unit.metadata.get('format')}:{type(unit).__name__}"] += 1
            except docread.ReadDocumentError as exc:
                errors.append(f"{path}: {type(exc).__name__}: {exc}")
        for kind, n in sorted(kinds.items()):
            print(f"  {kind:<28} {n:>5}")
        for err in errors:
            print(f"  [error] {err}")
    print(f"\n{ok}/{len(files)} sample files read; loader errors: {len(errors)}")
    return 0 if ok == len(files) and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
