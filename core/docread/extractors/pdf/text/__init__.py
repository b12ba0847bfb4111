"""A PDF page's text: its lines as read once (reading.py, lines.py), how a printed line's
fragments join (joins.py), how two lines relate (relations.py), and the blocks they form
(pieces.py): paragraphs and list items (blocks.py), headings (headings.py), paragraphs across
a page's columns and their writing (flow.py); rows of a line and its value (values.py)."""
