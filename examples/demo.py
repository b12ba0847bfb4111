"""The main job: docread over the sample documents, as an agent and as a RAG loader sees them.

python examples/demo.py            # every sample: the agent view (first lines) + loader units
python examples/demo.py --full     # whole agent views

Each read is printed as the Python call that makes it (paste it to try it yourself). The cache
stays on (``cache:`` in tools-security.yaml or $DOCREAD_CONFIG), so a second run is served from it.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).parent))

import docread  # noqa: E402
from make_samples import make_samples  # noqa: E402

SAMPLES = Path(__file__).parent / "samples"
# a few reads with options, as an agent would ask for them
REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("server.log", {"offset": 100, "limit": 5}),
    ("report.pdf", {"pages": "2-3"}),
    ("sales.xlsx", {"sheet": "Q4_Sales", "rows": "head:3", "columns": "Product,Sales"}),
    ("project.zip", {"mode": "list", "pattern": "*.py"}),
    ("project.zip", {"mode": "read", "archive_path": "data/sales.csv"}),
]


def shown(path: Path) -> str:
    """``path`` as a user types it here: relative to the current directory when inside it."""
    try:
        return os.path.relpath(path) if path.resolve().is_relative_to(Path.cwd()) else str(path)
    except ValueError:  # another drive (Windows)
        return str(path)


def call(function: str, *args: object, **options: object) -> str:
    """The call as valid Python: ``docread.read('examples/samples/report.pdf', pages='2-3')``."""
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in options.items()]
    return f"{function}({', '.join(parts)})"


def show(reader: docread.Reader, name: str, options: dict[str, Any], *, full: bool) -> bool | None:
    """One agent read, printed; True (served from the cache), False (extracted), None (failed)."""
    bar = "=" * 100
    print(f"\n{bar}\n>>> {call('docread.read', shown(SAMPLES / name), **options)}\n{bar}")
    try:
        started = time.perf_counter()
        result = reader.read(name, **options)
        text = result.render()
        took = time.perf_counter() - started
    except docread.ReadDocumentError as exc:
        print(f"[error] {type(exc).__name__}: {exc}")
        return None
    lines = text.split("\n")
    print("\n".join(lines if full else lines[:30]))
    if not full and len(lines) > 30:
        print(f"... ({len(lines) - 30} more lines; --full shows everything)")
    media = ", ".join(f"{m.mime_type} {len(m.data):,} B" for m in result.media)
    print(
        f"-- {took * 1000:.0f} ms{' (cached)' if result.cached else ''}, "
        f"{len(result.documents)} documents" + (f", media: {media}" if media else "")
    )
    return result.cached


def main() -> int:
    full = "--full" in sys.argv
    for problem in make_samples(SAMPLES):
        print(f"[sample skipped] {problem}")
    files = sorted(p.name for p in SAMPLES.iterdir() if p.is_file())
    started = time.perf_counter()
    with docread.Reader(SAMPLES) as reader:  # settings: $DOCREAD_CONFIG, ./tools-security.yaml
        reads = [show(reader, name, {}, full=full) for name in files]
        reads += [show(reader, name, options, full=full) for name, options in REQUESTS]
        agent_s = time.perf_counter() - started

        bar = "=" * 100
        print(f"\n{bar}\n>>> {call('docread.iter_units', shown(SAMPLES))}  # loader mode\n{bar}")
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
    failed = reads.count(None)
    print(
        f"\n{len(files) - reads[: len(files)].count(None)}/{len(files)} sample files read; "
        f"{len(reads)} agent reads in {agent_s:.1f} s, {reads.count(True)} from the cache "
        f"({reader.settings.cache.directory if reader.settings.cache.enabled else 'cache off'}); "
        f"loader errors: {len(errors)}"
    )
    if not reads.count(True):
        print(
            "run the demo again: PDF, office, e-mail, picture and archive reads then come from the cache"
        )
    return 0 if not failed and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
