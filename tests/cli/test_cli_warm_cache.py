"""A warm ``check`` runs mypy once and prints what a cold one prints; copies sharing a
cache are detected.  Real mypy, in this process (to count its runs) and as the command."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mypy_plugin.cli.check import CheckResult, run_check
from mypy_plugin.cli.report_cache import FILE_NAME

CONFIG = """\
[mypy]
plugins = mypy_plugin
strict = True

[mypy.plugins.proxy_types]
traced_functions = pkg.model.traced
"""

MODEL = """\
from proxy_types import FloatProxy, IntegerProxy


def scale(p: float | FloatProxy) -> str:
    if isinstance(p, float):
        return "constant"
    count: int = "many"
    return str(count)


def traced(n: int) -> int:
    if n > 2:
        return n
    return int(n)


def size(n: int | IntegerProxy) -> list[int]:
    return [0] * int(n)
"""

CLEAN = "def double(x: int) -> int:\n    return 2 * x\n"


def make_project(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "mypy.ini").write_text(CONFIG, encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "model.py").write_text(MODEL, encoding="utf-8")
    (root / "pkg" / "clean.py").write_text(CLEAN, encoding="utf-8")
    return root


def as_data(result: CheckResult) -> list[dict[str, object]]:
    return [finding.as_dict() for finding in result.findings]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli_env: dict[str, str]) -> Path:
    root = make_project(tmp_path / "project")
    monkeypatch.chdir(root)
    monkeypatch.setenv("MYPYPATH", cli_env["MYPYPATH"])
    return root


def test_a_warm_check_runs_mypy_once_and_finds_what_a_cold_one_finds(
        project: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    cold = run_check(["pkg"], None, cache)
    plugin = [f for f in cold.findings if f.is_plugin_finding]
    assert len({f.code for f in plugin}) >= 2 and all(f.report is not None for f in plugin)
    assert any(f.code == "assignment" for f in cold.findings)
    [stored_file] = (tmp_path / "cache").glob(f"*/{FILE_NAME}")
    stored = json.loads(stored_file.read_text(encoding="utf-8"))
    assert list(stored["files"]) == [str(project / "pkg" / "model.py")]  # clean.py: nothing
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(stored_file.stat().st_mode) == 0o666 & ~umask  # not mkstemp's 0o600
    warm = run_check(["pkg"], None, cache)
    assert warm.mypy_runs == 1 and warm.rechecked == []
    assert as_data(warm) == as_data(cold)


def test_without_usable_stored_reports_the_files_are_checked_again(
        project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = run_check(["pkg"], None, str(cache))
    [stored] = cache.glob(f"*/{FILE_NAME}")
    data = json.loads(stored.read_text(encoding="utf-8"))
    [entry] = data["files"].values()
    entry["source"] = "0" * 64  # as if the reports were of another version of the file
    stored.write_text(json.dumps(data), encoding="utf-8")
    stale = run_check(["pkg"], None, str(cache))
    assert stale.mypy_runs == 2 and stale.rechecked == ["pkg/model.py"]
    assert as_data(stale) == as_data(cold)
    stored.write_text("{not json", encoding="utf-8")
    broken = run_check(["pkg"], None, str(cache))
    assert broken.mypy_runs == 2 and as_data(broken) == as_data(cold)
    assert [w for w in broken.warnings if FILE_NAME in w] == [
        f"ignored {stored} (JSONDecodeError); files with replayed findings are checked again"]
    healed = run_check(["pkg"], None, str(cache))  # the broken file was written again
    assert healed.mypy_runs == 1 and not healed.warnings and as_data(healed) == as_data(cold)


def lines(result: CheckResult) -> list[tuple[str, int, int, str | None, str]]:
    return [(f.file, f.line, f.column, f.code, f.message) for f in result.findings]


def test_a_run_without_reports_reads_none_back_and_checks_nothing_again(
        project: Path, tmp_path: Path) -> None:
    """What a text report runs: mypy once, its lines only; the next run's reports are kept."""
    cache = tmp_path / "cache"
    cold = run_check(["pkg"], None, str(cache))
    [stored] = cache.glob(f"*/{FILE_NAME}")
    stored.unlink()  # a run that needs the reports must check the files again now
    text = run_check(["pkg"], None, str(cache), with_reports=False)
    assert text.mypy_runs == 1 and text.rechecked == []
    assert lines(text) == lines(cold)
    assert not [f for f in text.findings if f.report is not None]
    assert not stored.exists()  # nothing was checked in that run: nothing to store
    full = run_check(["pkg"], None, str(cache))  # the control: reports asked for
    assert full.mypy_runs == 2 and full.rechecked == ["pkg/model.py"]
    assert as_data(full) == as_data(cold)


