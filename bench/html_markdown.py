"""HTML benchmark, side by side with the floors in one run: per page, the loader's markdown
(``iter_documents``) against the parse floor (BeautifulSoup ``get_text()``, what any converter
on bs4 pays) and the agent view's numbered source; best of 3, each case in a fresh process
(wall seconds, peak RSS, characters out), cases interleaved.

Pages: the corpus HTML files when ``../shared/corpus`` is there, and a generated dense page.

    python bench/html_markdown.py [--generated-mb 2]
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _harness import (
    CORPUS,  # noqa: E402
    best_of,  # noqa: E402
)

DATA = Path(__file__).parent / "data" / "html"

CASE = r"""
import json, resource, sys, time
path, kind = sys.argv[1], sys.argv[2]
start = time.perf_counter()
if kind == "markdown":
    import docread
    with docread.Reader("/", config={"cache": {"enabled": False}}) as reader:
        text = "\n".join(d.text for d in reader.iter_documents(path))
elif kind == "source":
    import docread
    with docread.Reader("/", config={"cache": {"enabled": False}}) as reader:
        text = reader.read(path, limit=0).render()
else:
    from bs4 import BeautifulSoup
    with open(path, "rb") as f:
        text = BeautifulSoup(f.read().decode("utf-8", "replace"), "html.parser").get_text()
seconds = time.perf_counter() - start
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "rss_mb": rss, "chars": len(text)}))
"""
KINDS = ("floor", "markdown", "source")


def generated(mb: float) -> Path:
    """A dense page: paragraphs with links and bold text, a table every 50 paragraphs."""
    path = DATA / f"dense-{mb:g}mb.html"
    if path.exists():
        return path
    DATA.mkdir(parents=True, exist_ok=True)
    parts, size, n = ["<html><head><title>Dense</title></head><body>"], 0, 0
    while size < mb * 1024 * 1024:
        n += 1
        part = f"<p>Paragraph {n} with <a href='/p{n}'>a link</a> and <b>bold</b> text.</p>"
        if n % 50 == 0:
            part += "<table>" + "<tr><td>a</td><td>b</td><td>c</td></tr>" * 10 + "</table>"
        parts.append(part)
        size += len(part)
    path.write_text("".join(parts) + "</body></html>", encoding="utf-8")
    return path


def pages(mb: float) -> list[Path]:
    found = sorted((CORPUS / "text").glob("*.htm*")) if CORPUS.is_dir() else []
    copies = []
    for page in found:  # read from a folder of our own: the corpus stays untouched
        DATA.mkdir(parents=True, exist_ok=True)
        copies.append(Path(shutil.copy(page, DATA / page.name)))
    return [*copies, generated(mb)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generated-mb", type=float, default=2)
    args = parser.parse_args()
    print(f"{'page':<24}{'case':<10}{'seconds':>9}{'x floor':>9}{'RSS MB':>9}{'chars':>11}")
    for page in pages(args.generated_mb):
        results: dict[str, dict[str, float]] = {}
        for _ in range(3):  # interleaved: one run of each case per round, the best kept
            for kind in KINDS:
                run = best_of("-c", CASE, str(page), kind, runs=1)
                if kind not in results or run["seconds"] < results[kind]["seconds"]:
                    results[kind] = run
        floor = results["floor"]["seconds"]
        for kind in KINDS:
            r = results[kind]
            print(
                f"{page.name[:23]:<24}{kind:<10}{r['seconds']:>9.3f}{r['seconds'] / floor:>9.2f}"
                f"{r['rss_mb']:>9.0f}{r['chars']:>11,}"
            )


if __name__ == "__main__":
    main()
