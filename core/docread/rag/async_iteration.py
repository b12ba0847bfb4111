"""The wrappers' async loaders (``alazy_load``, ``aload_data``): a blocking unit stream handed to
an event loop by one thread, with back-pressure, so a parallel load never blocks the loop."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TypeVar

T = TypeVar("T")
BUFFER = 256  # items the thread hands over before it waits for the consumer
POLL = 0.1  # seconds between checks of a closed iteration by the waiting thread


async def aiterate(make: Callable[[], Iterator[T]]) -> AsyncIterator[T]:
    """``make()``'s items for an event loop: one thread drives the (parallel) iterator and hands
    items over as they come, at most ``BUFFER`` ahead; closing stops the thread at its next item."""
    loop = asyncio.get_running_loop()
    items: asyncio.Queue[tuple[bool, object]] = asyncio.Queue()
    room = threading.Semaphore(BUFFER)
    stop = threading.Event()

    def drive() -> None:
        iterator = make()
        try:
            for item in iterator:
                while not room.acquire(timeout=POLL):
                    if stop.is_set():
                        return
                if stop.is_set():
                    return
                loop.call_soon_threadsafe(items.put_nowait, (False, item))
        except BaseException as exc:  # noqa: BLE001 - raised in the consumer's task
            loop.call_soon_threadsafe(items.put_nowait, (True, exc))
            return
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()
        loop.call_soon_threadsafe(items.put_nowait, (True, None))

    thread = threading.Thread(target=drive, daemon=True, name="docread-aload")
    thread.start()
    try:
        while True:
            last, item = await items.get()
            if last:
                if item is not None:
                    raise item  # type: ignore[misc]
                return
            room.release()
            yield item  # type: ignore[misc]
    finally:
        stop.set()
