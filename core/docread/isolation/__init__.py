"""Process isolation: the worker pool (host side), the worker loop, and every external tool run."""
