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
