"""What the wrappers build on besides ``docread``'s own API, in one public place: the LangChain and
LlamaIndex packages, the integrations (agent-tool call, MCP, Ray Data) and the CLI import docread
only from ``docread`` and from here (``tests/test_layout.py`` holds them to it), so the core's
modules can move without breaking them.
"""

from __future__ import annotations

from ..cache.private import make_folders
from ..cache.store import ResultCache
from ..errors import log_handled, logger
from ..extractors.programs import PROGRAMS, Program
from ..formats import FORMATS, Format, extensions
from ..isolation.load import ErrorPolicy, OnError, Skipped, check_on_error
from ..model import unit_position
from ..rag.async_iteration import aiterate
from ..rag.chunking import Chunker, contextualize
from ..rag.media_files import default_media_dir, media_path, store_media
from ..reader import PathArg, UnitHandler, loader_workspace
from ..request.options import check_keywords, suggestion
from ..request.parameters import (
    PARAMETERS,
    TOOL_DESCRIPTION,
    Parameter,
    arguments_model,
    describe_invalid_arguments,
    tool_description,
)
from ..request.ranges import glob_match
from ..views.media import (
    DEFAULT_MODEL_INPUTS,
    MODEL_INPUTS,
    PDF,
    Part,
    answer_parts,
    check_model_inputs,
    describe_media,
    media_name,
    media_part,
    view_for_model,
)
from .filesystems import classify_filesystem

__all__ = [
    "DEFAULT_MODEL_INPUTS",
    "FORMATS",
    "MODEL_INPUTS",
    "PARAMETERS",
    "PDF",
    "PROGRAMS",
    "TOOL_DESCRIPTION",
    "Chunker",
    "ErrorPolicy",
    "Format",
    "OnError",
    "Parameter",
    "Part",
    "PathArg",
    "Program",
    "ResultCache",
    "Skipped",
    "UnitHandler",
    "aiterate",
    "answer_parts",
    "arguments_model",
    "check_keywords",
    "check_model_inputs",
    "check_on_error",
    "classify_filesystem",
    "contextualize",
    "default_media_dir",
    "describe_invalid_arguments",
    "describe_media",
    "extensions",
    "glob_match",
    "loader_workspace",
    "make_folders",
    "log_handled",
    "logger",
    "media_name",
    "media_part",
    "media_path",
    "store_media",
    "suggestion",
    "tool_description",
    "unit_position",
    "view_for_model",
]
