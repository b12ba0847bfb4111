"""Whether a filesystem's files are this machine's: the one rule Ray Data and the LlamaIndex
reader use, so files on this machine always get the Workspace's rules (opened inside it, links
checked on the descriptor), whatever wraps them, and only remote files are read by their bytes
(a remote filesystem's ``open`` follows a link out of any folder it was confined to)."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

# fsspec protocols of remote storage (object stores, HDFS, HTTP)
_REMOTE_PROTOCOLS = frozenset({
    "s3", "s3a", "gs", "gcs", "abfs", "abfss", "az", "adl", "hdfs", "webhdfs", "http", "https",
})  # fmt: skip


def classify_filesystem(filesystem: Any) -> tuple[bool | None, str | None]:
    """Whether ``filesystem``'s files are this machine's (True), remote (False) or of a kind
    docread cannot tell (None), and the folder a subtree of it confines paths to. Wrappers are
    looked through, nested: pyarrow's ``SubTreeFileSystem`` and ``PyFileSystem`` (an
    ``FSSpecHandler``'s fsspec filesystem, a handler's ``unwrap()``: Ray's retrying one) and
    fsspec's ``DirFileSystem``. Local: pyarrow's ``LocalFileSystem``, fsspec's ``file`` /
    ``local``; remote: pyarrow's S3, GCS, HDFS and Azure, fsspec's ``_REMOTE_PROTOCOLS``."""
    base: str | None = None
    fs = filesystem
    while True:
        protocols = _protocols(fs)
        pafs = _pyarrow_fs(fs)
        if pafs is not None and isinstance(fs, pafs.SubTreeFileSystem):
            sub, fs = fs.base_path, fs.base_fs
        elif "dir" in protocols and hasattr(fs, "fs"):  # fsspec's DirFileSystem
            sub, fs = str(fs.path), fs.fs
        elif pafs is not None and isinstance(fs, pafs.PyFileSystem):
            handler = fs.handler
            unwrap = getattr(handler, "unwrap", None)
            fs = handler.fs if isinstance(handler, pafs.FSSpecHandler) else unwrap and unwrap()
            if fs is None:
                return None, base
            continue
        else:
            break
        sub = sub.rstrip("/") or "/"
        base = sub if base is None else os.path.join(sub, base.lstrip("/"))
    if (pafs is not None and isinstance(fs, pafs.LocalFileSystem)) or protocols & {"file", "local"}:
        return True, base
    remote = tuple(
        getattr(pafs, name)
        for name in ("S3FileSystem", "GcsFileSystem", "HadoopFileSystem", "AzureFileSystem")
        if pafs is not None and hasattr(pafs, name)
    )
    if isinstance(fs, remote) or protocols & _REMOTE_PROTOCOLS:
        return False, base
    return None, base


def _pyarrow_fs(fs: Any) -> ModuleType | None:
    """``pyarrow.fs`` when ``fs`` is one of pyarrow's filesystems (then already imported), else
    None: an fsspec filesystem is classified without importing pyarrow."""
    if not type(fs).__module__.startswith("pyarrow"):
        return None
    return importlib.import_module("pyarrow.fs")


def _protocols(fs: Any) -> set[str]:
    """An fsspec filesystem's protocol names (empty for anything else)."""
    protocol = getattr(fs, "protocol", None)
    if isinstance(protocol, str):
        return {protocol}
    return (
        {p for p in protocol if isinstance(p, str)} if isinstance(protocol, tuple | list) else set()
    )
