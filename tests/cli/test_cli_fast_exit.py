"""The console entry leaves without freeing mypy's heap; the in-process API returns."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

FINDING = """\
from proxy_types import FloatProxy


def scale(p: float | FloatProxy) -> str:
    if isinstance(p, float):
        return "constant"
    return "traced"
"""

# An atexit handler runs on a normal exit and never after os._exit.
SCRIPT = """\
import atexit, sys
atexit.register(lambda: print("atexit ran", file=sys.stderr))
from mypy_plugin import collectors
from mypy_plugin.cli import {entry}
sys.argv[1:] = {arguments!r}
{call}
"""


def run_entry(entry: str, call: str, arguments: list[str], cwd: Path,
              env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    script = SCRIPT.format(entry=entry, arguments=arguments, call=textwrap.dedent(call))
    return subprocess.run([sys.executable, "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_console_entry_flushes_everything_then_exits_fast(
        cli_env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(FINDING, encoding="utf-8")
    arguments = ["check", "--cache-dir", str(tmp_path / "cache"), "--format", "json", "."]
    run = run_entry("console_main", "console_main()", arguments, tmp_path, cli_env)
    assert run.returncode == 1, run.stderr
    assert "atexit ran" not in run.stderr  # left with os._exit
    findings = json.loads(run.stdout)["findings"]  # the whole document was flushed
    assert [f["code"] for f in findings] == ["proxy-isinstance"]
    (tmp_path / "model.py").write_text("x: int = 1\n", encoding="utf-8")
    clean = run_entry("console_main", "console_main()", arguments, tmp_path, cli_env)
    assert clean.returncode == 0, clean.stderr
    assert json.loads(clean.stdout)["findings"] == []


def test_console_entry_flushes_a_report_file(cli_env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(FINDING, encoding="utf-8")
    report = tmp_path / "report.sarif"
    arguments = ["check", "--cache-dir", str(tmp_path / "cache"), "--format", "sarif",
                 "--output", str(report), "."]
    run = run_entry("console_main", "console_main()", arguments, tmp_path, cli_env)
    assert run.returncode == 1, run.stderr
    results = json.loads(report.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["proxy-isinstance"]


def test_in_process_main_returns_its_status_and_keeps_nothing(
        cli_env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(FINDING, encoding="utf-8")
    arguments = ["check", "--cache-dir", str(tmp_path / "cache"), "--format", "json", "."]
    call = """
        status = main()
        print("returned", status, collectors._retained, file=sys.stderr)
    """
    run = run_entry("main", call, arguments, tmp_path, cli_env)
    assert run.returncode == 0, run.stderr
    assert "returned 1 None" in run.stderr
    assert "atexit ran" in run.stderr  # a normal exit
