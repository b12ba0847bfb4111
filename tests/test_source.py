"""Source: a pseudo file (procfs, sysfs) read once as a stream up to limits.text, a read
error as a typed error naming the file, and upload names cut to one safe name."""

from __future__ import annotations

from pathlib import Path

import docread
import pytest
from conftest import NO_CACHE, merged
from docread.errors import ExtractionError


# -- /proc and /sys --------------------------------------------------------------------------------
def _root_reader(**settings: object) -> docread.Reader:
    return docread.Reader("/", config=merged(NO_CACHE, settings), shared_pool=True)


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists(), reason="Linux procfs")
def test_proc_file_is_read_as_a_stream() -> None:
    with _root_reader() as r:
        result = r.read("/proc/cpuinfo")
        assert "processor" in result.text
        assert not any("empty" in n for n in result.notes)
    with _root_reader(limits={"text": 100}) as r:
        result = r.read("/proc/cpuinfo")
        assert result.file.size == 100
        assert any("up to 100 bytes (limits.text" in n for n in result.notes)


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="Linux procfs")
def test_unreadable_proc_file_is_a_typed_error_naming_it() -> None:
    with (
        _root_reader() as r,
        pytest.raises(ExtractionError, match="/proc/self/mem: cannot be read"),
    ):
        r.read("/proc/self/mem")


# -- upload names ----------------------------------------------------------------------------------
def test_nul_in_an_iter_bytes_name_is_dropped(reader: docread.Reader) -> None:
    units = list(reader.iter_bytes(b"hello\n", "up/lo\x00ad.txt"))
    assert units[0].metadata["source"] == "up/load.txt"
