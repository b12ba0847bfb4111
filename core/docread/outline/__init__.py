"""A document's sections, found once: the tree ``view="outline"`` lists, ``section=`` reads from,
and the loaders' and chunks' ``section_id`` and ``headings`` point into (``build`` finds them in
a file's units, ``tree`` holds and names them, ``reading`` serves the agent view, ``marking``
stamps a load's units)."""
