"""HTML pages: markdown for loaders and on request, numbered source lines for agents."""
