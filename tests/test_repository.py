"""The repository's own promises: CI runs the README's command, the code type-checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def ci_commands() -> list[str]:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.startswith("python3 -m venv")]


def ci_command() -> str:
    """The main job: the first install-and-test line (the second: the oldest mypy)."""
    commands = ci_commands()
    assert len(commands) == 2, f".ci/run should run two install-and-test lines, found {commands}"
    return commands[0]


def test_ci_runs_the_case_files_on_the_oldest_tested_mypy_in_its_own_venv() -> None:
    from mypy_plugin._mypy_compat import OLDEST_TESTED

    oldest = ci_commands()[1]
    venv = oldest.split()[3]
    assert venv != ".venv" and f"{venv}/bin/python tests/plugin/run_cases.py" in oldest
    assert f"mypy=={OLDEST_TESTED}" in oldest


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    head = readme[:12]
    indented = [line.strip() for line in head if line.startswith("    ")]
    assert len(indented) == 2, f"the README should open with two commands, found {indented}"
    install_and_check, install_and_test = indented
    assert "proxy-types check" in install_and_check
    assert install_and_test == ci_command()


def run_mypy(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", *arguments],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )


@pytest.mark.slow
def test_project_is_clean_under_strict_mypy() -> None:
    # mypy.ini: the plugin and the tests, strict, against the stubs users get.
    result = run_mypy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


@pytest.mark.slow
def test_runtime_sources_are_clean_under_strict_mypy() -> None:
    result = run_mypy("--strict", "proxy_types")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success: no issues found" in result.stdout


def test_the_readme_check_command_reports_only_the_bad_examples() -> None:
    """The README's first command, run here: findings in every bad_*.py, none elsewhere.

    With the embedded default config, examples/mypy.ini's exclusions do not apply, so the
    command names the top-level files; the preset directories need their libraries.
    """
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    command = next(line.strip() for line in readme[:12] if "proxy-types check" in line)
    check = command.split("&& cd examples && ")[1].split()
    assert check[:3] == ["../.venv/bin/proxy-types", "check", "--default-config"], check
    assert check[3:] == ["*.py"], check
    examples = ROOT / "examples"
    files = sorted(path.name for path in examples.glob("*.py"))
    result = subprocess.run([sys.executable, "-m", "mypy_plugin", "check", "--default-config",
                             *files], cwd=examples, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 1, result.stdout + result.stderr
    reported = {line.split(":")[0] for line in result.stdout.splitlines() if ": error: " in line}
    assert reported == {name for name in files if name.startswith("bad_")}, result.stdout
