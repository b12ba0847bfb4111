"""The architecture holds: no import cycle in the core (imports inside functions included), no
package folder (the top level included) over twelve modules, no module over 450 lines, arrows
pointing down (the extractors import nothing above them; the integrations on top: nothing below
them imports them), and the wrappers use only docread's public surfaces. (That ``import
docread`` stays light is tests/test_api.py's: its list holds every module this file's twin of
that test listed.)"""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import re
import sys
import threading
from pathlib import Path

import docread

CORE = Path(docread.__file__).resolve().parent


def _parse(source: str) -> ast.Module:
    """``ast.parse`` with the garbage collector held off. CPython before 3.11.8 keeps the AST
    constructor's depth count in one struct per interpreter (gh-106905): a collection inside
    ast.parse runs finalizers, which can hand the GIL to another thread that parses too (numpy's
    ``inspect.signature`` while a load thread of an earlier test imports pandas), and the count
    comes back wrong: ``SystemError: AST constructor recursion depth mismatch``. Without a
    collection, building the tree runs no Python code, so no other thread runs in between."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(source)
    finally:
        if enabled:
            gc.enable()


def _module_name(path: Path) -> str:
    rel = path.relative_to(CORE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(path: Path, modules: set[str]) -> set[str]:
    """Every docread module ``path`` imports when it runs (``if TYPE_CHECKING`` blocks never run)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - child.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in modules else base)
            elif isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            visit(child)

    visit(_parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules and m != name}


@functools.cache
def _graph() -> dict[str, set[str]]:
    files = sorted(CORE.rglob("*.py"))
    modules = {_module_name(f) for f in files}
    return {_module_name(f): _imports(f, modules) for f in files}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10_000)
    for v in graph:
        if v not in index:
            strong(v)
    return out


def test_no_import_cycle_in_the_core() -> None:
    graph = _graph()
    assert "docread.pipeline" in graph["docread.isolation.worker"]  # the checker sees real edges
    assert _cycles(graph) == []


