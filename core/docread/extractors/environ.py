"""The environment of every process docread starts (the worker template, its workers, every
tool): the caller's, cut to an allow-list. It imports nothing of docread, so the Reader's module
can start the worker template before the rest of docread imports (``isolation.template``)."""

from __future__ import annotations

import os

# What of the caller's environment the processes docread starts get (the worker template, so its
# workers, and every tool): what a program and Python need to start (PATH, HOME, the loader and
# Python's own paths), the locale, temp folders, Tesseract's data and thread variables, libmagic's
# database, a pandoc named by pypandoc's variable. Never the rest: tokens and cloud keys
# (DOCREAD_MCP_TOKEN, AWS_SECRET_ACCESS_KEY...) stay out of the processes that parse hostile files.
ENVIRONMENT = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP",
    "LD_LIBRARY_PATH", "PYTHONHOME", "PYTHONPATH", "PYTHONHASHSEED", "PYTHONUTF8",
    "PYTHONIOENCODING", "TESSDATA_PREFIX", "OMP_THREAD_LIMIT", "OMP_NUM_THREADS", "MAGIC",
    "PYPANDOC_PANDOC",
})  # fmt: skip


def environment() -> dict[str, str]:
    """This process's environment cut to ``ENVIRONMENT`` and the locale (``LC_*``): the whole
    environment of every process docread starts."""
    return {k: v for k, v in os.environ.items() if k in ENVIRONMENT or k.startswith("LC_")}
