"""``model.lazy_dataclass``, the core's dataclass decorator: a slotted class whose methods are
generated on first use behaves as ``dataclasses.dataclass`` makes it, in every way the core and
its callers use one (a cold start's template imports some 50 of them and uses few)."""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import gc
import pickle
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import field
from typing import Any

import pytest
from docread.model import Document, FileInfo, Switch, collector_paused, lazy_dataclass
from docread.sanitize import lazy_pattern


def _classes(deco: Any) -> dict[str, type]:
    """A frozen class with a default and a factory, a mutable one, a keyword-only one."""

    @deco(frozen=True, slots=True)
    class Frozen:
        """A frozen one."""

        a: int
        b: str = "x"
        c: tuple[int, ...] = field(default_factory=tuple)

    @deco(slots=True)
    class Mutable:
        a: int
        b: int = 2

    @deco(frozen=True, slots=True, kw_only=True)
    class Keywords:
        a: int
        b: int = 1

    return {"Frozen": Frozen, "Mutable": Mutable, "Keywords": Keywords}


def _outcome(call: Any) -> object:
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the error is the outcome compared
        return (type(exc).__name__, str(exc))


def _behaviour(deco: Any) -> list[object]:
    classes = _classes(deco)
    frozen, mutable, keywords = classes["Frozen"], classes["Mutable"], classes["Keywords"]
    one, other = frozen(1), mutable(1)
    return [
        repr(one), one == frozen(1), one != frozen(2), hash(one) == hash(frozen(1)),
        frozen.__slots__, mutable.__slots__, hasattr(one, "__dict__"), frozen.__doc__,
        mutable.__doc__, frozen.__match_args__, keywords.__match_args__,
        _outcome(lambda: setattr(one, "a", 3)), _outcome(lambda: delattr(one, "a")),
        _outcome(lambda: setattr(one, "other", 3)), _outcome(lambda: hash(other)),
        _outcome(lambda: keywords(1)), _outcome(lambda: frozen()), repr(keywords(a=4)),
        [f.name for f in dataclasses.fields(frozen)], repr(dataclasses.replace(one, a=9)),
        dataclasses.asdict(one), dataclasses.is_dataclass(mutable), one.__getstate__(),
        _outcome(lambda: setattr(other, "a", 5)), repr(other), other == mutable(5),
    ]  # fmt: skip


def test_a_lazy_dataclass_behaves_as_a_dataclass() -> None:
    """Reprs, equality, hashing (frozen: by value; mutable: unhashable), frozenness, slots,
    defaults and factories, keyword-only fields, the errors of a wrong call, and what
    ``fields``/``replace``/``asdict``/``is_dataclass`` see: the same as ``dataclasses``'."""
    assert _behaviour(lazy_dataclass) == _behaviour(dataclasses.dataclass)


def test_a_frozen_instance_pickles_as_a_dataclass_and_loads_without_generating() -> None:
    """The same pickle as ``dataclasses`` writes (a worker unpickles a Job made by the host),
    and a fresh process loads one without generating the class's methods (a worker's Job
    brings the settings and options, classes its first unit never builds)."""
    info = FileInfo(
        path="/a.pdf", name="a.pdf", format="pdf", category="document", mime_type="m", size=1,
        modified="2026-01-01",
    )  # fmt: skip
    assert pickle.loads(pickle.dumps(info)) == info
    # dataclasses' own state of a frozen slotted instance: its fields' values in order
    assert info.__getstate__() == [getattr(info, f.name) for f in dataclasses.fields(FileInfo)]
    code = (
        "import pickle, sys\n"
        "from docread import model\n"
        "info = pickle.loads(sys.stdin.buffer.read())\n"
        "print(model.FileInfo in model._pending, info.name, model.FileInfo in model._pending)"
    )
    run = [sys.executable, "-c", code]
    out = subprocess.run(run, input=pickle.dumps(info), capture_output=True, check=True)
    assert out.stdout.decode() == "True a.pdf True\n"  # loaded, read: nothing generated


