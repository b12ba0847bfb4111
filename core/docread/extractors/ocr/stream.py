"""Images read in parallel, one tesseract per core, handed out in input order: a long document
streams (at most two images per core, and 64 items, are held), and a failed image is its own
error, so the caller goes on with the rest. A PDF page comes as a ``Scan``: its reading is
looked up in the OCR cache first and the page rendered (in the caller's thread, as PyMuPDF
needs) only when it is not there.

A process reads at most ``share`` images at once (``set_share``): one per usable core (a read
in-process), or in a worker its share of its read's core budget (a load's ``workers``) among
its pool's busy workers (the host says so with each job and as they change), so a 1-worker load
runs one tesseract and two workers of a load on two cores one each, not two each."""

from __future__ import annotations

import os
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from ...errors import DependencyMissingError, ReadDocumentError
from .cached import Scan, reading, scan_key, stored
from .engine import tesseract
from .result import OcrResult

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    from PIL.Image import Image

    from ..base import Context

K = TypeVar("K")
_MAX_HELD = 64  # items waiting behind a slow OCR page before the reader waits for it


def workers() -> int:
    """One tesseract per usable core."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class _Share:
    """How many images this process reads at once, and a slot to read one in."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._running = 0
        self.cores = 0  # 0: one per usable core

    def now(self) -> int:
        return self.cores or workers()

    def set(self, cores: int) -> None:
        with self._cond:
            self.cores = max(cores, 0)
            self._cond.notify_all()

    def read(
        self, image: Image, ctx: Context, cmd: str, what: str, stop: threading.Event, key: str = ""
    ) -> OcrResult:
        """``reading`` in a free slot; CancelledError when the stream closed meanwhile."""
        with self._cond:
            while self._running >= self.now():
                self._cond.wait()
            self._running += 1
        try:
            if stop.is_set():
                from concurrent.futures import CancelledError  # imported with the pool

                raise CancelledError
            return reading(image, ctx, cmd, what, key)
        finally:
            with self._cond:
                self._running -= 1
                self._cond.notify_all()


_SHARE = _Share()


def set_share(cores: int) -> None:
    """Read at most ``cores`` images at once in this process (0: one per usable core)."""
    _SHARE.set(cores)


def share() -> int:
    """How many images this process reads at once now."""
    return _SHARE.now()


def ocr_image(image: Image, ctx: Context, *, what: str) -> OcrResult:
    """Read one image upright; ``what`` names it in errors ("OCR of page 3")."""
    return _SHARE.read(image, ctx, tesseract(ctx), what, threading.Event())


def ocr_images(
    images: Iterable[tuple[K, Image]], ctx: Context, *, what: str
) -> Iterator[tuple[K, OcrResult]]:
    """Many images in parallel (one tesseract per core), results in input order; errors raise."""
    for key, result in ocr_stream(images, ctx, what=what):
        if isinstance(result, ReadDocumentError):
            raise result
        assert result is not None  # every item carries an image
        yield key, result


def ocr_stream(
    items: Iterable[tuple[K, Image | Scan | None]], ctx: Context, *, what: str
) -> Iterator[tuple[K, OcrResult | ReadDocumentError | None]]:
    """Items with an image (or a scan whose reading is not cached) are OCR'd in parallel, items
    without pass through (result None), in input order. At most two images per core (and 64
    items) are held, so a long document streams. A failed image (timeout, tesseract error)
    yields its error, so the caller can go on with the rest."""
    cmd: str | None = None
    pending: deque[tuple[K, Future[OcrResult] | None]] = deque()
    stop = threading.Event()  # set when the stream closes: an image waiting for a slot is dropped
    pool: ThreadPoolExecutor | None = None  # made for the first image: most PDFs have none
    try:
        for key, image in items:
            if image is None:
                pending.append((key, None))
            else:
                cmd = cmd or tesseract(ctx)
                known = scan_key(image, ctx, cmd) if isinstance(image, Scan) else ""
                found = stored(known, ctx)
                if found is not None:  # a cached scan: no render, no thread
                    pending.append((key, _done(found)))
                else:
                    pool = pool or _pool()
                    picture = image.image() if isinstance(image, Scan) else image
                    name = f"{what} {key}"
                    job = pool.submit(_SHARE.read, picture, ctx, cmd, name, stop, known)
                    pending.append((key, job))
            while pending and (
                _ready(pending[0][1])
                or _busy(pending) >= 2 * _SHARE.now()  # rendered pages held: two a slot
                or len(pending) >= _MAX_HELD
            ):
                yield _take(pending.popleft())
        while pending:
            ctx.check_deadline(what)
            yield _take(pending.popleft())
    finally:
        stop.set()
        for _, fut in pending:
            if fut is not None:
                fut.cancel()
        if pool is not None:
            pool.shutdown()  # as leaving its ``with``: the running images end first


def _pool() -> ThreadPoolExecutor:
    """The stream's OCR threads (``concurrent.futures``: imported when a first image needs it,
    not on the cold start's path of a PDF with a text layer)."""
    from concurrent.futures import ThreadPoolExecutor

    return ThreadPoolExecutor(max_workers=workers(), thread_name_prefix="docread-ocr")


def _done(result: OcrResult) -> Future[OcrResult]:
    """A reading already known, as a finished future (handed out in order with the rest)."""
    from concurrent.futures import Future

    fut: Future[OcrResult] = Future()
    fut.set_result(result)
    return fut


def _ready(fut: Future[OcrResult] | None) -> bool:
    """Nothing to wait for: a pass-through item or a finished OCR."""
    return fut is None or fut.done()


def _busy(pending: deque[tuple[K, Future[OcrResult] | None]]) -> int:
    """Images submitted and not yet handed out (each holds a rendered page)."""
    return sum(1 for _, fut in pending if fut is not None)


def _take(
    item: tuple[K, Future[OcrResult] | None],
) -> tuple[K, OcrResult | ReadDocumentError | None]:
    """Wait for one item; a per-image failure is returned, a missing program still raises."""
    key, fut = item
    if fut is None:
        return key, None
    try:
        return key, fut.result()
    except DependencyMissingError:
        raise
    except ReadDocumentError as exc:
        return key, exc
