"""SQLite databases: schema, row counts and table windows."""
