"""Format extractors: one module per format family behind the interface in ``base``."""
