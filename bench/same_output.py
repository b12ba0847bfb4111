"""Whether two checkouts read every corpus PDF the same, byte for byte: a speed change's check.

For ``pdf.structure`` off and auto, in process: the loader's units (text, metadata, id), the
agent view rendered as text and as markdown, ``view="outline"`` and ``section="s3"``. With
``--loader``, the load path instead: the corpus PDF folder loaded with isolation on, by 1 and by
2 workers (big PDFs split over both), ordered, its units (text, metadata, id; a Media's type and
digest), each file's notes and errors in order. Each tree runs in its own process
(``PYTHONPATH=TREE/core``); the outputs that differ are listed.

    python bench/same_output.py --before /tmp/main_tree [--after .] [--loader]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _harness import CORPUS

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys
import docread
out, files = sys.argv[1], sys.argv[2:]
found = {}
def safely(read):
    try:
        return read()
    except Exception as exc:  # an error is an output too: it must be the same
        return f"ERR {type(exc).__name__}: {exc}"
for mode in ("off", "auto"):
    cfg = {"cache": {"enabled": False}, "isolation": {"enabled": False},
           "timeouts": {"global": 3600}, "pdf": {"structure": mode}}
    reader = docread.Reader("/", config=cfg)
    for f in files:
        found[f"{mode} {f} units"] = safely(lambda: json.dumps(
            [(d.text, d.metadata, d.id) for d in reader.iter_documents(f)], default=str))
        found[f"{mode} {f} text"] = safely(lambda: reader.read(f).render())
        found[f"{mode} {f} markdown"] = safely(
            lambda: reader.read(f, output_format="markdown").render())
        found[f"{mode} {f} outline"] = safely(lambda: reader.read(f, view="outline").render())
        found[f"{mode} {f} s3"] = safely(lambda: reader.read(f, section="s3").render())
with open(out, "w") as fh:
    json.dump(found, fh)
"""

LOADER = r"""
import hashlib, json, sys
import docread
out, folder = sys.argv[1], sys.argv[2]
found = {}
for mode in ("off", "auto"):
    cfg = {"cache": {"enabled": False}, "timeouts": {"global": 3600}, "pdf": {"structure": mode}}
    for workers in (1, 2):
        said = []
        def unit(u):
            if isinstance(u, docread.Document):
                return ("doc", u.text, u.metadata, u.id)
            return ("media", u.mime_type, hashlib.sha256(u.data).hexdigest(), u.metadata, u.id)
        with docread.Reader("/", config=cfg) as reader:
            units = [unit(u) for u in reader.iter_units(
                folder, workers=workers,
                on_error=lambda p, e: said.append(("error", p, type(e).__name__, str(e))),
                on_note=lambda p, n: said.append(("note", p, n)))]
        for u in units:  # one output a file: a difference names it
            found.setdefault(f"{mode} workers={workers} {u[-2]['source']}", []).append(u)
        found[f"{mode} workers={workers} notes and errors"] = said
with open(out, "w") as fh:
    json.dump(found, fh, default=str)
"""


def outputs(tree: Path, args: list[str], folder: Path, *, loader: bool) -> dict[str, str]:
    """What ``tree``'s docread gives for ``args`` (the files, or with ``loader`` the folder)."""
    out = folder / f"{abs(hash(str(tree)))}.json"
    env = {**os.environ, "PYTHONPATH": str(tree / "core")}
    child = LOADER if loader else CHILD
    subprocess.run([sys.executable, "-c", child, str(out), *args], env=env, check=True)
    found: dict[str, str] = json.loads(out.read_text())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", type=Path, required=True, help="a checkout (its core/)")
    parser.add_argument("--after", type=Path, default=ROOT, help="a checkout (default: this one)")
    parser.add_argument(
        "--loader", action="store_true", help="the folder loaded through the workers instead"
    )
    args = parser.parse_args()
    files = [str(p) for p in sorted((CORPUS / "pdf").glob("*.pdf"))]
    if not files:  # else "0 differ" would pass having compared nothing
        sys.exit(f"no PDF under {CORPUS / 'pdf'}: set DOCREAD_CORPUS to the shared corpus")
    given = [str(CORPUS / "pdf")] if args.loader else files
    with tempfile.TemporaryDirectory(prefix="docread-same-") as name:
        before = outputs(args.before.resolve(), given, Path(name), loader=args.loader)
        after = outputs(args.after.resolve(), given, Path(name), loader=args.loader)
    differ = sorted(
        key for key in before.keys() | after.keys() if before.get(key) != after.get(key)
    )
    print(f"{len(files)} corpus PDFs, {len(before)} outputs a tree: {len(differ)} differ")
    for key in differ:
        print(f"  differs: {key}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
