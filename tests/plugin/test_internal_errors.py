"""An error inside a check never crashes mypy and never passes unseen (issue #15).

The tests inject a failure into one check and run real mypy in this process:
with ``PROXY_TYPES_DEBUG`` off the failure becomes one proxy-internal line
naming the check, the place and the exception; with it on, it propagates.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from mypy import api

from mypy_plugin.checks import casts, isinstance_calls
from mypy_plugin.cli.main import main as check_command

REPO = Path(__file__).resolve().parents[2]

SOURCE = """\
from typing import cast

from proxy_types import IntegerProxy


def f(p: IntegerProxy, q: IntegerProxy) -> int:
    isinstance(p, int)
    isinstance(q, int)
    x: int = "text"
    return cast(int, p)
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "sample.py").write_text(SOURCE)
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(cwd)


def run_mypy(project: Path, *extra: str) -> tuple[str, str, int]:
    return api.run(["--config-file", "mypy.ini", "--cache-dir", str(project / "cache"),
                    "--no-error-summary", *extra, "sample.py"])


def broken(*args: object, **kwargs: object) -> None:
    raise ValueError("injected failure")


def test_failing_check_is_one_proxy_internal_line(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PROXY_TYPES_DEBUG")
    monkeypatch.setattr(isinstance_calls, "check_isinstance_call", broken)
    stdout, stderr, status = run_mypy(project)
    internal = [line for line in stdout.splitlines() if "[proxy-internal]" in line]
    # Both isinstance() calls fail the same way: one line, at the first.
    assert len(internal) == 1, stdout
    assert re.match(
        r'sample\.py:7: error: Internal error in check "isinstance_calls" while checking '
        r"sample\.py:7: ValueError: injected failure \(test_internal_errors\.py:\d+\); "
        r"findings of this check may be missing", internal[0]), internal[0]
    # mypy went on: its own error and the other checks' findings are all there.
    assert "sample.py:9: error: Incompatible types in assignment" in stdout
    assert "[proxy-cast]" in stdout
    assert "Traceback" not in stdout + stderr
    assert status == 1


def test_failing_semantic_analysis_check_keeps_mypy_s_analysis(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("PROXY_TYPES_DEBUG")
    monkeypatch.setattr(casts.CastChecker, "check", broken)
    stdout, stderr, _ = run_mypy(project)
    # At the first type the check looks at in the module (the return annotation).
    assert re.search(r'sample\.py:6: error: Internal error in check "casts" while checking '
                     r"sample\.py:6: ValueError: injected failure", stdout), stdout
    assert stdout.count("[proxy-internal]") == 1
    assert stdout.count("[proxy-isinstance]") == 2  # the other checks still report
    assert "[proxy-cast]" not in stdout
    assert "Traceback" not in stdout + stderr


def test_debug_variable_lets_the_error_propagate(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PROXY_TYPES_DEBUG", "1")
    monkeypatch.setattr(isinstance_calls, "check_isinstance_call", broken)
    stdout, _, status = run_mypy(project, "--show-traceback")
    printed = capsys.readouterr()  # mypy prints its crash report past api.run
    crash = printed.err + printed.out
    assert "[proxy-internal]" not in stdout
    assert "sample.py:7: error: INTERNAL ERROR" in crash
    assert "ValueError: injected failure" in crash
    assert status == 2


def test_failing_lookup_is_one_line_on_stderr(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mypy_plugin.analysis import imports

    monkeypatch.delenv("PROXY_TYPES_DEBUG")
    monkeypatch.setattr(imports.MissingModules, "unresolved_for_name", broken)
    stdout, _, _ = run_mypy(project)
    stderr = capsys.readouterr().err  # mypy's stderr: the plugin prints to it
    lines = [line for line in stderr.splitlines() if "internal error" in line]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("proxy-types: internal error in get_type_analyze_hook(")
    assert "ValueError: injected failure" in lines[0]
    assert stdout.count("[proxy-isinstance]") == 2


def test_check_command_exits_3_when_a_check_failed(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("PROXY_TYPES_DEBUG")
    monkeypatch.setattr(isinstance_calls, "check_isinstance_call", broken)
    status = check_command(["check", "--cache-dir", str(project / "cache"), "sample.py"])
    output = capsys.readouterr().out
    assert status == 3
    assert "proxy-internal     1" in output
    monkeypatch.undo()
    monkeypatch.chdir(project)
    assert check_command(["check", "--cache-dir", str(project / "fixed"), "sample.py"]) == 1


def test_failing_hook_lookup_leaves_that_name_unchecked(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mypy_plugin.main import ProxyTypesPlugin

    def lookup(self: ProxyTypesPlugin, fullname: str) -> None:
        raise KeyError(fullname)

    monkeypatch.delenv("PROXY_TYPES_DEBUG")
    monkeypatch.setattr(ProxyTypesPlugin, "get_function_hook", lookup)
    stdout, _, status = run_mypy(project)
    lines = [line for line in capsys.readouterr().err.splitlines() if "internal error" in line]
    # One line, although every function name failed the same way.
    assert len(lines) == 1 and lines[0].startswith(
        "proxy-types: internal error in get_function_hook(")
    assert "[proxy-isinstance]" not in stdout and "[proxy-cast]" in stdout
    assert status == 1
