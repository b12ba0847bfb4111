"""The units docread produces (Document, Media), the facts about a file, and a read's result;
``dataclass``, the core's dataclass decorator (methods generated on first use)."""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import itertools
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

T = TypeVar("T")
_LAZY = {"frozen", "slots", "kw_only"}  # the parameters lazy_dataclass defers; any other: eager
_GENERATED = ("__init__", "__repr__", "__eq__")  # and a frozen class's __setattr__, __delattr__
_UNSET = ("ClassVar", "InitVar", "KW_ONLY")  # annotations that are not plain fields: eager
_pending: dict[type, Callable[[], None]] = {}  # a class -> generates its methods
_generating = threading.RLock()


def lazy_dataclass(cls: type[T] | None = None, /, **params: bool) -> Any:
    """``dataclasses.dataclass`` with ``slots=True``, its methods generated on the class's first
    use: Python compiles each generated method from source (some 4 million instructions a
    class), and a worker's first PDF unit uses a few of the 50 classes the template imports
    (issue 35). The class is the slotted class at once (identity, pickling, ``isinstance``);
    ``__init__``, ``__repr__``, ``__eq__``, a frozen class's ``__setattr__`` and ``__hash__``,
    and ``dataclasses.fields``/``replace``/``is_dataclass`` generate them first. A pickled
    frozen instance loads without them (its state by field, as ``dataclasses`` pickles it). Any
    other case (no slots, a base class, ClassVar/InitVar/KW_ONLY fields, other parameters) is
    ``dataclasses.dataclass`` itself."""

    def wrap(cls: type[T]) -> type[T]:
        names = tuple(cls.__dict__.get("__annotations__", {}))
        notes = map(str, cls.__dict__.get("__annotations__", {}).values())
        if (
            not params.get("slots") or set(params) - _LAZY or cls.__bases__ != (object,)
            or any(mark in note for note in notes for mark in _UNSET)
        ):  # fmt: skip
            made: type[T] = dataclasses.dataclass(cls, **params)
            return made
        return _slotted(cls, names, params)

    return wrap if cls is None else wrap(cls)


def _slotted(cls: type[T], names: tuple[str, ...], params: dict[str, bool]) -> type[T]:
    """``cls`` made slotted as ``dataclasses`` makes it, with stand-ins that generate the methods
    (on ``cls``, then copied: the functions ``dataclass(slots=True)`` copies)."""
    skip = {*names, "__dict__", "__weakref__"}
    own = {k: v for k, v in cls.__dict__.items() if k not in skip}
    meta: Any = type(cls)  # the class's metaclass, as dataclasses rebuilds it
    slotted: type[T] = meta(cls.__name__, cls.__bases__, {**own, "__slots__": names})
    slotted.__qualname__ = cls.__qualname__
    frozen = params.get("frozen", False)
    hashed = own.get("__hash__") is not None or "__hash__" in own and "__eq__" not in own

    def generate() -> None:
        dataclasses.dataclass(cls, **{**params, "slots": False})
        for name, value in cls.__dict__.items():
            if name not in skip and (name not in own or own[name] is not value):
                setattr(slotted, name, value)  # generated or set by dataclass

    def standin(name: str) -> Callable[..., Any]:
        def first_use(self: object, *args: Any, **kwargs: Any) -> Any:
            _generate(slotted)
            return getattr(slotted, name)(self, *args, **kwargs)

        return first_use

    frozen_only = ("__setattr__", "__delattr__", *(() if hashed else ("__hash__",)))
    for name in (*_GENERATED, *(frozen_only if frozen else ())):
        if own.get(name) is None:
            setattr(slotted, name, standin(name))
    if not frozen and not hashed:
        slotted.__hash__ = None  # type: ignore[assignment]  # as dataclass: eq, not frozen
    for name in ("__dataclass_fields__", "__dataclass_params__", "__match_args__"):
        if name not in own:
            setattr(slotted, name, _Generating(slotted, name))
    if frozen:  # as dataclasses pickles a frozen slotted class: its fields' values in order

        def getstate(self: object) -> list[Any]:
            return [getattr(self, n) for n in names]

        def setstate(self: object, state: list[Any]) -> None:
            for n, v in zip(names, state, strict=False):  # as dataclasses: no check
                object.__setattr__(self, n, v)

        slotted.__getstate__ = getstate  # type: ignore[method-assign]
        slotted.__setstate__ = setstate  # type: ignore[attr-defined]
    _pending[slotted] = generate
    return slotted


