"""Shared bench plumbing: each case runs in a fresh process (so peak RSS is per case) and the
best of a few runs is kept."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any


def best_of(script: str, *args: str, runs: int = 3, key: str = "seconds") -> dict[str, Any]:
    """Run ``python script *args`` ``runs`` times; each prints one JSON line last; keep the fastest."""
    best: dict[str, Any] | None = None
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, script, *args], capture_output=True, text=True, check=True
        )
        run = json.loads(out.stdout.strip().splitlines()[-1])
        if best is None or run[key] < best[key]:
            best = run
    assert best is not None
    return best
