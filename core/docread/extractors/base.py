"""The extractor interface, the Context every extractor gets, and the registry.

An extractor is one class with one sync method, ``extract(source, ctx)``, yielding Documents and
Media as it goes (so loaders stream). Selection (pages, rows, sheet, member) is pushed down into
it; the Context carries settings, the file's facts, the options, a shared limits budget, ``warn``,
header facts for the agent view, ``extract_child`` for archive members, and the OCR cache.
"""

from __future__ import annotations

import importlib
import math
import threading
from collections.abc import Callable, Iterator
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from ..errors import DependencyMissingError
from ..model import FileInfo, Unit, dataclass
from .deadline import Deadline

if TYPE_CHECKING:
    from ..request.options import ReadOptions
    from ..settings import Settings
    from ..source import Source


#: Header keys the agent view reads and never prints: what the extractor's window shows ("lines
#: 1-2,000 of 5,000") and the option that reads on from it ("offset=2001"). See ``Context.read_on``.
WINDOW_SHOWN, WINDOW_NEXT = "_window", "_next"
#: The line an extractor that stopped early for the output budget ends its text with.
TEXT_CUT = "[cut: the file's output budget is spent (output.max_text_ratio)]"


class OcrStore(Protocol):
    """Where OCR readings are kept between reads (``cache/ocr.py``'s store, handed to the
    extractors in the Context: the cache package stands above them)."""

    def get(self, key: str) -> str | None: ...

    def put(self, key: str, value: str) -> None: ...

    def stamp(self, source: Source) -> str | None:
        """The file's content stamp (what the result cache keys it by), None when it has none:
        a scanned page's reading is then found before the page is rendered."""
        ...


class Extractor:
    """Base of every extractor: set the class facts, implement ``extract``.

    Extractors only yield units; how a unit looks in the agent view is ``views.sections``'.
    ``streaming`` extractors read only the window asked for, so the category's size limit does
    not apply to them before parsing.
    """

    name: ClassVar[str] = "base"
    version: ClassVar[int] = 1
    cacheable: ClassVar[bool] = False
    isolated: ClassVar[bool] = False
    streaming: ClassVar[bool] = False
    #: The content options it honours (``ReadOptions.given``); any other one given is said.
    options: ClassVar[frozenset[str]] = frozenset()

    def extract(self, source: Source, ctx: Context) -> Iterator[Unit]:
        raise NotImplementedError

    @classmethod
    def ignored(cls, ctx: Context) -> list[str]:
        """The options given that this read does not honour."""
        return [name for name in ctx.options.given() if name not in cls.options]

    @classmethod
    def note_ignored(cls, ctx: Context) -> None:
        """One note naming the options that do not apply and the ones that do."""
        given = ctx.options.given()
        ignored = [f"{name}={given[name]!r}" for name in cls.ignored(ctx)]
        if not ignored:
            return
        takes = ", ".join(sorted(cls.options)) or "no selection options"
        kind = "directories" if ctx.info.is_dir else f"{ctx.info.format} files"
        one = len(ignored) == 1
        ctx.warn(
            f"{', '.join(ignored)} {'does' if one else 'do'} not apply to {kind} and "
            f"{'was' if one else 'were'} ignored ({kind} take {takes})."
        )


@dataclass(slots=True)
class Budget:
    """Limits shared by a file and everything nested in it (archive members, OCR pages), and its
    output budget: the characters of text it may give (``Pipeline.context`` grants them by the
    bytes read, ``Pipeline.units`` spends them as units pass)."""

    decompressed_bytes: int = 0
    members: int = 0
    ocr_pages: int = 0
    text_allowed: float = math.inf
    text_out: int = 0


