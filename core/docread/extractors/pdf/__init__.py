"""PDF: page text, tables, OCR of scanned pages, page images and raw PDF parts."""
