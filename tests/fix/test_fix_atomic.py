"""``fix`` writes atomically and in the file's own encoding: a failure never costs a line."""

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

# A comment block that makes the rewritten file larger than `ulimit -f 2` (2048 bytes).
PADDING = "".join(f"# padding line {n:03} so that the file outgrows the size limit\n"
                  for n in range(60))


def padded_project(directory: Path, make_project: MakeProject) -> Path:
    project = make_project(directory, ["conversions"])
    module = project / "conversions.py"
    module.write_text(module.read_text(encoding="utf-8") + PADDING, encoding="utf-8")
    return project


def run_limited(cli_env: dict[str, str], project: Path, blocks: int
                ) -> subprocess.CompletedProcess[str]:
    """``proxy-types fix .`` under a real ``ulimit -f`` (1024-byte blocks).

    mypy's cache (SQLite) would hit the limit first: /dev/null turns it off.
    """
    command = ["bash", "-c", f'ulimit -f {blocks} && exec "$0" "$@"', sys.executable, "-m",
               "mypy_plugin", "fix", "--cache-dir", os.devnull, "."]
    return subprocess.run(command, cwd=project, env=cli_env, capture_output=True, text=True,
                          timeout=600)


def test_file_size_limit_leaves_the_file_byte_identical(
    tmp_path: Path, make_project: MakeProject, cli_env: dict[str, str]
) -> None:
    project = padded_project(tmp_path / "project", make_project)
    module = project / "conversions.py"
    before = module.read_bytes()
    assert len(before) > 2048
    result = run_limited(cli_env, project, blocks=2)
    assert result.returncode == 2, result.stderr
    assert module.read_bytes() == before
    assert result.stderr == ("proxy-types: error: cannot write conversions.py: File too large; "
                             "the file was left unchanged\n")
    assert sorted(p.name for p in project.iterdir()) == ["conversions.py", "mypy.ini"]


def test_without_the_limit_the_same_project_is_rewritten(
    tmp_path: Path, make_project: MakeProject, cli_env: dict[str, str]
) -> None:
    project = padded_project(tmp_path / "project", make_project)
    module = project / "conversions.py"
    before = module.read_bytes()
    result = run_limited(cli_env, project, blocks=1000)
    assert result.returncode in (0, 1), result.stderr
    assert "error" not in result.stderr
    assert module.read_bytes() != before and module.read_text(encoding="utf-8").endswith(PADDING)


@pytest.fixture
def locked_directory(tmp_path: Path) -> Iterator[Path]:
    """A directory this process cannot create files in (root ignores modes: immutable)."""
    directory = tmp_path / "project"
    yield directory
    if os.geteuid() == 0 and shutil.which("chattr"):
        subprocess.run(["chattr", "-i", str(directory)], capture_output=True)
    directory.chmod(0o755)


def lock_directory(directory: Path) -> None:
    if os.geteuid() != 0:
        directory.chmod(0o555)
        return
    chattr = shutil.which("chattr")
    done = chattr and subprocess.run([chattr, "+i", str(directory)], capture_output=True)
    if not done or done.returncode != 0:
        pytest.skip("running as root without a working chattr +i: cannot lock a directory")


def test_read_only_directory_is_one_line_and_changes_nothing(
    locked_directory: Path, make_project: MakeProject, run_cli: RunCli
) -> None:
    project = make_project(locked_directory, ["conversions"])
    module = project / "conversions.py"
    before = module.read_bytes()
    run_cli("fix", "--diff", ".", cwd=project)  # mypy's cache is elsewhere: nothing is written
    lock_directory(project)
    result = run_cli("fix", ".", cwd=project)
    assert result.returncode == 2
    assert result.stderr.startswith("proxy-types: error: cannot write conversions.py: ")
    assert result.stderr.endswith("; the file was left unchanged\n")
    assert result.stderr.count("\n") == 1
    assert module.read_bytes() == before
    assert "could not be written" in result.stdout


def test_mode_bom_and_line_endings_are_kept(
    tmp_path: Path, make_project: MakeProject, run_cli: RunCli, expected: Expected
) -> None:
    project = make_project(tmp_path / "project", ["conversions"])
    module = project / "conversions.py"
    module.write_bytes(b"\xef\xbb\xbf" + module.read_bytes())
    module.chmod(0o750)
    result = run_cli("fix", ".", cwd=project)
    assert result.returncode in (0, 1), result.stderr
    data = module.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\xef\xbb\xbf") == 1
    assert data[3:].decode("utf-8") == expected("conversions", "guards")
    assert module.stat().st_mode & 0o777 == 0o750


def test_a_declared_latin_1_file_is_read_and_written_as_latin_1(
    tmp_path: Path, make_project: MakeProject, run_cli: RunCli, expected: Expected
) -> None:
    project = make_project(tmp_path / "project", ["conversions"])
    module = project / "conversions.py"
    coding = "# -*- coding: latin-1 -*-\n"
    module.write_bytes(f"{coding}# caf\xe9\n".encode("latin-1") + module.read_bytes())
    result = run_cli("fix", ".", cwd=project)
    assert result.returncode in (0, 1), result.stderr
    assert "error" not in result.stderr
    text = module.read_bytes().decode("latin-1")  # not UTF-8: "é" is the one byte 0xE9
    assert text == f"{coding}# caf\xe9\n" + expected("conversions", "guards")


# -- only the paths given are rewritten --------------------------------------------------------

SHARED_HELPER = """\
from proxy_types import FloatProxy


def halve(p: FloatProxy) -> float:
    return float(p) / 2
"""