def generate_all() -> None:
    """Generate every lazy_dataclass's methods now: the template, idle after its first fork, so
    its later workers inherit them instead of each generating what its first unit uses."""
    for cls in list(_pending):
        _generate(cls)


def _generate(cls: type) -> None:
    """Generate a lazy_dataclass's methods, once (any thread; a failure again at each use)."""
    with _generating:
        generate = _pending.get(cls)
        if generate is not None:
            generate()
            del _pending[cls]


class _Generating:
    """A class attribute that generates its class's methods when it is read."""

    def __init__(self, cls: type, name: str) -> None:
        self.cls, self.name = cls, name

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        _generate(self.cls)
        return self.cls.__dict__[self.name]


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass  # what mypy checks the classes against
else:
    dataclass = lazy_dataclass


def stable_id(*parts: object, content: bytes) -> str:
    """A UUID from where something is (``parts``) and a hash of what it holds: the one rule for
    unit ids (``pipeline``) and chunk ids (``rag.chunking``)."""
    h = hashlib.sha256("".join(f"{p}\0" for p in parts).encode())
    h.update(hashlib.sha256(content).digest())
    x = h.hexdigest()  # a UUID's text form, as str(uuid.UUID(x[:32])) (not importing uuid: 5 ms)
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:32]}"


# THE position keys: where a unit is in its file. A unit's id hashes them (pipeline), the metadata
# caps never cut or drop them (sanitize), a file's first unit has all the numbered ones at 1
# (properties: the header goes there), and the flow keys are those along which one file's text
# runs on, the next page, section or line window (a chunk's section runs on over them).
FLOW_KEYS = ("page_number", "section_index", "line_start")
FIRST_AT_ONE = (
    "page_number", "slide_number", "chapter", "section_index", "sheet_index", "row_start",
)  # fmt: skip
POSITION_KEYS = (
    "member", "sheet", "table", *FIRST_AT_ONE, "cell_index", "line_start", "table_index",
    "image_index", "message_index",
)  # fmt: skip


def unit_position(meta: Mapping[str, Any], *, flow: bool = True) -> str:
    """Where a unit is in its file (page, sheet, slide, member, cell, lines... as JSON): what its
    id hashes, and how a picture finds the text read at the same place. ``flow=False`` leaves
    the flow keys out: the place a file's text runs on in (a sheet, a slide; "{}" for a PDF)."""
    keys = POSITION_KEYS if flow else _PLACE_KEYS
    found = {k: meta[k] for k in keys if k in meta}
    if all(type(v) is int for v in found.values()):  # a page, slide, cell...: once a unit
        return "{" + ", ".join(f'"{k}": {found[k]}' for k in sorted(found)) + "}"  # json's text
    import json  # a member's or sheet's name: not on the cold start's path (a page)

    return json.dumps(found, sort_keys=True, default=str)


_PLACE_KEYS = tuple(k for k in POSITION_KEYS if k not in FLOW_KEYS)


@dataclass(frozen=True, slots=True, kw_only=True)
class FileInfo:
    """What detection found out about a file, once, before any parsing."""

    path: str
    name: str
    format: str
    category: str
    mime_type: str
    size: int
    modified: str  # ISO 8601
    source: str = ""  # the path as the workspace shows it (relative to its root; Workspace.shown)
    encoding: str | None = None
    is_dir: bool = False
    # the format the file's extension names when the content proves another (a text or PNG
    # saved as .pdf): the file is read as what it is, and this says so (metadata format_mismatch)
    extension_format: str | None = None


@dataclass(frozen=True, slots=True)
class Document:
    """A unit of text with flat metadata (page, rows, cell, member, ...)."""

    text: str
    metadata: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""


