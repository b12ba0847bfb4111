"""THE format table: every format docread knows, with its category, MIME type, extensions,
content signatures, zip-container marker and extractor. Format knowledge lives here only.

Third parties add formats without editing docread: ``register(Format(...))`` at run time (with
``replace=True`` it may take over a built-in), or an installed distribution's entry point in the
group ``docread.extractors`` (a ``Format``, an iterable of them, or a callable returning either),
loaded once, when the table cannot answer: detection of a file whose name no known format
claims, a key or hint not known, ``extensions()``. Plugins add formats (one that claims a
known key or extension is logged and skipped), so what the built-ins answer never changes once
they are in, and reading a ``.txt`` never scans the installed packages."""

from __future__ import annotations

import dataclasses
import threading

from .errors import InvalidOptionError, logger
from .model import dataclass
from .settings import Limits

ENTRY_POINT_GROUP = "docread.extractors"

_X = "docread.extractors."


@dataclass(frozen=True, slots=True)
class Format:
    key: str
    category: str  # a size-limit category of Settings.limits (or "directory")
    mime_type: str
    extensions: tuple[str, ...] = ()
    signatures: tuple[tuple[int, bytes], ...] = ()  # (offset, bytes) that prove the content
    zip_marker: str = (
        ""  # ODF/EPUB 'mimetype' value, or the OOXML main part [Content_Types].xml names
    )
    extractor: str = ""  # "module:Class", imported on first use
    opener: str = ""  # "module:function" for a variant the extractor opens its own way
    textual: bool = False  # text in some charset: detection sets FileInfo.encoding once


_TEXT_EXTS = (
    ".txt", ".text", ".log", ".md", ".markdown", ".rst", ".adoc", ".tex", ".org",
    ".py", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".go", ".rs", ".java", ".kt",
    ".kts", ".scala", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cs", ".m", ".mm",
    ".swift", ".rb", ".php", ".pl", ".pm", ".lua", ".r", ".jl", ".dart", ".ex", ".exs", ".erl",
    ".hs", ".ml", ".clj", ".sql", ".vue", ".svelte", ".css", ".scss", ".sass", ".less",
    ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".env", ".properties", ".lock",
    ".xml", ".xsd", ".xsl", ".svg", ".proto", ".graphql", ".gql",
    ".sh", ".bash", ".zsh", ".fish", ".ps1", ".psm1", ".bat", ".cmd", ".mk", ".cmake",
    ".gradle", ".dockerfile", ".gitignore", ".editorconfig", ".diff", ".patch", ".csv.txt",
)  # fmt: skip

