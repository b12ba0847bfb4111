"""The one Deadline every time limit uses (extractors/deadline.py): its message names the file,
the setting, the limit and the step; restart; an outer deadline; the Context's global one."""

from __future__ import annotations

import math
import time

import pytest
from docread.errors import ExtractionTimeoutError
from docread.extractors.base import Context
from docread.extractors.deadline import Deadline
from docread.model import FileInfo
from docread.request.options import ReadOptions
from docread.settings import Settings


# -- the one Deadline ------------------------------------------------------------------------------
def test_deadline_check_names_the_file_the_setting_the_limit_and_the_step() -> None:
    deadline = Deadline("big.csv", 0.0, "timeouts.tabular_load", task="reading the table",
                        advice="read a smaller window")  # fmt: skip
    time.sleep(0.001)
    assert deadline.expired()
    with pytest.raises(ExtractionTimeoutError) as caught:
        deadline.check("line 7")
    assert str(caught.value) == (
        "big.csv: reading the table took longer than timeouts.tabular_load=0 s at line 7; "
        "read a smaller window"
    )
    assert caught.value.path == "big.csv"


def test_deadline_restart_gives_the_full_limit_again() -> None:
    deadline = Deadline("f", 0.05, "timeouts.x")
    time.sleep(0.06)
    assert deadline.expired()
    deadline.restart()
    assert not deadline.expired()
    deadline.check("next chunk")  # does not raise


def test_deadline_checks_its_outer_deadline_after_its_own() -> None:
    outer = Deadline("f", 1.0, "global_timeout", end=time.monotonic() - 1)
    inner = Deadline("f", 60.0, "timeouts.archive_list", outer=outer)
    assert not inner.expired()  # its own limit has time left
    with pytest.raises(ExtractionTimeoutError, match=r"global_timeout=1 s at listing"):
        inner.check("listing")
    assert not Deadline("f", 1.0, "global_timeout", end=math.inf).expired()


def _context(deadline: float) -> Context:
    info = FileInfo(path="/x/r.csv", name="r.csv", format="csv", category="table",
                    mime_type="text/csv", size=1, modified="2026-01-01T00:00:00", source="r.csv")  # fmt: skip
    settings = Settings.from_mapping({"global_timeout": 7})
    return Context(settings=settings, info=info, options=ReadOptions(), deadline=deadline)


def test_context_global_deadline_is_a_deadline_on_the_float_a_worker_gets() -> None:
    _context(0.0).check_deadline("page 1")  # no deadline: never raises
    late = _context(time.monotonic() - 0.1)
    with pytest.raises(ExtractionTimeoutError) as caught:
        late.check_deadline("page 3")
    message = str(caught.value)
    assert message.startswith("r.csv: reading took longer than global_timeout=7 s at page 3")
    assert "global timeout" in message and "pages" in message
    step = late.time_limit(60, "timeouts.tabular_load")  # a step's own limit has time left ...
    with pytest.raises(ExtractionTimeoutError, match="global_timeout=7 s"):  # ... the read not
        step.check("row 2")