@dataclass(frozen=True, slots=True)
class Media:
    """Bytes for a vision model or a native PDF reader: image/* or application/pdf."""

    mime_type: str
    data: bytes
    metadata: Mapping[str, Any] = field(default_factory=dict)
    id: str = ""


Unit = Document | Media
OutputFormat = Literal["text", "markdown", "json"]


class Switch:
    """A process-wide setting held at a value while any thread is inside ``held()``: the first
    thread in saves it, the last one out puts it back, so threads reading at once neither undo
    each other's hold nor leave the setting changed (two calls, "look" then "set", per thread
    would). Threads may hold either value, never both at once: they queue in arrival order and
    enter together while the queue's head asks for the held value, so a thread asking for the
    other one waits for the holders and is not starved by newcomers, and those behind it that
    ask for its value go in with it. Each entry sets the value again if something changed it
    meanwhile (a library's import)."""

    def __init__(self, read: Callable[[], bool], write: Callable[[bool], object], value: bool) -> None:
        self._read, self._write, self._value = read, write, value
        self._turn = threading.Condition(threading.Lock())
        self._inside = 0
        self._at = value  # the value the threads inside hold
        self._saved = value
        self._depth: dict[int, int] = {}  # a thread inside -> its holds (re-entered)
        self._queue: list[tuple[int, bool]] = []  # waiting threads' (ticket, value), in order
        self._tickets = itertools.count()

    def waiting(self, value: bool) -> int:
        """How many threads wait to hold ``value``."""
        with self._turn:
            return sum(v == value for _, v in self._queue)

    @contextlib.contextmanager
    def held(self, value: bool | None = None) -> Iterator[None]:
        """The setting at ``value`` (the switch's own by default) for the block, restored also
        on error or abandonment. A thread inside asking for the other value is an error (it
        would wait for itself)."""
        want = self._value if value is None else value
        me = threading.get_ident()
        with self._turn:
            mine = self._depth.get(me, 0)
            if mine and want != self._at:
                raise RuntimeError(
                    f"a thread holding a process-wide setting at {self._at} asked for {want} "
                    f"inside its hold (it would wait for itself): hold it once, at one value"
                )
            if not mine:
                ticket = (next(self._tickets), want)
                self._queue.append(ticket)
                try:
                    self._turn.wait_for(lambda: self._enters(ticket))
                finally:  # in, or given up (an interrupt): either way the rest look again
                    self._queue.remove(ticket)
                    self._turn.notify_all()
            now = self._read()
            if not self._inside:
                self._saved, self._at = now, want
            if now != want:
                self._write(want)
            self._inside += 1
            self._depth[me] = mine + 1
        try:
            yield
        finally:
            with self._turn:
                self._inside -= 1
                if mine:
                    self._depth[me] = mine
                else:
                    del self._depth[me]
                if not self._inside:
                    try:
                        if self._saved != self._at:
                            self._write(self._saved)
                    finally:  # the waiting threads' turn, also if the write failed
                        self._turn.notify_all()

    def keep(self, value: bool) -> None:
        """Have the last thread out put ``value`` back: something done inside a hold changed the
        process's own setting as it would have outside (a library's first import)."""
        with self._turn:
            self._saved = value

    def _enters(self, ticket: tuple[int, bool]) -> bool:
        """Whether a waiting thread may hold its value now: every thread queued before it asks
        for the same value, and the threads inside (if any) hold it."""
        want = ticket[1]
        for queued in self._queue:
            if queued == ticket:
                return not self._inside or self._at == want
            if queued[1] != want:
                return False
        return False  # not queued: cannot happen while it waits


_COLLECTOR = Switch(gc.isenabled, lambda on: gc.enable() if on else gc.disable(), False)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The garbage collector paused over work that makes many objects and no cycle, which a
    collection every 700 allocations would walk in vain: docread's imports (some 100,000
    objects: the Reader's import 0.15 -> 0.13 s of CPU) and PyMuPDF's ``dict`` of a page
    (thousands of dicts, lists and tuples: 0.25 -> 0.09 s of ``auto``'s CPU over the corpus
    PDFs). The caller's setting is restored, also on error and across threads (``Switch``)."""
    with _COLLECTOR.held():
        yield
