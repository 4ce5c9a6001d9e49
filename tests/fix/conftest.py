"""Fixtures for ``proxy-types fix``: real projects in tmp, the real command in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CASES = Path(__file__).with_name("cases")

PROJECT_CONFIG = """\
[mypy]
plugins = mypy_plugin
check_untyped_defs = True
follow_imports = silent
"""

RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A user's environment: the package and its stubs importable, no user mypy config."""
    home = tmp_path_factory.mktemp("fix-home")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MYPY")}
    env.update(
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
        MYPYPATH=str(REPO / "stubs"),
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
    )
    return env


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache per test process, so torch is analyzed once (runs here are sequential)."""
    return tmp_path_factory.mktemp("fix-mypy-cache")


@pytest.fixture(scope="session")
def run_cli(cli_env: dict[str, str], mypy_cache: Path) -> RunCli:
    """Run ``python -m mypy_plugin ARGS`` in ``cwd`` with the shared cache."""

    def run(*args: str, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "mypy_plugin", *args]
        if args and args[0] in ("check", "fix"):
            command[4:4] = ["--cache-dir", str(mypy_cache)]
        return subprocess.run(
            command, cwd=cwd, env=cli_env, capture_output=True, text=True, timeout=timeout
        )

    return run


MakeProject = Callable[[Path, list[str]], Path]
Expected = Callable[[str, str], str]


@pytest.fixture(scope="session")
def make_project() -> MakeProject:
    """Write a project: one module per case (``cases/NAME.before``) and a mypy.ini."""

    def make(directory: Path, cases: list[str]) -> Path:
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "mypy.ini").write_text(PROJECT_CONFIG, encoding="utf-8")
        for name in cases:
            text = (CASES / f"{name}.before").read_text(encoding="utf-8")
            (directory / f"{name}.py").write_text(text, encoding="utf-8")
        return directory

    return make


@pytest.fixture(scope="session")
def expected() -> Expected:
    """The text of ``cases/NAME.after-STYLE``: a case after ``fix --style STYLE``."""

    def read(name: str, style: str) -> str:
        return (CASES / f"{name}.after-{style}").read_text(encoding="utf-8")

    return read


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "corpus: downloads a real codebase from PyPI and runs mypy on it (minutes)"
    )
