"""PyMuPDF without its layout model until a page needs it.

PyMuPDF 2.0 imports ``pymupdf.layout`` (onnxruntime, and it loads its ONNX model at import) and
``pymupdf4llm`` whenever they are installed: 0.43 s per process against 0.10 s without them
(``python -X importtime``). Both imports sit in ``try: ... except ImportError`` blocks of
``pymupdf/__init__.py``, so marking them absent (a ``None`` entry in ``sys.modules``) for the
first import skips them; the marks are then removed, so ``layout_model()`` can import them when
``pdf.structure: layout`` asks. A process that imported ``pymupdf`` before docread has them
loaded already, and PyMuPDF's ``find_tables`` then runs the layout model on every page it
looks at (5 s a page on a loaded machine, and other tables): docread calls it with
``use_layout=False`` (tables.py, parts.py), so ``auto`` and ``off`` read the same, at the same
speed, whoever imported PyMuPDF first."""

from __future__ import annotations

import sys
import threading
from types import ModuleType

from ...errors import DependencyMissingError

_EAGER = ("pymupdf.layout", "pymupdf4llm")
_LOCK = threading.Lock()


def load_pymupdf() -> ModuleType:
    """``pymupdf``, imported without the layout packages when this is its first import."""
    with _LOCK:
        if "pymupdf" not in sys.modules:
            marked = [name for name in _EAGER if name not in sys.modules]
            for name in marked:
                sys.modules[name] = None  # type: ignore[assignment]
            try:
                import pymupdf
            finally:
                for name in marked:
                    if sys.modules.get(name, False) is None:
                        del sys.modules[name]
            pymupdf.no_recommend_layout()  # it would print to stdout once find_tables runs
    return sys.modules["pymupdf"]


def layout_model() -> ModuleType:
    """``pymupdf4llm`` with PyMuPDF's layout model active (loaded once per process, ~0.35 s;
    its weights ship in the ``pymupdf_layout`` package: nothing is downloaded)."""
    load_pymupdf()
    try:
        import pymupdf.layout  # activates the model for pymupdf4llm
        import pymupdf4llm  # type: ignore[import-untyped]
    except ImportError as exc:
        raise DependencyMissingError(
            f"pdf.structure: layout needs PyMuPDF's layout model ({exc}): "
            f"pip install 'docread[layout]', or set pdf.structure: auto"
        ) from exc
    pymupdf.layout.activate()

    model: ModuleType = pymupdf4llm
    return model
