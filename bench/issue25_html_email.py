"""Issue 25 (HTML and e-mail) benchmark: a 9 MB HTML table and 100k-deep inline nesting read by a
loader, an .eml with a large attachment (agent view and loader), and the agent view of a 100,000
message mbox; each case in a fresh process with isolation off, so its peak RSS is what a worker
holds (wall seconds, peak RSS MB: VmHWM), run against two source trees side by side, interleaved, the
median of ``--runs``. The floor is reading the file's bytes and decoding them once.

    python bench/issue25_html_email.py --before /tmp/old/core --after core [--runs 3]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data" / "issue25"

CASE = r"""
import json, sys, time
path, kind = sys.argv[1], sys.argv[2]
start = time.perf_counter()
if kind == "floor":
    with open(path, "rb") as f:
        chars = len(f.read().decode("utf-8", "replace"))
else:
    import docread
    config = {"cache": {"enabled": False}, "isolation": {"enabled": False},
              "timeouts": {"global": 600}}
    with docread.Reader("/", config=config) as reader:
        if kind == "loader":
            docs = list(reader.iter_documents(path))
            chars = sum(len(d.text) for d in docs)
        else:
            chars = len(reader.read(path).render())
seconds = time.perf_counter() - start
with open("/proc/self/status") as f:  # VmHWM: ru_maxrss would carry the bench's own over exec
    rss = next(int(line.split()[1]) for line in f if line.startswith("VmHWM")) / 1024
print(json.dumps({"seconds": seconds, "rss_mb": rss, "chars": chars}))
"""


def table(rows: int) -> Path:
    path = DATA / f"table-{rows}.html"
    if not path.exists():
        body = "".join(
            f"<tr><td>{i}</td><td>name {i}</td><td>{i * 7 % 1000}</td></tr>" for i in range(rows)
        )
        path.write_text(f"<html><body><table>{body}</table><p>END</p></body></html>")
    return path


def deep(depth: int) -> Path:
    path = DATA / f"deep-{depth}.html"
    if not path.exists():
        path.write_text("<p>" + "<b><i>" * (depth // 2) + "bottom" + "</i></b>" * (depth // 2))
    return path


def eml(mb: int) -> Path:
    path = DATA / f"attach-{mb}mb.eml"
    if not path.exists():
        data = base64.encodebytes(os.urandom(mb << 20))
        path.write_bytes(
            b"From: a@example.com\nTo: b@example.com\nSubject: big attachment\nMIME-Version: 1.0\n"
            b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\n'
            b"The body always reads.\n--b\nContent-Type: application/octet-stream\n"
            b'Content-Disposition: attachment; filename="blob.bin"\n'
            b"Content-Transfer-Encoding: base64\n\n" + data + b"--b--\n"
        )
    return path


def mbox(messages: int) -> Path:
    path = DATA / f"box-{messages}.mbox"
    if not path.exists():
        with path.open("wb") as f:
            for i in range(1, messages + 1):
                f.write(
                    b"From a@example.com Tue Mar  3 14:15:00 2026\nFrom: a@example.com\n"
                    b"Subject: Message %d\n\nbody of message %d\n\n" % (i, i)
                )
    return path


def run(tree: str, path: Path, kind: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": tree}
    out = subprocess.run(
        [sys.executable, "-c", CASE, str(path), kind], capture_output=True, text=True, env=env
    )
    if out.returncode:
        return {"seconds": float("nan"), "rss_mb": float("nan"), "chars": -1}
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the core folder of the tree before")
    parser.add_argument("--after", required=True, help="the core folder of the tree after")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--eml-mb", type=int, default=88)
    parser.add_argument("--only", default="", help="comma-separated case names")
    args = parser.parse_args()
    DATA.mkdir(parents=True, exist_ok=True)
    cases = {
        "table-150k": (table(150_000), "loader"),
        "deep-100k": (deep(100_000), "loader"),
        f"eml-{args.eml_mb}mb-view": (eml(args.eml_mb), "view"),
        f"eml-{args.eml_mb}mb-loader": (eml(args.eml_mb), "loader"),
        "mbox-100k-view": (mbox(100_000), "view"),
    }
    only = set(filter(None, args.only.split(",")))
    print(f"{'case':<22}{'tree':<8}{'seconds':>9}{'RSS MB':>9}{'chars':>12}")
    for name, (path, kind) in cases.items():
        if only and name not in only:
            continue
        trees = {"floor": (args.after, "floor"), "before": (args.before, kind),
                 "after": (args.after, kind)}  # fmt: skip
        results: dict[str, list[dict[str, float]]] = {t: [] for t in trees}
        for _ in range(args.runs):  # interleaved
            for label, (tree, case) in trees.items():
                results[label].append(run(tree, path, case))
        for label, runs in results.items():
            seconds = statistics.median(r["seconds"] for r in runs)
            rss = statistics.median(r["rss_mb"] for r in runs)
            print(f"{name:<22}{label:<8}{seconds:>9.2f}{rss:>9.0f}{int(runs[-1]['chars']):>12,}")


if __name__ == "__main__":
    main()
