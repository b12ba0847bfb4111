"""``docread load PATH...``: loader mode for any pipeline.

Every Document goes out as one JSON line (``id``, ``text``, ``metadata``) as soon as it is read,
so memory stays flat however many files there are. Media parts (images, page renders) are written
under ``--media-dir`` as ``<sha256>.<ext>`` and their JSON line names the file in
``metadata.media_path``. A file that fails is one JSON line on stderr (``path``, ``error``,
``message``) and the run goes on; the exit status is 1 when any file failed.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from .. import (
    Document,
    InvalidOptionError,
    Media,
    ReadDocumentError,
    Reader,
    Settings,
    SettingsError,
    Unit,
)
from ..integrations.adapters import (
    Chunker,
    describe_media,
    loader_workspace,
    log_handled,
    make_folders,
    store_media,
)
from .common import HelpFormatter, Parser, add_workspace_options, fail

_EPILOG = """\
output:
  stdout (or --jsonl FILE): one JSON object per Document: {"id", "text", "metadata"}
  a Media part's line has metadata.mime_type, and metadata.media_path with --media-dir
  stderr: one JSON object per file that failed: {"path", "error", "message"},
          and per note on a file read (a skipped archive member, ...): {"path", "note"}

examples:
  docread load docs/ > docs.jsonl
  docread load docs/ --pattern '**/*.pdf' --jsonl docs.jsonl --media-dir media/
  docread load a.pdf b.docx notes/ --workers 4 | jq -r .text
  docread load docs/ --chunk-size 800 --chunk-overlap 100 > chunks.jsonl

