"""Files that cannot be fixed: one clear line each, nothing half-written."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

RunCli = Callable[..., subprocess.CompletedProcess[str]]
MakeProject = Callable[[Path, list[str]], Path]
Expected = Callable[[str, str], str]

SYNTAX_ERROR = "def broken(:\n    return 1\n"


def test_syntax_error_names_the_file_and_changes_nothing(
    tmp_path: Path, make_project: MakeProject, run_cli: RunCli
) -> None:
    project = make_project(tmp_path, ["conversions"])
    (project / "broken.py").write_text(SYNTAX_ERROR, encoding="utf-8")
    before = (project / "conversions.py").read_text(encoding="utf-8")
    result = run_cli("fix", ".", cwd=project)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("proxy-types: error: broken.py:1:")
    assert "no file was changed" in lines[0]
    assert (project / "conversions.py").read_text(encoding="utf-8") == before
    assert (project / "broken.py").read_text(encoding="utf-8") == SYNTAX_ERROR


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A file this process cannot write (root ignores modes: make it immutable)."""
    path = tmp_path / "project" / "clash_target.py"
    path.parent.mkdir()
    yield path
    if os.geteuid() == 0 and shutil.which("chattr"):
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    if path.exists():
        path.chmod(0o644)


def lock(path: Path) -> None:
    if os.geteuid() != 0:
        path.chmod(0o444)
        return
    chattr = shutil.which("chattr")
    done = chattr and subprocess.run([chattr, "+i", str(path)], capture_output=True)
    if not done or done.returncode != 0:
        pytest.skip("running as root without a working chattr +i: cannot make a file read-only")


def test_read_only_file_is_reported_and_the_others_are_fixed(
    read_only: Path, make_project: MakeProject, run_cli: RunCli, expected: Expected
) -> None:
    project = make_project(read_only.parent, ["conversions", "baked"])
    (project / "conversions.py").rename(read_only)
    locked_text = read_only.read_text(encoding="utf-8")
    lock(read_only)
    result = run_cli("fix", ".", cwd=project)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, result.stderr
    assert errors[0].startswith("proxy-types: error: cannot write clash_target.py: ")
    assert read_only.read_text(encoding="utf-8") == locked_text
    assert (project / "baked.py").read_text(encoding="utf-8") == expected("baked", "guards")
    assert "clash_target.py:14:" in result.stdout and "could not be written" in result.stdout


def test_missing_libcst_is_one_line(tmp_path: Path, cli_env: dict[str, str]) -> None:
    (tmp_path / "m.py").write_text("x = 1\n", encoding="utf-8")
    blocked = (
        "import sys; sys.modules['libcst'] = None\n"
        "from mypy_plugin.cli import main\n"
        "sys.exit(main(['fix', 'm.py']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", blocked], cwd=tmp_path, env=cli_env, capture_output=True,
        text=True, timeout=120,
    )
    assert result.returncode == 2
    assert result.stderr == (
        "proxy-types: error: fix needs libcst: pip install libcst (the [fix] extra of "
        "proxy-types)\n"
    )


def test_missing_path_is_one_line(tmp_path: Path, run_cli: RunCli) -> None:
    result = run_cli("fix", "nowhere.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "proxy-types: error: no such file or directory: nowhere.py\n"
