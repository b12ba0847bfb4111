"""Tables (CSV, TSV, JSONL, JSON arrays, XLSX, XLS, ODS, Parquet): windows of rows and columns as markdown."""