@dataclass(slots=True)
class Context:
    """Everything an extractor may use besides the bytes: settings, facts, options, budget."""

    settings: Settings
    info: FileInfo
    options: ReadOptions
    loader: bool = False  # True for iter_documents (every unit), False for the agent view window
    workspace: Path | None = None
    budget: Budget = field(default_factory=Budget)
    depth: int = 0
    deadline: float = 0.0  # the read's end, a time.monotonic() value (what a worker is sent)
    header: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    child_reader: Callable[[Context, bytes, str, ReadOptions | None], Iterator[Unit]] | None = None
    ocr_cache: OcrStore | None = None  # one OCR per picture (None: cache.enabled is off)
    timer: Deadline = field(init=False, repr=False, compare=False)  # ``deadline`` as a Deadline

    def __post_init__(self) -> None:
        self.timer = Deadline(
            self.info.source,
            self.settings.global_timeout,
            "global_timeout",
            advice="the global timeout bounds the whole read: read a smaller window "
            "(pages, rows, offset/limit)",
            end=self.deadline or math.inf,
        )

    def warn(self, message: str) -> None:
        """A warning the caller sees (result.notes); partial success is said, never hidden."""
        if message not in self.notes:
            self.notes.append(message)

    def set_header(self, label: str, value: object) -> None:
        self.header[label] = str(value)

    def read_on(self, shown: str, option: str) -> None:
        """The window ends before the file does: what it shows ("rows 1-50 of 1,234") and the
        option that reads the next one ("rows=51-100"). The view says it once, or, when an output
        cap cut the window first, names the first unit it did not show instead."""
        self.header[WINDOW_SHOWN] = shown
        self.header[WINDOW_NEXT] = option

    def text_left(self) -> float:
        """Characters of text this read may still give (``output.max_text_ratio``): an
        extractor that makes its text bit by bit (rows, blocks, chapters) stops once it holds
        more than this and ends its last unit with ``out_of_text()``. The pipeline cuts every
        unit at the budget itself, so an extractor that does not look costs time, never output."""
        return self.budget.text_allowed - self.budget.text_out

    def out_of_text(self) -> str:
        """The read's output budget is spent: the note (once), and the line an extractor ends
        its text with where it stopped (the pipeline marks that unit ``truncated``)."""
        out, size, allowed = self.settings.output, self.info.size, self.budget.text_allowed
        shown = f"{int(allowed):,}" if math.isfinite(allowed) else "unlimited"
        self.warn(
            f"{self.info.source}: its text reached its output budget of "
            f"{shown} characters (output.max_text_ratio="
            f"{out.max_text_ratio:g} per byte of the {size:,} bytes read, and of the members or "
            f"attachments read from it; at least output.min_text_budget={out.min_text_budget:,}):"
            " the unit there was cut (metadata truncated) and the rest was not read"
        )
        return TEXT_CUT

    def check_deadline(self, what: str = "") -> None:
        """Cooperative global timeout between units (isolated workers are also killed hard)."""
        self.timer.check(what)

    def time_limit(
        self, limit: float, setting: str, *, task: str = "reading", advice: str = ""
    ) -> Deadline:
        """A limit on one step of reading this file, checked together with the global one."""
        return Deadline(
            self.info.source, limit, setting, task=task, advice=advice, outer=self.timer
        )

    def extract_child(
        self, data: bytes, name: str, options: ReadOptions | None = None
    ) -> Iterator[Unit]:
        """Read nested content (an archive member) through the whole pipeline, depth + 1."""
        if self.child_reader is None:
            raise RuntimeError("extract_child is only available inside a Reader")
        return self.child_reader(self, data, name, options)


_registry: dict[str, Any] = {}
_registry_lock = threading.Lock()


def load_object(dotted: str) -> Any:
    """Import ``module:name`` on first use (heavy imports stay out of ``import docread``)."""
    obj = _registry.get(dotted)
    if obj is None:
        with _registry_lock:
            module_name, _, attr = dotted.partition(":")
            try:
                obj = getattr(importlib.import_module(module_name), attr)
            except ImportError as exc:
                raise DependencyMissingError(
                    f"{dotted} cannot be loaded ({exc}); reinstall docread with its "
                    f"dependencies: pip install 'docread[all]'"
                ) from exc
            _registry[dotted] = obj
    return obj


def extractor_class(dotted: str) -> type[Extractor]:
    """The extractor class named ``module:Class`` in the format table."""
    cls: type[Extractor] = load_object(dotted)
    return cls