APP = """\
from helper import halve
from proxy_types import FloatProxy


def double(p: FloatProxy) -> float:
    return float(p) * 2 + halve(p)
"""


def run_fix(cli_env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``proxy-types fix`` with a cache of its own: a shared one would replay the paths of
    another test's ``helper`` module (issue #30 item 7)."""
    return subprocess.run(
        [sys.executable, "-m", "mypy_plugin", "fix", "--cache-dir", str(cwd.parent / "cache"),
         *args], cwd=cwd, env=cli_env, capture_output=True, text=True, timeout=600)


def shared_project(root: Path) -> Path:
    """``app/`` checks ``a.py``; mypy finds ``helper`` in ``../shared`` and follows it."""
    app, shared = root / "app", root / "shared"
    app.mkdir(parents=True)
    shared.mkdir()
    (app / "mypy.ini").write_text(
        "[mypy]\nplugins = mypy_plugin\nmypy_path = ../shared\nfollow_imports = normal\n",
        encoding="utf-8")
    (app / "a.py").write_text(APP, encoding="utf-8")
    (shared / "helper.py").write_text(SHARED_HELPER, encoding="utf-8")
    return app


@pytest.mark.parametrize("paths", [["a.py"], ["."], []])
def test_fix_rewrites_only_the_given_paths(tmp_path: Path, cli_env: dict[str, str],
                                           paths: list[str]) -> None:
    app = shared_project(tmp_path)
    if not paths:  # no paths: the config's files, and only the current directory is rewritten
        with (app / "mypy.ini").open("a", encoding="utf-8") as config:
            config.write("files = a.py\n")
    helper = tmp_path / "shared" / "helper.py"
    result = run_fix(cli_env, app, *paths)
    assert result.returncode == 1, result.stderr
    assert "return float(to_static(p)) * 2" in (app / "a.py").read_text(encoding="utf-8")
    assert helper.read_text(encoding="utf-8") == SHARED_HELPER
    assert "proxy-types fix: 1 file changed" in result.stdout
    # mypy names a file outside the current directory by its absolute path.
    assert (f"  {helper}:5:18: [proxy-concretize] not rewritten: outside the paths given\n"
            in result.stdout), result.stdout


def test_the_shared_module_is_rewritten_when_given(tmp_path: Path,
                                                   cli_env: dict[str, str]) -> None:
    app = shared_project(tmp_path)
    result = run_fix(cli_env, app, "a.py", "../shared/helper.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "outside the paths given" not in result.stdout
    assert "float(to_static(p)) / 2" in (tmp_path / "shared" / "helper.py").read_text(
        encoding="utf-8")


# -- advice for values typed Any or object -----------------------------------------------------

UNTYPED_CHECKS = """\
from typing import Any


def f(x: Any) -> int:
    if isinstance(x, int):
        return 1
    return 0


def g(x: object) -> int:
    if isinstance(x, float):
        return 1
    return 0
"""


def test_any_and_object_get_no_registration_advice(tmp_path: Path,
                                                   cli_env: dict[str, str]) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "mypy.ini").write_text(
        "[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\nstrict_isinstance = true\n",
        encoding="utf-8")
    (project / "m.py").write_text(UNTYPED_CHECKS, encoding="utf-8")
    result = run_fix(cli_env, project, "--diff", "m.py")
    assert result.returncode == 1, result.stderr
    left = [line for line in result.stderr.splitlines() if "[proxy-isinstance]" in line]
    assert [line.split(": [")[0].strip() for line in left] == ["m.py:5:8", "m.py:11:8"]
    for line, name in zip(left, ["Any", "object"]):
        assert f'the value is typed "{name}" (strict_isinstance): annotate it with' in line
        assert "register" not in line


# -- progress lines and mypy runs ---------------------------------------------------------------

def test_each_phase_that_took_long_says_so_with_its_mypy_runs(
    tmp_path: Path, make_project: MakeProject, cli_env: dict[str, str], expected: Expected
) -> None:
    project = make_project(tmp_path / "project", ["conversions"])
    env = {**cli_env, "PROXY_TYPES_PROGRESS_SECONDS": "0"}  # every phase counts as long
    result = run_fix(env, project, ".")
    assert result.returncode == 1, result.stderr  # a condition is left for a human
    lines = result.stderr.splitlines()
    assert [line.rsplit(":", 1)[0] for line in lines] == [
        "proxy-types fix: checking", "proxy-types fix: rewriting and checking again, pass 1"]
    assert [line.rsplit(": ", 1)[1].split(",")[0] for line in lines] == ["1 mypy run"] * 2
    assert (project / "conversions.py").read_text(encoding="utf-8") == expected(
        "conversions", "guards")

    quiet = run_fix(cli_env, project, ".")  # PROXY_TYPES_PROGRESS_SECONDS=inf
    assert quiet.stderr == ""


def test_a_bad_progress_setting_is_one_line(tmp_path: Path, make_project: MakeProject,
                                            cli_env: dict[str, str]) -> None:
    project = make_project(tmp_path / "project", ["conversions"])
    before = (project / "conversions.py").read_bytes()
    result = run_fix({**cli_env, "PROXY_TYPES_PROGRESS_SECONDS": "soon"}, project, ".")
    assert result.returncode == 2
    assert result.stderr == ("proxy-types: error: PROXY_TYPES_PROGRESS_SECONDS must be a number "
                             "of seconds (or inf), got 'soon'\n")
    assert (project / "conversions.py").read_bytes() == before
