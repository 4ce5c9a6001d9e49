"""Fixtures shared by the test packages that run the command line in a subprocess."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# An error inside a check propagates as a traceback instead of becoming a
# proxy-internal report, in this process and in every mypy it starts: a test
# must never pass on a check that crashed.  Tests of the reporting path turn it off.
os.environ["PROXY_TYPES_DEBUG"] = "1"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-cases", action="store_true",
                     help="rewrite the markers of the plugin's case files (tests/plugin/cases) "
                          "from mypy's output; the tests that rewrote a file fail once")


@pytest.fixture(scope="session")
def cli_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A user's environment: the package and its stubs importable, no user mypy config."""
    home = tmp_path_factory.mktemp("home")  # no ~/.mypy.ini from the real user
    env = {key: value for key, value in os.environ.items() if not key.startswith("MYPY")}
    env.update(
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
        MYPYPATH=str(REPO / "stubs"),
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        PROXY_TYPES_PROGRESS_SECONDS="inf",  # no fix progress lines in outputs tests compare
    )
    return env
