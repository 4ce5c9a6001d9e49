"""The registry: every check declares its hooks, and a new check is one module plus its
registration, as ``CONTRIBUTING.md`` says (its toy check runs here through real mypy)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mypy import api

import mypy_plugin.checks
from mypy_plugin import registry
from mypy_plugin.hooks import Hook

REPO = Path(__file__).resolve().parents[2]
TOY = "sleep_calls"

SOURCE = """\
import time

from proxy_types import IntegerProxy

def f(p: IntegerProxy, n: int) -> None:
    time.sleep(p)
    time.sleep(n)
    time.sleep(0.5)
"""


def contributing_example() -> str:
    """The check module that CONTRIBUTING.md writes, as written there."""
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^( *)```python\n(.*?)^\1```", text, flags=re.S | re.M)
    assert len(blocks) == 1, "CONTRIBUTING.md shows one check module"
    indent, code = blocks[0]
    return "\n".join(line[len(indent):] for line in code.splitlines()) + "\n"


def run_mypy(tmp_path: Path) -> str:
    (tmp_path / "slept.py").write_text(SOURCE)
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n")
    stdout, _, _ = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir",
                            str(tmp_path / "cache"), "--no-error-summary",
                            str(tmp_path / "slept.py")])
    return stdout


@pytest.fixture
def toy_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """CONTRIBUTING.md's module, importable as ``mypy_plugin.checks.sleep_calls``."""
    package = tmp_path / "toy"
    package.mkdir()
    (package / f"{TOY}.py").write_text(contributing_example())
    monkeypatch.setattr(mypy_plugin.checks, "__path__",
                        [*mypy_plugin.checks.__path__, str(package)])
    return tmp_path


def test_the_toy_check_of_contributing_reports_through_mypy(
    toy_check: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "CHECKS", [*registry.CHECKS, TOY])
    stdout = run_mypy(toy_check)
    reported = [line for line in stdout.splitlines() if "time.sleep()" in line]
    # time.sleep(p) only: an int and a literal are static.
    assert len(reported) == 1, stdout
    assert reported[0].startswith(f"{toy_check / 'slept.py'}:6:"), reported
    assert "[proxy-" in reported[0]


def test_an_unregistered_check_does_not_run(toy_check: Path) -> None:
    assert TOY not in registry.CHECKS
    stdout = run_mypy(toy_check)
    assert "time.sleep()" not in stdout
    assert "[proxy-" not in stdout  # no other check reports these calls


def test_every_registered_check_declares_hooks_and_one_entry() -> None:
    for name in registry.CHECKS:
        module = registry.check_module(name)
        assert module.HOOKS and all(isinstance(hook, Hook) for hook in module.HOOKS), name
        assert callable(module.check), name
    checks_dir = Path(mypy_plugin.checks.__file__).parent
    modules = {path.stem for path in checks_dir.glob("*.py") if path.stem != "__init__"}
    assert modules == set(registry.CHECKS)  # none forgotten, none listed twice
    assert len(registry.CHECKS) == len(set(registry.CHECKS))


HELPERS = """\
def to_index(value: int) -> int:
    return int(value)


def as_index(value: int) -> int:
    return int(value)
"""

CALLER = """\
from proxy_types import IntegerProxy

from helpers import as_index, to_index


def f(p: IntegerProxy, n: int) -> None:
    to_index(p)  # type: ignore[arg-type]
    as_index(p)  # type: ignore[arg-type]
    as_index(n)
"""


def test_a_configured_helper_is_checked_as_such_and_other_callees_by_their_body(
    tmp_path: Path
) -> None:
    """call_sites hooks every callee with Python source, except the helpers the settings
    name (concretizing_functions), which their own check reports once at the call."""
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "caller.py").write_text(CALLER)
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n"
        "[mypy.plugins.proxy_types]\nconcretizing_functions = helpers.to_index\n")
    stdout, _, _ = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir",
                            str(tmp_path / "cache"), "--no-error-summary",
                            str(tmp_path / "caller.py"), str(tmp_path / "helpers.py")])
    reported = [line.split(":", 2)[1:] for line in stdout.splitlines()
                if line.startswith(str(tmp_path / "caller.py")) and ": error:" in line]
    lines = [int(line) for line, _ in reported]
    assert lines == [7, 8], stdout  # once each; as_index(n) passes a static int
    assert "to_index()" in reported[0][1] and "reaches" not in reported[0][1], stdout
    assert "as_index(): argument \"p\" reaches int(value)" in reported[1][1], stdout
