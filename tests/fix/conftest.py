"""Fixtures for ``proxy-types fix``: real projects in tmp, the real command in a subprocess."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

CASES = Path(__file__).with_name("cases")

PROJECT_CONFIG = """\
[mypy]
plugins = mypy_plugin
check_untyped_defs = True
follow_imports = silent
"""

RunCli = Callable[..., subprocess.CompletedProcess[str]]


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