exit status: 0 every file was read, 1 some failed (the count is on stderr), 2 bad arguments"""


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="docread load",
        description="Read files and folders in loader mode: every Document as one JSON line, "
        "streamed; media parts written to files named by their digest.",
        epilog=_EPILOG,
        formatter_class=HelpFormatter,
        allow_abbrev=False,
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders (in the workspace)")
    p.add_argument(
        "--pattern",
        help="glob for the files in folders, e.g. '**/*.pdf'; on a named archive, its members "
        "(default: every file)",
    )
    p.add_argument(
        "--workers",
        type=_whole,
        help="files read at once, isolated formats each in a worker; 0 = one per CPU "
        "(default: isolation.workers of the settings, itself 0 by default)",
    )
    p.add_argument("--jsonl", default="-", metavar="FILE", help="where the lines go, - for stdout")
    p.add_argument(
        "--media-dir",
        metavar="DIR",
        help="write media parts here as <sha256>.<ext> (default: none written, their lines "
        "carry no media_path)",
    )
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar on stderr (default: a bar when stderr is a terminal)",
    )
    p.add_argument(
        "--chunk-size",
        type=_whole,
        help="write chunks of at most N characters instead of units (default: units)",
    )
    p.add_argument(
        "--chunk-overlap",
        type=_whole,
        default=0,
        help="characters repeated between chunks, at most half of --chunk-size (default: 0)",
    )
    p.add_argument(
        "--no-sections",
        action="store_true",
        help="chunk each unit alone (default: chunks follow sections across pages)",
    )
    add_workspace_options(
        p, "the cwd, or / when a PATH lies outside it: the Python loaders' rule, a path you "
        "name is read"
    )  # fmt: skip
    return p


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = Settings.load(args.config)
        if args.workers is not None:
            isolation = dataclasses.replace(settings.isolation, workers=args.workers)
            settings = dataclasses.replace(settings, isolation=isolation)
        chunker = _chunker(args)
        root, paths = loader_workspace(args.paths, args.workspace)  # as every loader
        reader = Reader(root, settings)
    except (InvalidOptionError, SettingsError) as exc:
        return fail(exc, 2)
    except ReadDocumentError as exc:  # the workspace does not exist
        return fail(exc, 2)
    media_dir = make_folders(args.media_dir) if args.media_dir else None
    show = not args.no_progress and sys.stderr.isatty()
    with reader, _output(args.jsonl) as out:
        run = _Run(reader, out, media_dir, show)
        units: Iterable[Unit] = reader.iter_units(
            paths, pattern=args.pattern, on_error=run.error, on_note=run.note,
            show_progress=show, progress_label="docread load",
        )  # fmt: skip
        if chunker is not None:
            units = chunker.chunks(units)
        try:
            for unit in units:
                run.write(unit)
        except BrokenPipeError:  # `docread load ... | head`: the reader went away
            with contextlib.suppress(OSError):
                sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - no flush error at exit
            return 0
    if run.failed:
        return fail(f"{run.failed} of {run.files} file(s) failed", 1)
    return 0


class _Run:
    """One load: writes the lines, counts the files from the units and the failures (an empty
    file, which gives neither, is not counted); the core's progress bar shows the files."""

    def __init__(self, reader: Reader, out: IO[str], media_dir: Path | None, show: bool) -> None:
        self.reader, self.out, self.media_dir, self.show = reader, out, media_dir, show
        self.files = self.failed = 0
        self._current: str | None = None  # the file whose units are coming out, as shown

    def write(self, unit: Unit) -> None:
        """One unit's JSON line, flushed: the next stage of a pipe gets each line as it is read."""
        shown = _loaded_file(unit)
        if shown != self._current:
            self._current = shown
            self.files += 1
        self.out.write(json.dumps(self._line(unit), ensure_ascii=False, default=str))
        self.out.write("\n")
        self.out.flush()

    def error(self, path: str, exc: ReadDocumentError) -> None:
        log_handled(exc)  # handled here: logged once, and said on stderr as a JSON line
        self.failed += 1
        if self._shown(path) != self._current:  # one that failed midway was counted by its units
            self.files += 1
        self._stderr({"path": path, "error": type(exc).__name__, "message": str(exc)})

    def note(self, path: str, note: str) -> None:
        self._stderr({"path": path, "note": note})

    def _shown(self, path: str) -> str:
        """A path as given (``./a.pdf``) as its units' ``source`` shows it (``a.pdf``)."""
        try:
            return self.reader.workspace.shown(path)
        except ReadDocumentError:  # outside the workspace: it gave no unit
            return path

    def _stderr(self, record: dict[str, str]) -> None:
        line = json.dumps(record, ensure_ascii=False)
        if self.show:  # above the core's progress bar, which is drawn again below it
            from tqdm.auto import tqdm

            tqdm.write(line, file=sys.stderr)
        else:
            print(line, file=sys.stderr, flush=True)

    def _line(self, unit: Unit) -> dict[str, Any]:
        if isinstance(unit, Document):
            return {"id": unit.id, "text": unit.text, "metadata": dict(unit.metadata)}
        assert isinstance(unit, Media)
        meta: dict[str, Any] = {**unit.metadata, "mime_type": unit.mime_type}
        if self.media_dir is not None:
            meta["media_path"] = str(store_media(unit, self.media_dir))
        return {"id": unit.id, "text": describe_media(unit), "metadata": meta}


@contextlib.contextmanager
def _output(name: str) -> Iterator[IO[str]]:
    if name == "-":
        yield sys.stdout
        return
    with open(name, "w", encoding="utf-8") as f:
        yield f


def _loaded_file(unit: Unit) -> str:
    """The ``source`` of the file of a load a unit comes from: an archive member's or an
    attachment's units carry ``depth`` and ``archive``, their parent's source (``a.zip`` for a
    member, ``a.zip::inner.zip`` one level deeper)."""
    meta = unit.metadata
    depth = meta.get("depth")
    if isinstance(depth, int) and depth > 0 and isinstance(meta.get("archive"), str):
        return str(meta["archive"]).rsplit("::", depth - 1)[0]
    return str(meta.get("source"))


def _chunker(args: argparse.Namespace) -> Chunker | None:
    """The chunker ``--chunk-size`` / ``--chunk-overlap`` / ``--no-sections`` ask for."""
    if args.chunk_size is None:
        if args.chunk_overlap:
            raise InvalidOptionError("--chunk-overlap needs --chunk-size (the length to overlap)")
        return None
    return Chunker(args.chunk_size, args.chunk_overlap, sections=not args.no_sections)


def _whole(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return number
