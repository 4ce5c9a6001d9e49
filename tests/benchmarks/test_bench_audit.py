"""benchmarks/bench_audit.py runs end to end in quick mode (speed is never asserted here)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CELL = re.compile(r"^\d+\.\d ns \(\s*\d+\.\d\dx\)$")


def test_quick_run_prints_the_three_phases_for_each_loop() -> None:
    result = subprocess.run([sys.executable, "benchmarks/bench_audit.py", "--quick"], cwd=ROOT,
                            capture_output=True, text=True, check=False, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "== audit overhead =="
    assert re.split(r"\s{2,}", lines[1].strip()) == ["loop", "before", "active", "after"]
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[3:6]]
    assert [row[0] for row in rows] == [
        "isinstance-heavy loop, static values",
        "isinstance(p, NumberClasses) on proxies",
        "isinstance(p, int) on proxies (recorded)",
    ]
    for row in rows:
        assert all(CELL.match(cell) for cell in row[1:]), row
        assert row[1].endswith("(1.00x)")
    assert re.match(r"^active audit on the isinstance-heavy loop: \d+\.\d\dx \(target <= 3x: "
                    r"(ok|over)\); after the audit nothing is patched$", lines[-1])
