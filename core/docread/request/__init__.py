"""One read request: validated options, page/row/column ranges and globs, and the parameter table every tool schema is built from."""
