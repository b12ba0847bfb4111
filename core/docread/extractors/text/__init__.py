"""Text, code, notebooks and directory listings."""
