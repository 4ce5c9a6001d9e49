"""Probes run in a fresh interpreter: what importing a module pulls in shows only there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def assert_probe_passes(probe: str) -> None:
    """Run ``probe`` at the repository root; it must finish by printing ``ok``."""
    result = subprocess.run([sys.executable, "-c", probe + "print('ok')\n"],
                            capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