FORMATS: tuple[Format, ...] = (
    # text and code
    Format("text", "text", "text/plain", _TEXT_EXTS, extractor=_X + "text.plain:TextExtractor", textual=True),
    Format("json", "text", "application/json", (".json", ".geojson", ".jsonc"), extractor=_X + "text.plain:TextExtractor", textual=True),
    Format("html", "text", "text/html", (".html", ".htm", ".xhtml"), extractor=_X + "html.extractor:HtmlExtractor", textual=True),
    Format("ipynb", "notebook", "application/x-ipynb+json", (".ipynb",), extractor=_X + "text.notebook:NotebookExtractor", textual=True),
    # tables
    Format("csv", "tabular", "text/csv", (".csv",), extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.lines:open_delimited", textual=True),
    Format("tsv", "tabular", "text/tab-separated-values", (".tsv", ".tab"), extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.lines:open_delimited", textual=True),
    Format("json_table", "tabular", "application/json", (), extractor=_X + "tables.extractor:TabularLoadExtractor", opener=_X + "tables.parquet:open_json_table", textual=True),
    Format("jsonl", "tabular", "application/x-ndjson", (".jsonl", ".ndjson"), extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.lines:open_json_lines", textual=True),
    Format("xlsx", "tabular", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
           (".xlsx", ".xlsm"), zip_marker="xl/workbook.xml", extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.workbook:open_xlsx"),
    Format("xls", "tabular", "application/vnd.ms-excel", (".xls",), extractor=_X + "tables.extractor:TabularLoadExtractor", opener=_X + "tables.workbook:open_xls"),
    Format("ods", "tabular", "application/vnd.oasis.opendocument.spreadsheet", (".ods",),
           zip_marker="application/vnd.oasis.opendocument.spreadsheet", extractor=_X + "tables.extractor:TabularLoadExtractor", opener=_X + "tables.ods:open_ods"),
    Format("parquet", "tabular", "application/vnd.apache.parquet", (".parquet", ".pq"),
           ((0, b"PAR1"),), extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.parquet:open_parquet"),
    # office and e-books
    Format("docx", "office", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
           (".docx", ".docm", ".dotx"), zip_marker="word/document.xml", extractor=_X + "office.extractor:OfficeExtractor", opener=_X + "office.extractor:read_docx"),
    Format("doc", "office", "application/msword", (".doc", ".dot"), extractor=_X + "office.extractor:OfficeExtractor", opener=_X + "office.extractor:read_doc"),
    Format("rtf", "office", "application/rtf", (".rtf",), ((0, b"{\\rtf"),), extractor=_X + "office.extractor:OfficeExtractor", opener=_X + "office.extractor:read_rtf"),
    Format("odt", "office", "application/vnd.oasis.opendocument.text", (".odt",),
           zip_marker="application/vnd.oasis.opendocument.text", extractor=_X + "office.extractor:OfficeExtractor", opener=_X + "office.extractor:read_odt"),
    Format("pptx", "office", "application/vnd.openxmlformats-officedocument.presentationml.presentation",
           (".pptx", ".pptm"), zip_marker="ppt/presentation.xml", extractor=_X + "office.extractor:OfficeExtractor", opener=_X + "office.extractor:read_pptx"),
    Format("odp", "office", "application/vnd.oasis.opendocument.presentation", (".odp",),
           zip_marker="application/vnd.oasis.opendocument.presentation", extractor=_X + "office.extractor:OfficeExtractor", opener=_X + "office.extractor:read_odp"),
    Format("epub", "office", "application/epub+zip", (".epub",),
           zip_marker="application/epub+zip", extractor=_X + "office.extractor:OfficeExtractor", opener=_X + "office.extractor:read_epub"),
    # e-mail
    Format("eml", "email", "message/rfc822", (".eml",), extractor=_X + "email.extractor:EmailExtractor", opener=_X + "email.mime:open_eml"),
    Format("msg", "email", "application/vnd.ms-outlook", (".msg",), extractor=_X + "email.extractor:EmailExtractor", opener=_X + "email.outlook:open_msg"),
    Format("mbox", "email", "application/mbox", (".mbox",), extractor=_X + "email.extractor:EmailExtractor", opener=_X + "email.mbox:open_mbox"),
    # pdf
    Format("pdf", "pdf", "application/pdf", (".pdf",), ((0, b"%PDF-"),), extractor=_X + "pdf:PdfExtractor"),
    # archives (compound extensions are matched before simple ones)
    Format("zip", "archive", "application/zip", (".zip", ".jar"),
           ((0, b"PK\x03\x04"), (0, b"PK\x05\x06")), extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.backends:ZipBackend"),
    Format("tar.gz", "archive", "application/gzip", (".tar.gz", ".tgz"), extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.backends:TarBackend"),
    Format("tar.bz2", "archive", "application/x-bzip2", (".tar.bz2", ".tbz2", ".tbz"), extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.backends:TarBackend"),
    Format("tar.xz", "archive", "application/x-xz", (".tar.xz", ".txz"), extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.backends:TarBackend"),
    Format("tar", "archive", "application/x-tar", (".tar",), ((257, b"ustar"),), extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.backends:TarBackend"),
    Format("7z", "archive", "application/x-7z-compressed", (".7z",), ((0, b"7z\xbc\xaf\x27\x1c"),),
           extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.sevenzip:SevenZipBackend"),
    Format("gz", "archive", "application/gzip", (".gz",), ((0, b"\x1f\x8b"),), extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.backends:StreamBackend"),
    Format("bz2", "archive", "application/x-bzip2", (".bz2",), ((0, b"BZh"),), extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.backends:StreamBackend"),
    Format("xz", "archive", "application/x-xz", (".xz",), ((0, b"\xfd7zXZ\x00"),), extractor=_X + "archives.extractor:ArchiveExtractor", opener=_X + "archives.backends:StreamBackend"),
    # images
    Format("png", "image", "image/png", (".png",), ((0, b"\x89PNG\r\n\x1a\n"),), extractor=_X + "media.image:ImageExtractor"),
    Format("jpeg", "image", "image/jpeg", (".jpg", ".jpeg", ".jpe", ".jfif"), ((0, b"\xff\xd8\xff"),),
           extractor=_X + "media.image:ImageExtractor"),
    Format("gif", "image", "image/gif", (".gif",), ((0, b"GIF87a"), (0, b"GIF89a")), extractor=_X + "media.image:ImageExtractor"),
    Format("bmp", "image", "image/bmp", (".bmp", ".dib"), ((0, b"BM"),), extractor=_X + "media.image:ImageExtractor"),
    Format("tiff", "image", "image/tiff", (".tif", ".tiff"), ((0, b"II*\x00"), (0, b"MM\x00*")),
           extractor=_X + "media.image:ImageExtractor"),
    Format("webp", "image", "image/webp", (".webp",), ((8, b"WEBP"),), extractor=_X + "media.image:ImageExtractor"),
    Format("ico", "image", "image/vnd.microsoft.icon", (".ico", ".cur"), ((0, b"\x00\x00\x01\x00"),),
           extractor=_X + "media.image:ImageExtractor"),
    Format("psd", "image", "image/vnd.adobe.photoshop", (".psd",), ((0, b"8BPS"),), extractor=_X + "media.image:ImageExtractor"),
    # audio
    Format("mp3", "audio", "audio/mpeg", (".mp3",), ((0, b"ID3"),), extractor=_X + "media.audio:AudioExtractor"),
    Format("wav", "audio", "audio/wav", (".wav", ".wave"), ((8, b"WAVE"),), extractor=_X + "media.audio:AudioExtractor"),
    Format("flac", "audio", "audio/flac", (".flac",), ((0, b"fLaC"),), extractor=_X + "media.audio:AudioExtractor"),
    Format("ogg", "audio", "audio/ogg", (".ogg", ".oga", ".opus"), ((0, b"OggS"),), extractor=_X + "media.audio:AudioExtractor"),
    Format("m4a", "audio", "audio/mp4", (".m4a", ".m4b", ".mp4a"), ((4, b"ftypM4A"),), extractor=_X + "media.audio:AudioExtractor"),
    Format("aac", "audio", "audio/aac", (".aac",), extractor=_X + "media.audio:AudioExtractor"),
    Format("aiff", "audio", "audio/aiff", (".aiff", ".aif"), ((8, b"AIFF"),), extractor=_X + "media.audio:AudioExtractor"),
    # databases
    Format("sqlite", "database", "application/vnd.sqlite3", (".sqlite", ".sqlite3", ".db", ".db3"),
           ((0, b"SQLite format 3\x00"),), extractor=_X + "sqlite.extractor:SqliteExtractor"),
    # directories
    Format("directory", "directory", "inode/directory", extractor=_X + "text.directory:DirectoryExtractor"),
)  # fmt: skip

SINGLE_STREAM_ARCHIVES = frozenset({"gz", "bz2", "xz"})  # one compressed file, not a container
OLE2_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
OLE2_FORMATS = (
    "doc",
    "xls",
    "msg",
)  # legacy Office files share one container; extension or libmagic decides


def not_a(claimed: Format, why: str) -> str:
    """What a file whose name says ``claimed`` is not: "not a DOCX: the file is not a zip
    package (why)", said by detection and by the zip gate of the office readers."""
    key = claimed.key.upper()
    article = "an" if key[0] in "AEFHILMNORSX" else "a"  # letters read out: an XLSX, a DOCX
    package = ": the file is not a zip package" if claimed.zip_marker else ""
    return f"not {article} {key}{package} ({why})"


class _Table(dict[str, Format]):
    """``BY_KEY``: a key not found loads the plugins' formats (once) and looks again, so a worker
    process finds a plugin's format by the key its host detected."""

    def __missing__(self, key: str) -> Format:
        if load_plugins():
            return self[key]
        raise KeyError(key)


BY_KEY: dict[str, Format] = _Table((f.key, f) for f in FORMATS)
# Snapshots rebuilt under _lock by register() and swapped whole, so lookups never lock:
_ordered: tuple[Format, ...] = FORMATS  # built-ins first: they win signature and MIME ties
_ext_owner: dict[str, Format] = {ext: f for f in FORMATS for ext in f.extensions}
_by_suffix: dict[str, Format] = dict(_ext_owner)  # by_extension's: never changed, swapped
_lock = threading.RLock()
_plugins = "unloaded"  # then "loading" (by the thread holding _lock), then "loaded"


def register(fmt: Format, *, replace: bool = False) -> Format:
    """Add ``fmt`` to the table: detection, extension, MIME and hint lookups and the Reader see it.

    A key or an extension already known is refused (InvalidOptionError) unless ``replace``, which
    lets ``fmt`` take them over. The extractor (``"module:Class"``) is imported on first use, in
    the host or in an isolated worker, so its module must be importable there."""
    global _ordered, _by_suffix
    if not isinstance(fmt, Format):
        raise TypeError(f"register() takes a docread.formats.Format, not {type(fmt).__name__}")
    _check(fmt)
    load_plugins()  # installed plugins first, so a clash with one is found the same every time
    with _lock:
        old = BY_KEY.get(fmt.key)
        taken = {e: f.key for e in fmt.extensions if (f := _ext_owner.get(e, fmt)).key != fmt.key}
        if not replace and (old is not None or taken):
            clash = f"the key is taken ({old.extractor})" if old else f"extensions taken: {taken}"
            raise InvalidOptionError(f"format {fmt.key!r}: {clash}; pass replace=True to take over")
        BY_KEY[fmt.key] = fmt
        if any(f.key == fmt.key for f in _ordered):
            _ordered = tuple(fmt if f.key == fmt.key else f for f in _ordered)
        else:
            _ordered = (*_ordered, fmt)
        for ext in [e for e, f in _ext_owner.items() if f.key == fmt.key]:
            del _ext_owner[ext]
        _ext_owner.update(dict.fromkeys(fmt.extensions, fmt))
        _by_suffix = dict(_ext_owner)
    return fmt


def _check(fmt: Format) -> None:
    """A registered row must be usable: a key, a size-limit category (so files are admitted
    against ``limits.<category>``), a ``module:Class`` extractor and lower-case extensions with
    their dot (names are lower-cased before matching)."""
    bad = [e for e in fmt.extensions if not e.startswith(".") or e != e.lower()]
    module, _, cls = fmt.extractor.partition(":")
    categories = sorted(f.name for f in dataclasses.fields(Limits))
    problem = (
        "an empty key" if not fmt.key
        else f"category={fmt.category!r} is not one of {categories}"
        if fmt.category not in categories
        else f"extractor={fmt.extractor!r} is not 'module:Class'" if not (module and cls)
        else f"extensions {bad} must be lower case and start with '.'" if bad
        else ""
    )  # fmt: skip
    if problem:
        raise InvalidOptionError(f"format {fmt.key!r} cannot be registered: {problem}")


def load_plugins() -> bool:
    """Register the formats of installed plugins (entry point group ``docread.extractors``), once
    per process; True when this call loaded them. A plugin that fails (or claims a known key or
    extension) is logged and skipped: one broken package must not stop docread reading the rest."""
    global _plugins
    if _plugins == "loaded":
        return False
    with _lock:  # other threads wait here until every plugin is in
        if _plugins != "unloaded":  # loaded meanwhile, or a plugin of ours looking formats up
            return False
        _plugins = "loading"
        try:
            _register_entry_points()
        finally:
            _plugins = "loaded"
    return True


def _register_entry_points() -> None:
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            found = point.load()
            made = found() if callable(found) else found
            for fmt in [made] if isinstance(made, Format) else list(made):
                register(fmt)
        except Exception as exc:  # noqa: BLE001 - where a plugin's failure is handled
            logger.warning(
                "docread plugin %s = %s was not loaded: %s: %s",
                point.name, point.value, type(exc).__name__, exc,
            )  # fmt: skip


def by_extension(name: str) -> Format | None:
    """The format whose extension ends ``name``, the longest one first (".tar.gz" before
    ".gz"): a lookup per dot in the name (a scan of every extension cost a folder load's host
    20 us a file)."""
    lower, table = name.lower(), _by_suffix
    dot = lower.find(".")
    while dot >= 0:
        found = table.get(lower[dot:])
        if found is not None:
            return found
        dot = lower.find(".", dot + 1)
    return None


def by_signature(head: bytes) -> Format | None:
    for fmt in _ordered:
        for offset, magic in fmt.signatures:
            if head[offset : offset + len(magic)] == magic:
                return fmt
    return None


def by_mime(mime: str) -> Format | None:
    return next((f for f in _ordered if f.mime_type == mime), None)


def zip_containers() -> list[Format]:
    return [f for f in _ordered if f.zip_marker]


def extensions() -> list[str]:
    """Every extension docread reads (for framework file_extractor mappings), plugins' too."""
    load_plugins()
    return sorted(_by_suffix)


def lookup_hint(hint: str) -> Format:
    """A format_hint as a key ("pdf"), an extension (".xlsx") or a MIME type (a plugin's too)."""
    h = hint.strip().lower()
    fmt = _hinted(h)
    if fmt is None and load_plugins():
        fmt = _hinted(h)
    if fmt is None:
        raise InvalidOptionError(
            f"format_hint={hint!r}: unknown format; known: {', '.join(sorted(BY_KEY))}"
        )
    return fmt


def _hinted(h: str) -> Format | None:
    return (
        BY_KEY.get(h)
        or BY_KEY.get(h.lstrip("."))
        or by_extension("x" + (h if h.startswith(".") else "." + h))
        or by_mime(h)
    )
