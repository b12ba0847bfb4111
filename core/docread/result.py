"""ReadResult: everything one read produced, and its agent view (``render``)."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from .model import Document, FileInfo, Media, OutputFormat, dataclass
from .views import render


@dataclass(slots=True)
class ReadResult:
    """Everything one read produced: documents, media parts, header facts and notes."""

    file: FileInfo
    documents: list[Document] = field(default_factory=list)
    media: list[Media] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    header: dict[str, str] = field(default_factory=dict)
    cached: bool = False
    output_format: str = "text"  # the read's output_format: what render() gives by default
    settings: Any = field(
        default=None, repr=False, compare=False
    )  # the Reader's Settings (output limits)

    @property
    def text(self) -> str:
        """The documents' texts joined, without any view decoration."""
        return "\n\n".join(d.text for d in self.documents)

    def render(self, output_format: OutputFormat | None = None) -> str:
        """The agent view: header, content and notes, truncated to the output limits."""
        return render(self, output_format or self.output_format, settings=self.settings)