def test_a_cold_run_without_reports_stores_them_for_the_next(
        project: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    text = run_check(["pkg"], None, cache, with_reports=False)
    assert text.mypy_runs == 1 and [f for f in text.findings if f.is_plugin_finding]
    warm = run_check(["pkg"], None, cache)
    assert warm.mypy_runs == 1 and warm.rechecked == []
    plugin = [f for f in warm.findings if f.is_plugin_finding]
    assert plugin and all(f.report is not None for f in plugin)
    assert lines(warm) == lines(text)


def test_copies_sharing_a_cache_get_their_own_paths(project: Path, tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    copy = tmp_path / "copy"
    shutil.copytree(project, copy)
    orig = run_check(["pkg"], None, cache)
    assert {f.file for f in orig.findings} == {"pkg/model.py"}
    copied = run_check([str(copy / "pkg")], None, cache)
    assert {f.file for f in copied.findings} == {str(copy / "pkg" / "model.py")}
    assert all(f.report is not None for f in copied.findings if f.is_plugin_finding)
    [notice] = [w for w in copied.warnings if "copy sharing the cache" in w]
    assert f"held pkg.model as checked at pkg/model.py, not ../copy/pkg/model.py" in notice
    assert copied.mypy_runs == 2
    again = run_check([str(copy / "pkg")], None, cache)  # the cache is the copy's now
    assert again.mypy_runs == 1 and not again.warnings
    assert as_data(again) == as_data(copied)


def test_cold_and_warm_commands_print_the_same_bytes(
        cli_env: dict[str, str], tmp_path: Path) -> None:
    root = make_project(tmp_path / "project")
    command = [sys.executable, "-m", "mypy_plugin", "check", "--cache-dir",
               str(tmp_path / "cache"), "--format", "json", "pkg"]
    cold, warm = (subprocess.run(command, cwd=root, env=cli_env, capture_output=True,
                                 text=True, timeout=300) for _ in range(2))
    assert cold.returncode == warm.returncode == 1, cold.stderr
    assert json.loads(cold.stdout)["findings"]
    assert warm.stdout == cold.stdout
    assert warm.stderr == cold.stderr


DYNAMIC_PACKAGE_CONFIG = """\
[mypy]
plugins = mypy_plugin

[mypy.plugins.proxy_types]
dynamic_number_classes = dyn.core.proxies.Num
"""

USER = """\
from dyn.core.proxies import Num


def is_float(x: float | Num) -> bool:
    return isinstance(x, float)
"""


def test_after_an_edit_a_warm_check_finds_what_a_cold_one_finds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli_env: dict[str, str]) -> None:
    """An edit as ``fix`` makes: mypy loads no fresh package that no checked module
    needs (``dyn`` here), which once read as "Cannot find module dyn"."""
    root = tmp_path / "project"
    (root / "dyn" / "core").mkdir(parents=True)
    (root / "mypy.ini").write_text(DYNAMIC_PACKAGE_CONFIG, encoding="utf-8")
    for package in ("dyn", "dyn/core"):
        (root / package / "__init__.py").write_text("", encoding="utf-8")
    (root / "dyn" / "core" / "proxies.py").write_text(
        "class Num:\n    def __float__(self) -> float:\n        return 1.0\n", encoding="utf-8")
    (root / "dyn" / "user.py").write_text(USER, encoding="utf-8")
    (root / "app.py").write_text(USER, encoding="utf-8")
    monkeypatch.chdir(root)
    monkeypatch.setenv("MYPYPATH", cli_env["MYPYPATH"])
    cache = str(tmp_path / "cache")
    before = run_check(["."], None, cache)
    assert [(f.file, f.code) for f in before.findings] == [
        ("app.py", "proxy-isinstance"), ("dyn/user.py", "proxy-isinstance")]
    (root / "app.py").write_text(USER + "\n\nLIMIT = 3\n", encoding="utf-8")
    for paths in (["app.py"], ["."]):
        warm = run_check(paths, None, cache)
        cold = run_check(paths, None, str(tmp_path / f"cold-{len(paths[0])}"))
        assert as_data(warm) == as_data(cold)
        assert "proxy-config" not in {f.code for f in warm.findings}
