"""Markdown of office files by conversion: pandoc and antiword (``pandoc``), the source prepared
for them first (``marks``: page breaks and frames; ``rtf``: the RTF pre-pass, ``rtf_codepages``),
and the converted markdown split into parts (``parts``, shared with the in-process readers)."""