def test_threads_that_first_use_a_class_at_once_all_get_its_methods() -> None:
    """The first uses race (a worker's sender thread, OCR threads): each gets a real instance."""
    classes = _classes(lazy_dataclass)
    made: list[object] = []
    start = threading.Barrier(8)

    def build() -> None:
        start.wait()
        made.append(classes["Frozen"](1) == classes["Frozen"](1))

    threads = [threading.Thread(target=build) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert made == [True] * 8


@pytest.mark.parametrize("params", [{"frozen": True}, {"slots": True, "order": True}])
def test_what_it_does_not_defer_is_a_dataclass_now(params: dict[str, bool]) -> None:
    """No slots, or a parameter it does not defer: ``dataclasses.dataclass`` itself, at once."""
    made = lazy_dataclass(**params)(type("C", (), {"__annotations__": {"a": "int"}}))
    assert "__init__" in vars(made) and vars(made)["__init__"].__code__.co_filename == "<string>"


def test_the_cores_units_are_lazy_dataclasses() -> None:
    """Document (a unit) compares and prints as before."""
    doc = Document("text", {"page_number": 1})
    assert doc == Document("text", {"page_number": 1}) and "page_number" in repr(doc)


def test_a_lazy_pattern_matches_as_the_compiled_one() -> None:
    """``sanitize.lazy_pattern`` (str and bytes) finds, substitutes and splits as ``re.compile``;
    it compiles once, at the first method read."""
    text = "## Title ##\nbody \x1b[31mred\x1b[0m"
    for args in ((r"^ {0,3}(#{1,4})[ \t]+([^\n]*)", re.M), (r"\x1b\[[0-?]*[ -/]*[@-~]", 0)):
        lazy, real = lazy_pattern(*args), re.compile(*args)
        assert "_compiled" not in vars(lazy)
        assert [m.groups() for m in lazy.finditer(text)] == [
            m.groups() for m in real.finditer(text)
        ]
        assert lazy.sub("", text) == real.sub("", text) and lazy.split(text) == real.split(text)
        assert vars(lazy)["_compiled"].pattern == args[0]
    binary = lazy_pattern(rb"[\x00-\x08]")
    assert binary.findall(b"a\x01b\x02") == [b"\x01", b"\x02"]


def _inside_while(hold: Any) -> None:
    """Two threads in ``hold()`` at once, A in first and out first, B still inside after."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def first() -> None:
        with hold():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def second() -> None:
        a_in.wait(5)
        with hold():
            b_in.set()
            a_out.wait(5)
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)


def test_the_collector_stays_paused_for_a_thread_still_inside_and_is_back_after() -> None:
    """Two threads reading pages at once: the one that leaves first does not switch the
    collector on under the other (the look-then-set pause of each did), and it is on again
    after both, as the process had it."""
    seen: list[bool] = []
    assert gc.isenabled()

    def hold() -> Any:
        return _recording(collector_paused(), seen)

    _inside_while(hold)
    assert seen == [False, False]  # B's view after A left: still paused
    assert gc.isenabled()


@contextlib.contextmanager
def _recording(held: Any, seen: list[bool]) -> Iterator[None]:
    """``held`` entered; on the way out, the collector's state while still inside."""
    with held:
        yield
        seen.append(gc.isenabled())


def test_a_switch_puts_the_setting_back_once_as_the_first_thread_found_it() -> None:
    setting = {"on": False}
    switch = Switch(lambda: setting["on"], lambda v: setting.update(on=v), True)
    during: list[bool] = []

    def hold() -> Any:
        return switch.held()

    with switch.held():
        during.append(setting["on"])
        with switch.held():  # re-entered (a page read inside a page's analysis)
            during.append(setting["on"])
        during.append(setting["on"])
    assert during == [True, True, True]
    assert setting == {"on": False}
    _inside_while(hold)
    assert setting == {"on": False}
    with pytest.raises(ValueError), switch.held():
        raise ValueError("a read fails")
    assert setting == {"on": False}


def test_a_switch_set_otherwise_inside_a_hold_is_set_again_by_the_next_entry() -> None:
    """A library imported while pages are read (pymupdf4llm turns PyMuPDF's quad corrections
    off on import) changes the setting under the hold: the next page's entry pins it again, and
    the last one out still restores what the first one in found."""
    setting = {"on": False}
    switch = Switch(lambda: setting["on"], lambda v: setting.update(on=v), True)
    seen = []
    with switch.held():
        setting["on"] = False  # the library's import
        with switch.held():
            seen.append(setting["on"])
    assert seen == [True]
    assert setting == {"on": False}


def test_threads_holding_a_switch_at_two_values_each_read_under_their_own() -> None:
    """``auto`` holds PyMuPDF's quad corrections on while ``off`` holds them off: a thread asking
    for the other value waits until the holder is out (it does not switch it under the reader
    inside), newcomers for the held value wait behind it, and the last out restores the
    process's setting."""
    setting = {"on": False}
    switch = Switch(lambda: setting["on"], lambda v: setting.update(on=v), True)
    a_in, a_go, c_asked = threading.Event(), threading.Event(), threading.Event()
    order: list[str] = []
    seen: dict[str, list[bool]] = {"a": [], "b": [], "c": []}

    def first() -> None:
        with switch.held(True):
            a_in.set()
            a_go.wait(5)
            seen["a"].append(setting["on"])
            order.append("a out")

    def other() -> None:
        a_in.wait(5)
        with switch.held(False):
            order.append("b in")
            seen["b"].append(setting["on"])
            c_asked.wait(5)
            seen["b"].append(setting["on"])

    def newcomer() -> None:
        c_asked.set()
        with switch.held(True):
            order.append("c in")
            seen["c"].append(setting["on"])

    a, b = threading.Thread(target=first), threading.Thread(target=other)
    a.start(), b.start()
    a_in.wait(5)
    _until(lambda: switch.waiting(False) == 1)  # B is waiting for A
    c = threading.Thread(target=newcomer)
    c.start()
    _until(lambda: switch.waiting(True) == 1)  # C waits behind B, though A holds its value
    a_go.set()
    for t in (a, b, c):
        t.join(10)
    assert order == ["a out", "b in", "c in"]
    assert seen == {"a": [True], "b": [False, False], "c": [True]}
    assert setting == {"on": False}


def test_a_thread_asking_for_the_other_value_inside_its_own_hold_is_an_error_not_a_hang() -> None:
    setting = {"on": False}
    switch = Switch(lambda: setting["on"], lambda v: setting.update(on=v), True)
    with switch.held(True):
        with pytest.raises(RuntimeError, match="inside its hold"), switch.held(False):
            pass
        assert setting == {"on": True}
    assert setting == {"on": False}
    with switch.held(False):  # free again, at either value
        assert setting == {"on": False}


def _until(done: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait for another thread to reach a state (a deadline, not the suite's 300 s timeout)."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the other thread never got there"
        time.sleep(0.001)


def _started(target: Callable[..., object], *args: object) -> threading.Thread:
    """A daemon thread running ``target(*args)``, started (one stuck by a bug cannot hold the
    test process)."""
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


class _GaveUp(Exception):
    """Raised in a waiting thread from outside, as a Ctrl-C landing in its wait would be; slow
    to make (50 ms, before its thread takes the lock back), so the threads woken with it look
    at the turn first."""

    def __init__(self) -> None:
        time.sleep(0.05)
        super().__init__("gave up")


def test_a_thread_that_gives_up_waiting_for_the_other_value_lets_those_behind_it_in() -> None:
    """A holds off; M waits for on, X for off behind M; M is interrupted in its wait just as A
    leaves: X goes in (the turn is not left with a thread that is gone) and the setting is
    put back."""
    setting = {"on": False}
    switch = Switch(lambda: setting["on"], lambda v: setting.update(on=v), True)
    a_in, a_go, x_in = threading.Event(), threading.Event(), threading.Event()
    gave_up: list[bool] = []

    def holder() -> None:
        with switch.held(False):
            a_in.set()
            a_go.wait(5)

    def m() -> None:
        try:
            with switch.held(True):
                pass
        except _GaveUp:
            gave_up.append(True)

    def x() -> None:
        with switch.held(False):
            x_in.set()

    _started(holder)
    a_in.wait(5)
    waiter = _started(m)
    _until(lambda: switch.waiting(True) == 1)
    behind = _started(x)
    _until(lambda: switch.waiting(False) == 1)
    assert waiter.ident is not None
    set_async = ctypes.pythonapi.PyThreadState_SetAsyncExc
    assert set_async(ctypes.c_ulong(waiter.ident), ctypes.py_object(_GaveUp)) == 1
    a_go.set()  # A leaves: M wakes, raises in its wait, and gives up
    waiter.join(5)
    assert gave_up == [True]
    assert x_in.wait(5), "the thread behind the one that gave up was never let in"
    behind.join(5)
    assert setting == {"on": False}
    assert switch.waiting(True) == switch.waiting(False) == 0


def test_threads_queued_for_one_value_go_in_together_when_its_turn_comes() -> None:
    """A holds off; M1 and M2 wait for on, then F for off: when A leaves, M1 and M2 hold on at
    the same time (a turn is not one thread at a time), and F goes in after them."""
    setting = {"on": False}
    switch = Switch(lambda: setting["on"], lambda v: setting.update(on=v), True)
    a_in, a_go = threading.Event(), threading.Event()
    both_in = threading.Barrier(2, timeout=5)
    order: list[str] = []

    def holder() -> None:
        with switch.held(False):
            a_in.set()
            a_go.wait(5)
            order.append("a out")

    def on_reader(name: str) -> None:
        with switch.held(True):
            both_in.wait()  # broken (an error) unless the other one is inside too
            order.append(f"{name} in")

    def off_reader() -> None:
        with switch.held(False):
            order.append("f in")

    a = _started(holder)
    a_in.wait(5)
    m1 = _started(on_reader, "m1")
    _until(lambda: switch.waiting(True) == 1)
    m2 = _started(on_reader, "m2")
    _until(lambda: switch.waiting(True) == 2)
    f = _started(off_reader)
    _until(lambda: switch.waiting(False) == 1)
    a_go.set()
    for t in (a, m1, m2, f):
        t.join(10)
    assert order[0] == "a out" and sorted(order[1:3]) == ["m1 in", "m2 in"] and order[3] == "f in"
    assert setting == {"on": False}


def test_the_threads_waiting_go_in_when_the_last_one_outs_put_back_fails() -> None:
    """The last thread out fails to put the setting back (the library raised): its error is
    its own, and the thread waiting for the other value still goes in."""
    setting, fails = {"on": False}, [True]

    def write(value: bool) -> None:
        if value is False and fails and fails.pop():
            raise OSError("the library refused the setting")
        setting["on"] = value

    switch = Switch(lambda: setting["on"], write, True)
    a_in, a_go, b_in = threading.Event(), threading.Event(), threading.Event()
    errors: list[str] = []

    def holder() -> None:
        try:
            with switch.held(True):
                a_in.set()
                a_go.wait(5)
        except OSError as exc:
            errors.append(str(exc))

    def other() -> None:
        with switch.held(False):
            b_in.set()

    a = _started(holder)
    a_in.wait(5)
    _started(other)
    _until(lambda: switch.waiting(False) == 1)
    a_go.set()
    a.join(5)
    assert errors == ["the library refused the setting"]
    assert b_in.wait(5), "the waiting thread was never woken"
