"""mypy's SQLite cache failing under a real file size limit (``ulimit -f``) is one line
from ``check`` and ``fix``, naming the cache file and the cause (issue #30)."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

#: 1 KiB blocks: mypy's cache.db outgrows this while it is created.
LIMIT_BLOCKS = 20
SOURCE = "def f(x: int) -> int:\n    return x + 1\n"


def limited(command: list[str], cwd: Path, env: dict[str, str], blocks: int | None
            ) -> subprocess.CompletedProcess[str]:
    """``command`` under ``ulimit -f blocks`` in a real shell (no limit: None)."""
    limit = f"ulimit -f {blocks}; " if blocks is not None else ""
    return subprocess.run(["bash", "-c", limit + "exec " + shlex.join(command)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("command", ["check", "fix"])
def test_a_cache_over_the_file_size_limit_is_one_line(
        project: Path, cli_env: dict[str, str], command: str) -> None:
    cli = [sys.executable, "-m", "mypy_plugin", command, "--cache-dir", "cache", "m.py"]
    result = limited(cli, project, cli_env, LIMIT_BLOCKS)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(
        "proxy-types: error: mypy's cache cache/{}.{}/cache.db could not be used: ".format(
            *sys.version_info[:2]))
    assert f"ulimit -f) is {LIMIT_BLOCKS * 1024} bytes" in result.stderr
    assert (project / "m.py").read_text(encoding="utf-8") == SOURCE
    # The same command without the limit runs.
    free = limited(cli, project, cli_env, None)
    assert free.returncode == 0, free.stdout + free.stderr


def test_the_plugin_adds_nothing_to_mypys_own_cache_failure(
        project: Path, cli_env: dict[str, str]) -> None:
    """Plain mypy fails the same way with and without the plugin: it is mypy's own
    failure (docs/cli.md), and the plugin must not make it worse."""
    (project / "plain.ini").write_text("[mypy]\n", encoding="utf-8")
    outcomes = []
    for config, cache in (("mypy.ini", "with"), ("plain.ini", "without")):
        mypy = [sys.executable, "-m", "mypy", "--config-file", config, "--cache-dir", cache,
                "--show-traceback", "m.py"]
        result = limited(mypy, project, cli_env, LIMIT_BLOCKS)
        last = result.stderr.strip().splitlines()[-1] if result.stderr.strip() else ""
        outcomes.append((result.returncode, last, "mypy_plugin" in result.stderr))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][2] is False  # no frame of the plugin in mypy's report
