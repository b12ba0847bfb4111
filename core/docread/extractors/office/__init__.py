"""Office documents and e-books (DOCX, DOC, RTF, ODT, PPTX, ODP, EPUB): pandoc, antiword and the package itself."""
