"""PDF tables from the page's one reading: what they share (cells.py), the ones it draws
(ruled.py: tables of contents and ruled tables) and the ones it aligns (unruled.py; rows.py:
what a row of them may be; cuts.py: lines holding two cells); a code listing's rows kept
whole, no table (listing.py)."""
