"""How a document's outline looks in the agent view: one line a section (``s12  Title  (pages
6-8, ~1,200 tokens)``, indented by depth), as deep as the output limits allow: an outline too long
for them shows its upper levels whole and says how to list one section's subsections, rather
than its first thousand lines."""

from __future__ import annotations

from ..outline.tree import Section, Tree
from ..sanitize import shown_name
from ..settings import OutputSettings
from .budget import OutputBudget

#: Room kept for the header and notes around the outline when choosing how deep it fits.
_RESERVE = "\n" * 20 + " " * 2000
_INDENT = "  "


def outline_line(section: Section, depth: int) -> str:
    """``  s12  Title  (pages 6-8, ~1,200 tokens)``."""
    title = shown_name(section.title, 120) or "(untitled)"
    found = "" if section.found else ", heading not found on the page"
    return (
        f"{_INDENT * (depth - 1)}{section.id}  {title}  "
        f"({section.place()}, ~{section.size:,} tokens{found})"
    )


def outline_lines(
    tree: Tree, sections: list[Section], out: OutputSettings
) -> tuple[list[str], int, int]:
    """The lines of ``sections`` (one section's subtree, or all), each indented by its depth
    below the first's; as many levels as fit the output limits (at least the top one). Returns
    the lines, the depth shown and how many sections deeper ones were left out."""
    if not sections:
        return [], 0, 0
    base = min(tree.depth(s) for s in sections) - 1
    depths = [tree.depth(s) - base for s in sections]
    lines = [outline_line(s, d) for s, d in zip(sections, depths, strict=True)]
    deepest = max(depths)
    for limit in range(deepest, 0, -1):
        shown = [line for line, d in zip(lines, depths, strict=True) if d <= limit]
        if limit == 1 or _fits("\n".join(shown), out):
            return shown, limit, sum(d > limit for d in depths)
    return lines, deepest, 0


def _fits(text: str, out: OutputSettings) -> bool:
    budget = OutputBudget(out)
    whole = _RESERVE + text
    return budget.take(whole) == whole
