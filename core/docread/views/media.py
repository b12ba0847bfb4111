"""What a model can be sent: the media decisions every agent tool shares (which parts go out as
images or PDFs for a model's ``model_inputs``, and the one-line stand-in when not), as ``Part``s
each framework turns into its own content blocks."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, Literal

from ..errors import InvalidOptionError
from ..extractors.markdown import human_size
from ..model import Media

MODEL_INPUTS = frozenset({"text", "image", "pdf"})
#: What a model accepts by default: text and images (raw PDFs only when "pdf" is added).
DEFAULT_MODEL_INPUTS = frozenset({"text", "image"})
#: Image types every multimodal provider takes (Anthropic's list is the narrowest).
SENDABLE_IMAGES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
PDF = "application/pdf"


def check_model_inputs(model_inputs: Iterable[str]) -> frozenset[str]:
    """Validate a ``model_inputs`` set: only "text", "image" and "pdf" are known."""
    accepted = frozenset(model_inputs)
    unknown = sorted(accepted - MODEL_INPUTS)
    if unknown:
        raise InvalidOptionError(
            f"model_inputs: unknown kind(s) {', '.join(unknown)}; known: {', '.join(sorted(MODEL_INPUTS))}"
        )
    return accepted


def view_for_model(
    options: dict[str, Any], model_inputs: Iterable[str]
) -> tuple[dict[str, Any], str]:
    """The read options for this model, and a note when they changed: ``view="pdf"`` for a model
    that takes no PDFs reads the pages as images (or as text, when it takes no images either)."""
    accepted = frozenset(model_inputs)
    if options.get("view") != "pdf" or "pdf" in accepted:
        return options, ""
    view = "visual" if "image" in accepted else "text"
    sent = "as page images" if view == "visual" else "as text (it takes no images either)"
    return {**options, "view": view}, (
        f'view="pdf": this model takes no PDF files ("pdf" is not in model_inputs); the pages '
        f"are sent {sent}."
    )


@dataclasses.dataclass(frozen=True)
class Part:
    """One piece of an agent tool's answer: ``text``, or ``media`` the model takes as an "image"
    or a "pdf"; a framework maps each kind to its own content block."""

    kind: Literal["text", "image", "pdf"]
    text: str = ""
    media: Media | None = None


def media_part(media: Media, model_inputs: Iterable[str]) -> Part:
    """One media part as the model takes it, or its one-line text stand-in saying why not."""
    kind, reason = sendable_as(media, model_inputs)
    return Part(kind, media=media) if kind else Part("text", describe_media(media, reason))


def answer_parts(text: str, media: Iterable[Media], model_inputs: Iterable[str]) -> list[Part]:
    """A tool answer's parts: the agent view text first, then one part per media part."""
    return [Part("text", text), *(media_part(m, model_inputs) for m in media)]


def sendable_as(
    media: Media, model_inputs: Iterable[str]
) -> tuple[Literal["image", "pdf"] | None, str]:
    """("image" | "pdf", "") when the model takes this part, else (None, why it is not sent)."""
    accepted = frozenset(model_inputs)
    if media.mime_type == PDF:
        return ("pdf", "") if "pdf" in accepted else (None, 'not sent: add "pdf" to model_inputs')
    if "image" not in accepted:
        return None, "not sent: this model takes no images"
    if media.mime_type not in SENDABLE_IMAGES:
        return None, f"not sent: {media.mime_type} is not an image type models take"
    return "image", ""


def media_name(media: Media) -> str:
    """The name a media part is shown under: its member's or file's name, plus the page."""
    meta = media.metadata
    member = meta.get("member")
    name = str(member).rsplit("/", 1)[-1] if member else str(meta.get("file_name") or "document")
    page = meta.get("page_number")
    return f"{name} (page {page})" if page and media.mime_type != PDF else name


def describe_media(media: Media, reason: str = "") -> str:
    """A one-line text stand-in for a part the model cannot take: "[Image file: a.png, 2.0 KB, 4x4]"."""
    kind = "PDF file" if media.mime_type == PDF else "Image file"
    parts = [media_name(media), human_size(len(media.data))]
    width, height = media.metadata.get("width"), media.metadata.get("height")
    if width and height:
        parts.append(f"{width}x{height}")
    return f"[{kind}: {', '.join(parts)}{'; ' + reason if reason else ''}]"
