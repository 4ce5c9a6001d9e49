"""A warm ``check`` is mostly imports: what a text check does not use must not load.

Each run is a real ``check`` (real mypy, a real cache) in a fresh interpreter
that prints, once the command is done, which of the watched modules it loaded.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: Loaded by a check only when asked for: the runtime package (JSON, SARIF, --output,
#: --version), the runtime report's reader, the plugin's emitter (a settings problem),
#: the plugin's reports (emitted by a cold run's checks, read back by JSON and SARIF).
OPTIONAL = ("proxy_types", "mypy_plugin.cli.runtime_report", "mypy_plugin.errors",
            "mypy_plugin.reporting", "mypy_plugin.findings")

PROBE = """\
import sys
from mypy_plugin.cli.main import main
status = main(sys.argv[1:])
print(sorted(name for name in sys.modules
             if name.split(".")[0] == "proxy_types" or name in {optional}))
""".format(optional=set(OPTIONAL[1:]))

SOURCE = "def half(n: int) -> float:\n    return float(n) / 2\n"
#: A plugin finding, so that a report is stored and read back.
REPORTED = ("from proxy_types import IntegerProxy\n\n\n"
            "def half(n: int | IntegerProxy) -> float:\n    return float(n) / 2\n")


def loaded(cli_env: dict[str, str], project: Path, cache: Path, *args: str) -> list[str]:
    """The watched modules a ``check`` with ``args`` loaded (its last output line)."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, "check", "--cache-dir", str(cache), *args, "."],
        cwd=project, env=cli_env, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 1), result.stderr
    names: list[str] = eval(result.stdout.strip().splitlines()[-1])  # a list literal we printed
    return names


@pytest.fixture
def project(tmp_path: Path, warm_cache: Path) -> tuple[Path, Path]:
    """A one-module project and a private copy of the warm cache, checked once already."""
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "model.py").write_text(SOURCE, encoding="utf-8")
    cache = tmp_path / "cache"
    shutil.copytree(warm_cache, cache)
    return tmp_path / "project", cache


def test_warm_text_check_loads_no_optional_module(cli_env: dict[str, str],
                                                  project: tuple[Path, Path]) -> None:
    directory, cache = project
    cold = loaded(cli_env, directory, cache)  # the plugin's checks ran: they emit reports
    assert [name for name in cold if not name.startswith("mypy_plugin.")] == []
    assert loaded(cli_env, directory, cache) == []  # warm: the reports come from the cache


def test_json_check_loads_the_runtime_sarif_module(cli_env: dict[str, str],
                                                   project: tuple[Path, Path]) -> None:
    # The probe sees an import when there is one: JSON names the tool's version.
    directory, cache = project
    assert "proxy_types._sarif" in loaded(cli_env, directory, cache, "--format", "json")


def test_a_warm_json_check_reads_the_plugin_reports_back(cli_env: dict[str, str],
                                                         project: tuple[Path, Path]) -> None:
    directory, cache = project
    (directory / "reported.py").write_text(REPORTED, encoding="utf-8")
    loaded(cli_env, directory, cache)  # cold: stores the reports
    assert "mypy_plugin.findings" not in loaded(cli_env, directory, cache)
    assert "mypy_plugin.findings" in loaded(cli_env, directory, cache, "--format", "json")
