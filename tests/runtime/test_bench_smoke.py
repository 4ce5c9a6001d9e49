"""The guard benchmark runs (smoke only: speed is never asserted in tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_guards.py"


def test_bench_guards_quick_prints_a_table() -> None:
    completed = subprocess.run([sys.executable, str(SCRIPT), "--quick"],
                               capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert "baseline" in lines[0] and "is_static_number" in lines[0]
    assert [line.split()[0] for line in lines[1:3]] == ["int", "float"]
    assert all("x)" in line for line in lines[1:])
