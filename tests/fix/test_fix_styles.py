"""``--diff``, ``--style`` and ``--intent``: the same findings, each rewrite form."""

from __future__ import annotations

import difflib
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

RunCli = Callable[..., subprocess.CompletedProcess[str]]
MakeProject = Callable[[Path, list[str]], Path]
Expected = Callable[[str, str], str]


def expected_diff(before: str, after: str, name: str) -> str:
    return "".join(difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=f"a/{name}", tofile=f"b/{name}",
    ))


@pytest.mark.parametrize("style", ["guards", "classes"])
def test_diff_shows_the_rewrite_and_writes_nothing(
    tmp_path: Path, make_project: MakeProject, run_cli: RunCli, expected: Expected, style: str
) -> None:
    project = make_project(tmp_path, ["any_number"])
    before = (project / "any_number.py").read_text(encoding="utf-8")
    result = run_cli("fix", "--diff", "--intent", "number", "--style", style, ".", cwd=project)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected_diff(before, expected("any_number", style), "any_number.py")
    assert (project / "any_number.py").read_text(encoding="utf-8") == before
    assert result.stderr.startswith("proxy-types fix: 1 file would change\n")


def test_auto_intent_reads_every_number_checks_as_static_only(
    tmp_path: Path, make_project: MakeProject, run_cli: RunCli
) -> None:
    project = make_project(tmp_path, ["any_number"])
    result = run_cli("fix", "--diff", ".", cwd=project)
    assert result.returncode == 0, result.stderr
    added = [line[1:].strip() for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert added == [
        "return is_static_number(value)",
        "return is_static_number(value) or isinstance(value, slice)",
    ]
    assert "+from proxy_types import FloatProxy, is_static_number\n" in result.stdout


def test_migration_mode_keeps_accepting_legacy_proxies(
    tmp_path: Path, run_cli: RunCli
) -> None:
    """migrate_classes: the legacy proxy passed `isinstance(x, Number)` at runtime."""
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n\n"
        "[mypy.plugins.proxy_types]\nmigrate_classes = legacy.NumberProxy\n",
        encoding="utf-8",
    )
    (tmp_path / "legacy.py").write_text(
        "from numbers import Number\n\n\n"
        "class NumberProxy:\n    pass\n\n\n"
        "class FloatProxy(NumberProxy, float):\n    pass\n\n\n"
        "def is_constant(x: float | FloatProxy) -> bool:\n"
        "    return isinstance(x, (int, float, complex))\n",
        encoding="utf-8",
    )
    result = run_cli("fix", "--diff", ".", cwd=tmp_path)
    assert "+    return is_static_number(x) or is_dynamic_number(x)\n" in result.stdout, (
        result.stdout + result.stderr
    )