class _Finalized:
    """Garbage in a cycle whose finalizer runs Python code (where the GIL changes hands)."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        pass


def test_the_checker_parses_while_another_thread_parses() -> None:
    """The parser's answer does not depend on other threads: a thread parsing in a loop beside
    cyclic garbage with finalizers made plain ``ast.parse`` fail with SystemError in ~3 of 4
    runs on Python 3.11.7; ``_parse`` never does."""
    source = (CORE / "reader.py").read_text(encoding="utf-8")
    stop = threading.Event()

    def parse_meanwhile() -> None:
        while not stop.is_set():
            with contextlib.suppress(SystemError):  # its own count: not what is checked here
                ast.parse(source)

    thread = threading.Thread(target=parse_meanwhile, daemon=True)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    thread.start()
    try:
        for _ in range(30):
            garbage = [_Finalized() for _ in range(200)]
            del garbage
            assert isinstance(_parse(source), ast.Module)
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(switch)


def test_the_checker_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]


def _under(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(f"{p}.") for p in packages)


#: What stands above the extractors: the pipeline that runs them, the isolation that runs the
#: pipeline, the cache, the Reader, presentation, and everything built on the Reader.
ABOVE_EXTRACTION = tuple(
    f"docread.{name}"
    for name in ("pipeline", "result", "reader", "isolation", "cache", "views", "rag",
                 "integrations", "cli")
)  # fmt: skip


def test_arrows_point_down_from_the_extractors() -> None:
    """Extractors import only what stands below them (errors, model, settings, source, request,
    formats, detect, each other): what they need from above (the OCR cache) is handed to them
    in the Context, and the program runner is theirs (``extractors.programs``). The model
    never imports presentation."""
    graph = _graph()
    assert "docread.extractors.programs" in graph["docread.extractors.ocr.engine"]  # real edges
    for module, deps in graph.items():
        if module.startswith("docread.extractors"):
            assert sorted(d for d in deps if _under(d, ABOVE_EXTRACTION)) == [], module
    assert not any(_under(d, ("docread.views",)) for d in graph["docread.model"])


MAX_LINES = 450


def test_no_module_is_over_450_lines() -> None:
    """A module over 450 lines holds more than one job: split it by job."""
    long = {
        str(path.relative_to(CORE)): lines
        for path in CORE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_no_folder_holds_more_than_twelve_modules() -> None:
    for folder in [CORE, *(p for p in CORE.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
        modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        assert len(modules) <= 12, (folder, len(modules))


def test_integrations_and_the_cli_sit_on_top() -> None:
    """The pipeline, extractors, views and helpers never import an integration (Ray, MCP, the
    agent-tool call) or the CLI: those are thin adapters over the Reader."""
    graph = _graph()
    top = ("docread.integrations", "docread.cli")
    assert "docread.integrations.tool_call" in graph["docread.integrations.mcp_server"]
    for module, deps in graph.items():
        if not module.startswith(top):
            assert not any(d.startswith(top) for d in deps), module


def _layout_block() -> str:
    page = (CORE.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    return page.split("## Layout", 1)[1].split("```", 2)[1]


def test_the_layout_page_names_every_module_and_no_gone_one() -> None:
    """Every module outside ``extractors/`` is on the architecture page's layout, and every
    module the layout names exists (so a move updates the page)."""
    named = set(re.findall(r"\b(\w+\.py)\b", _layout_block()))
    repo = CORE.parents[1]
    files = {p.name for top in ("core", "langchain_docread", "llama_index_docread", "tests", "bench",
             "examples") for p in (repo / top).rglob("*.py")}  # fmt: skip
    assert named - files == set()
    for path in CORE.rglob("*.py"):
        if "extractors" not in path.relative_to(CORE).parts and path.name != "__main__.py":
            assert path.name in named, path.relative_to(CORE)


def test_the_page_lists_the_isolated_families() -> None:
    """The Isolation section's list of isolated families is the set of extractors that are."""
    from docread.extractors.base import extractor_class
    from docread.formats import FORMATS

    page = (CORE.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    listed = re.search(r"Isolated extractors \(([^)]*)\)", page)
    assert listed is not None
    words = {"PDF": "pdf", "office": "office", "tables": "tabular", "HTML": "html",
             "archives": "archive", "e-mail": "email", "images": "image", "audio": "audio",
             "SQLite": "sqlite"}  # fmt: skip
    names = {words[w.strip()] for w in listed.group(1).split(",")}
    classes = [extractor_class(f.extractor) for f in FORMATS]
    isolated = {c.name for c in classes if c.isolated}
    assert names == isolated


# -- the wrappers' one public surface ---------------------------------------------------------
ADAPTERS = "docread.integrations.adapters"
WRAPPER_FOLDERS = ("docread/integrations", "docread/cli")  # and the two framework packages


def _wrapper_files() -> list[Path]:
    repo = CORE.parents[1]
    files = [
        *(repo / "langchain_docread").glob("*.py"),
        *(repo / "llama_index_docread").glob("*.py"),
    ]
    files += [p for folder in WRAPPER_FOLDERS for p in (CORE.parent / folder).glob("*.py")]
    return sorted(p for p in files if p.name != "adapters.py")


def _outside_imports(code: str, package: str) -> list[str]:
    """The docread imports in ``code`` (a module of ``package``) that are neither ``docread``'s
    public names, the adapters' nor another wrapper module (every import, in functions and
    ``TYPE_CHECKING`` blocks too)."""
    import importlib

    public = {
        "docread": set(docread.__all__),
        ADAPTERS: set(importlib.import_module(ADAPTERS).__all__),
    }
    wrappers = tuple(f"docread.{folder.split('/')[1]}" for folder in WRAPPER_FOLDERS)
    found: list[str] = []

    def check(module: str, names: list[str]) -> None:
        if module != "docread" and not module.startswith("docread."):
            return
        if module.startswith(wrappers) and module != ADAPTERS:
            return
        if module not in public:
            found.append(module)
            return
        for name in names:
            if f"{module}.{name}" == ADAPTERS or name in public[module]:
                continue
            found.append(f"{module}.{name}")

    for node in ast.walk(_parse(code)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                check(alias.name, [])
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names = [alias.name for alias in node.names]
            if base.startswith(wrappers) and base in wrappers:  # from docread.cli import load
                for name in names:
                    check(f"{base}.{name}", [])
            else:
                check(base, names)
    return found


def test_the_checker_sees_an_internal_import_of_a_wrapper() -> None:
    assert _outside_imports("from docread.reader import loader_workspace", "x") == [
        "docread.reader"
    ]
    assert _outside_imports("import docread.pipeline", "x") == ["docread.pipeline"]
    assert _outside_imports("from docread import _loading", "x") == ["docread._loading"]
    cli = "from .. import Reader\nfrom ..views import media"
    assert _outside_imports(cli, "docread.cli") == ["docread.views"]
    assert _outside_imports("from ..integrations.adapters import nothing_such", "docread.cli") == [
        f"{ADAPTERS}.nothing_such"
    ]
    fine = "import docread\nfrom docread.integrations.adapters import Chunker\nfrom .tool_call import x"
    assert _outside_imports(fine, "docread.integrations") == []


def test_the_wrappers_import_docread_only_through_its_public_surfaces() -> None:
    """LangChain, LlamaIndex, the integrations and the CLI import ``docread``'s public names, the
    one adapters module (``docread.integrations.adapters``, its ``__all__``) and each other:
    never a core module, so the core can move under them."""
    seen = 0
    for path in _wrapper_files():
        if CORE in path.parents:
            package = (
                _module_name(path).rpartition(".")[0]
                if path.name != "__init__.py"
                else _module_name(path)
            )
        else:
            package = path.parent.name
        code = path.read_text(encoding="utf-8")
        seen += ADAPTERS.rsplit(".", 1)[1] in code
        assert _outside_imports(code, package) == [], path.relative_to(CORE.parents[1])
    assert seen >= 10  # the checker looked at the wrappers that use the adapters


def test_the_adapters_export_what_they_list() -> None:
    import importlib

    adapters = importlib.import_module(ADAPTERS)
    missing = [name for name in adapters.__all__ if not hasattr(adapters, name)]
    assert missing == []
