"""Media files written by digest (the CLI and both wrappers): the default folder is private."""

from __future__ import annotations

from pathlib import Path

import pytest


# -- the default media folder ----------------------------------------------------------------------
def test_default_media_dir_refuses_a_folder_others_can_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docread.errors import PathSecurityError
    from docread.rag.media_files import default_media_dir

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    planted = tmp_path / "docread" / "media"
    planted.mkdir(parents=True)
    planted.chmod(0o777)
    with pytest.raises(PathSecurityError, match="writable by group or others"):
        default_media_dir()
    planted.chmod(0o755)  # ours, readable by others: tightened
    assert default_media_dir() == planted and planted.stat().st_mode & 0o777 == 0o700
