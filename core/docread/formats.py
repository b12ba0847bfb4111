"""THE format table: every format docread knows, with its category, MIME type, extensions,
content signatures, zip-container marker and extractor. Format knowledge lives here only."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidOptionError

_X = "docread.extractors."


@dataclass(frozen=True, slots=True)
class Format:
    key: str
    category: str  # a size-limit category of Settings.limits (or "directory")
    mime_type: str
    extensions: tuple[str, ...] = ()
    signatures: tuple[tuple[int, bytes], ...] = ()  # (offset, bytes) that prove the content
    zip_marker: str = (
        ""  # member name (or ODF/EPUB 'mimetype' value) that identifies a zip container
    )
    extractor: str = ""  # "module:Class", imported on first use
    opener: str = ""  # "module:function" for a variant the extractor opens its own way

    @property
    def is_text_like(self) -> bool:
        return self.category == "text"


_TEXT_EXTS = (
    ".txt", ".text", ".log", ".md", ".markdown", ".rst", ".adoc", ".tex", ".org",
    ".py", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".go", ".rs", ".java", ".kt",
    ".kts", ".scala", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".cs", ".m", ".mm",
    ".swift", ".rb", ".php", ".pl", ".pm", ".lua", ".r", ".jl", ".dart", ".ex", ".exs", ".erl",
    ".hs", ".ml", ".clj", ".sql", ".vue", ".svelte", ".css", ".scss", ".sass", ".less",
    ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".env", ".properties", ".lock",
    ".html", ".htm", ".xml", ".xsd", ".xsl", ".svg", ".proto", ".graphql", ".gql",
    ".sh", ".bash", ".zsh", ".fish", ".ps1", ".psm1", ".bat", ".cmd", ".mk", ".cmake",
    ".gradle", ".dockerfile", ".gitignore", ".editorconfig", ".diff", ".patch", ".csv.txt",
)  # fmt: skip

FORMATS: tuple[Format, ...] = (
    # text and code
    Format("text", "text", "text/plain", _TEXT_EXTS, extractor=_X + "text.plain:TextExtractor"),
    Format("json", "text", "application/json", (".json", ".geojson", ".jsonc"), extractor=_X + "text.plain:TextExtractor"),
    Format("ipynb", "notebook", "application/x-ipynb+json", (".ipynb",), extractor=_X + "text.notebook:NotebookExtractor"),
    # tables
    Format("csv", "tabular", "text/csv", (".csv",), extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.lines:open_delimited"),
    Format("tsv", "tabular", "text/tab-separated-values", (".tsv", ".tab"), extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.lines:open_delimited"),
    Format("json_table", "tabular", "application/json", (), extractor=_X + "tables.extractor:TabularLoadExtractor", opener=_X + "tables.parquet:open_json_table"),
    Format("jsonl", "tabular", "application/x-ndjson", (".jsonl", ".ndjson"), extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.lines:open_json_lines"),
    Format("xlsx", "tabular", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
           (".xlsx", ".xlsm"), zip_marker="xl/workbook.xml", extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.workbook:open_xlsx"),
    Format("xls", "tabular", "application/vnd.ms-excel", (".xls",), extractor=_X + "tables.extractor:TabularLoadExtractor", opener=_X + "tables.workbook:open_xls"),
    Format("ods", "tabular", "application/vnd.oasis.opendocument.spreadsheet", (".ods",),
           zip_marker="application/vnd.oasis.opendocument.spreadsheet", extractor=_X + "tables.extractor:TabularLoadExtractor", opener=_X + "tables.workbook:open_ods"),
    Format("parquet", "tabular", "application/vnd.apache.parquet", (".parquet", ".pq"),
           ((0, b"PAR1"),), extractor=_X + "tables.extractor:TabularExtractor", opener=_X + "tables.parquet:open_parquet"),
    # office and e-books
    Format("docx", "office", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
           (".docx", ".docm", ".dotx"), zip_marker="word/document.xml", extractor=_X + "office.extractor:OfficeExtractor"),
    Format("doc", "office", "application/msword", (".doc", ".dot"), extractor=_X + "office.extractor:OfficeExtractor"),
    Format("rtf", "office", "application/rtf", (".rtf",), ((0, b"{\\rtf"),), extractor=_X + "office.extractor:OfficeExtractor"),
    Format("odt", "office", "application/vnd.oasis.opendocument.text", (".odt",),
           zip_marker="application/vnd.oasis.opendocument.text", extractor=_X + "office.extractor:OfficeExtractor"),
    Format("pptx", "office", "application/vnd.openxmlformats-officedocument.presentationml.presentation",
           (".pptx", ".pptm"), zip_marker="ppt/presentation.xml", extractor=_X + "office.extractor:OfficeExtractor"),
    Format("odp", "office", "application/vnd.oasis.opendocument.presentation", (".odp",),
           zip_marker="application/vnd.oasis.opendocument.presentation", extractor=_X + "office.extractor:OfficeExtractor"),
    Format("epub", "office", "application/epub+zip", (".epub",),
           zip_marker="application/epub+zip", extractor=_X + "office.extractor:OfficeExtractor"),
    # pdf
    Format("pdf", "pdf", "application/pdf", (".pdf",), ((0, b"%PDF-"),), extractor=_X + "pdf.extractor:PdfExtractor"),
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

BY_KEY: dict[str, Format] = {f.key: f for f in FORMATS}
SINGLE_STREAM_ARCHIVES = frozenset({"gz", "bz2", "xz"})  # one compressed file, not a container
OLE2_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
OLE2_FORMATS = (
    "doc",
    "xls",
)  # legacy Office files share one container; extension or libmagic decides

# extension -> format, longest extensions first so ".tar.gz" wins over ".gz"
_BY_EXT: list[tuple[str, Format]] = sorted(
    ((ext, f) for f in FORMATS for ext in f.extensions), key=lambda item: -len(item[0])
)


def by_extension(name: str) -> Format | None:
    lower = name.lower()
    for ext, fmt in _BY_EXT:
        if lower.endswith(ext):
            return fmt
    return None


def by_signature(head: bytes) -> Format | None:
    for fmt in FORMATS:
        for offset, magic in fmt.signatures:
            if head[offset : offset + len(magic)] == magic:
                return fmt
    return None


def by_mime(mime: str) -> Format | None:
    for fmt in FORMATS:
        if fmt.mime_type == mime:
            return fmt
    return None


def zip_containers() -> list[Format]:
    return [f for f in FORMATS if f.zip_marker]


def extensions() -> list[str]:
    """Every extension docread reads (for framework file_extractor mappings)."""
    return sorted({ext for f in FORMATS for ext in f.extensions})


def lookup_hint(hint: str) -> Format:
    """A format_hint as a key ("pdf"), an extension (".xlsx") or a MIME type."""
    h = hint.strip().lower()
    fmt = (
        BY_KEY.get(h)
        or BY_KEY.get(h.lstrip("."))
        or by_extension("x" + (h if h.startswith(".") else "." + h))
    )
    fmt = fmt or by_mime(h)
    if fmt is None:
        raise InvalidOptionError(
            f"format_hint={hint!r}: unknown format; known: {', '.join(sorted(BY_KEY))}"
        )
    return fmt
