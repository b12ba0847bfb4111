"""What ingestion pipelines build on the read: chunks, media files on disk, and async iteration
for the wrappers' async loaders."""
