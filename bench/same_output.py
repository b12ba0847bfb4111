"""Whether two checkouts read every corpus PDF the same, byte for byte: a speed change's check.

For ``pdf.structure`` off and auto, in process: the loader's units (text, metadata, id), the
agent view rendered as text and as markdown, ``view="outline"`` and ``section="s3"``. Each tree
runs in its own process (``PYTHONPATH=TREE/core``); the files whose outputs differ are listed.

    python bench/same_output.py --before /tmp/main_tree [--after .]
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


def outputs(tree: Path, files: list[str], folder: Path) -> dict[str, str]:
    """What ``tree``'s docread gives for ``files``."""
    out = folder / f"{abs(hash(str(tree)))}.json"
    env = {**os.environ, "PYTHONPATH": str(tree / "core")}
    subprocess.run([sys.executable, "-c", CHILD, str(out), *files], env=env, check=True)
    found: dict[str, str] = json.loads(out.read_text())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", type=Path, required=True, help="a checkout (its core/)")
    parser.add_argument("--after", type=Path, default=ROOT, help="a checkout (default: this one)")
    args = parser.parse_args()
    files = [str(p) for p in sorted((CORPUS / "pdf").glob("*.pdf"))]
    with tempfile.TemporaryDirectory(prefix="docread-same-") as name:
        before = outputs(args.before.resolve(), files, Path(name))
        after = outputs(args.after.resolve(), files, Path(name))
    differ = sorted(
        key for key in before.keys() | after.keys() if before.get(key) != after.get(key)
    )
    print(f"{len(files)} corpus PDFs, {len(before)} outputs a tree: {len(differ)} differ")
    for key in differ:
        print(f"  differs: {key}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
