"""The shared OCR engine: Tesseract on PIL images (PDF pages, pictures), upright-corrected, one
process per core, one reading per picture.

- ``result``: what was read (``OcrResult``: lines of words with confidences) and the one rule
  that keeps what reaches ``pdf.ocr_min_confidence`` (``kept_reading``); ``OcrResult.beyond``
  keeps what a text layer lacks.
- ``images``: an image made ready (reading size, noise, skew, PGM/PPM for stdin).
- ``engine``: tesseract itself (the program and its languages, one image read upright).
- ``cached``: one image's reading through the OCR cache the pipeline hands in; a PDF page to
  read (``Scan``) keyed by its file, found there before it is rendered (``renders`` counts).
- ``stream``: many images in parallel, in input order (``ocr_stream``, ``ocr_image``), at most
  this process's share of the cores at once (``set_share``).

The names below are what PDF and image extraction use.
"""

from .cached import Scan, renders
from .engine import available, tesseract
from .images import at_reading_size, noise_correlation, skew_angle
from .result import OcrLine, OcrResult, kept_reading
from .stream import ocr_image, ocr_images, ocr_stream, set_share, share, workers

__all__ = [
    "OcrLine",
    "OcrResult",
    "Scan",
    "at_reading_size",
    "available",
    "kept_reading",
    "noise_correlation",
    "ocr_image",
    "ocr_images",
    "ocr_stream",
    "renders",
    "set_share",
    "share",
    "skew_angle",
    "tesseract",
    "workers",
]
