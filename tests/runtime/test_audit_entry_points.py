"""The audit's entry points: ``python -m proxy_types.audit`` and ``pytest --proxy-types-audit``."""

from __future__ import annotations

import configparser
import json
import os
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.fresh_python import build_wheel

pytest_plugins = ("pytester",)

REPO = Path(__file__).resolve().parents[2]

MERGING_SCRIPT = """
    import sys
    import types

    import proxy_types
    from proxy_types import IntegerProxy

    assert callable(proxy_types.audit) and not isinstance(proxy_types.audit, types.ModuleType)
    p = IntegerProxy("n", 3)
    for _ in range(int(sys.argv[1])):
        isinstance(p, int)
    isinstance(p, proxy_types.NumberClasses)
    print("script ran with", sys.argv[1:])
    if len(sys.argv) > 2:
        raise SystemExit(int(sys.argv[2]))
"""


def run_audit(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "proxy_types.audit", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture
def script(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # no config search beyond the project
    path = tmp_path / "merges.py"
    path.write_text(textwrap.dedent(MERGING_SCRIPT), encoding="utf-8")
    return path


def test_the_command_runs_the_script_and_reports_its_merges(script: Path,
                                                           cli_env: dict[str, str]) -> None:
    result = run_audit("--output", "report.json", script.name, "4", cwd=script.parent, env=cli_env)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "script ran with ['4']\n"
    table = result.stderr.splitlines()
    assert table[0].startswith("proxy-types audit: 1 records, 4 calls (config: no config file found)")
    assert table[2].split()[:3] == ["4", "merges.py:11:5", "proxy-isinstance"]
    document = json.loads((script.parent / "report.json").read_text(encoding="utf-8"))
    assert document["source"] == "runtime"
    (finding,) = document["findings"]
    assert (finding["file"], finding["line"], finding["count"]) == ("merges.py", 11, 4)


def test_the_scripts_exit_status_is_the_commands(script: Path, cli_env: dict[str, str]) -> None:
    result = run_audit("--output", "report.sarif", script.name, "1", "3", cwd=script.parent,
                       env=cli_env)
    assert result.returncode == 3
    sarif = json.loads((script.parent / "report.sarif").read_text(encoding="utf-8"))
    assert len(sarif["runs"][0]["results"]) == 1


def test_an_exception_in_the_script_is_shown_from_the_script_on(script: Path,
                                                                 cli_env: dict[str, str]) -> None:
    result = run_audit("--output", "report.json", script.name, "not-a-number", cwd=script.parent,
                       env=cli_env)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1].startswith('  File "') and "merges.py" in lines[1]
    assert any(line.startswith("ValueError: invalid literal for int()") for line in lines)
    assert "runpy" not in result.stderr
    assert json.loads((script.parent / "report.json").read_text())["findings"] == []


@pytest.mark.parametrize("args, message", [
    (["missing.py"], "no such script: missing.py"),
    (["--output", "report.xml", "merges.py"], "report.xml: unknown format"),
    (["--config", "nowhere.ini", "merges.py"], "nowhere.ini: error: config file not found"),
    (["--output", "nodir/report.json", "merges.py"],
     "error: cannot write nodir/report.json: No such file or directory"),  # before the script
    ([], "the following arguments are required: script"),
])
def test_usage_problems_are_one_line_with_status_two(
    script: Path, cli_env: dict[str, str], args: list[str], message: str
) -> None:
    result = run_audit(*args, cwd=script.parent, env=cli_env)
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("python -m proxy_types.audit: error: ") and message in line
    assert result.stdout == ""


def test_the_configuration_names_classes_for_the_command(script: Path,
                                                         cli_env: dict[str, str]) -> None:
    (script.parent / "setup.cfg").write_text(
        "[mypy]\n[mypy.plugins.proxy_types]\naudit_classes = traced.Traced\n", encoding="utf-8")
    (script.parent / "traced.py").write_text(
        "class Traced:\n    def __bool__(self):\n        return True\n", encoding="utf-8")
    script.write_text("import traced\nif traced.Traced():\n    pass\n", encoding="utf-8")
    result = run_audit(script.name, cwd=script.parent, env=cli_env)
    assert result.returncode == 0, result.stderr
    assert "(config: setup.cfg)" in result.stderr
    assert 'merges.py:2:1' in result.stderr and '"traced.Traced" returned True' in result.stderr


# -- the pytest plugin ---------------------------------------------------------------------------

TEST_FILE = """
    import builtins

    from proxy_types import IntegerProxy, NumberClasses


    def test_merges():
        p = IntegerProxy("n", 3)
        assert not isinstance(p, int)
        assert isinstance(p, NumberClasses)


    def test_audit_is_active():
        assert type(builtins.isinstance).__name__ == "function"
"""


@pytest.fixture
def plugin_env(monkeypatch: pytest.MonkeyPatch, cli_env: dict[str, str]) -> None:
    # Only the plugin given with -p: an installed proxy-types would load it twice.
    for key, value in cli_env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")


def test_pytest_option_audits_the_run_and_writes_the_report(
    pytester: pytest.Pytester, plugin_env: None
) -> None:
    pytester.makepyfile(test_user=textwrap.dedent(TEST_FILE))
    result = pytester.runpytest_subprocess(
        "-p", "proxy_types._pytest_plugin", "--proxy-types-audit=audit.json", "-p",
        "no:cacheprovider")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines([
        "*= proxy-types audit =*",
        "proxy-types audit: 1 records, 1 calls*",
        "*1  test_user.py:8:16  proxy-isinstance  isinstance() against static number classes (int)*",
        "  proxy-isinstance  1",
        "report written to audit.json",
    ])
    document = json.loads((pytester.path / "audit.json").read_text(encoding="utf-8"))
    assert [(f["file"], f["line"], f["source"]) for f in document["findings"]] == [
        ("test_user.py", 8, "runtime")]


def test_pytest_option_without_a_file_prints_the_table_only(
    pytester: pytest.Pytester, plugin_env: None
) -> None:
    pytester.makepyfile(test_user=textwrap.dedent(TEST_FILE))
    result = pytester.runpytest_subprocess("-p", "proxy_types._pytest_plugin",
                                           "--proxy-types-audit", "-p", "no:cacheprovider")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["proxy-types audit: 1 records, 1 calls*"])
    assert "report written" not in result.stdout.str()
    assert list(pytester.path.glob("*.json")) == []


def test_without_the_option_nothing_is_audited(pytester: pytest.Pytester, plugin_env: None) -> None:
    pytester.makepyfile(test_user=textwrap.dedent(TEST_FILE))
    result = pytester.runpytest_subprocess("-p", "proxy_types._pytest_plugin", "-p",
                                           "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)  # test_audit_is_active fails: not patched
    assert "proxy-types audit" not in result.stdout.str()


def test_a_test_path_after_the_option_is_a_usage_error(
    pytester: pytest.Pytester, plugin_env: None
) -> None:
    pytester.makepyfile(test_user=textwrap.dedent(TEST_FILE))
    result = pytester.runpytest_subprocess("-p", "proxy_types._pytest_plugin",
                                           "--proxy-types-audit", "test_user.py")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*--proxy-types-audit: the report must be named *.json, *.sarif or *.txt, got "
        "'test_user.py'; write --proxy-types-audit=REPORT.json, or put test paths before the option"
    ])


def test_an_unwritable_report_stops_pytest_before_any_test_runs(
    pytester: pytest.Pytester, plugin_env: None
) -> None:
    pytester.makepyfile(test_user=textwrap.dedent(TEST_FILE))
    result = pytester.runpytest_subprocess("-p", "proxy_types._pytest_plugin",
                                           "--proxy-types-audit=nodir/audit.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*--proxy-types-audit: cannot write nodir/audit.json: No such file or directory"])
    assert "passed" not in result.stdout.str() and "test_user.py" not in result.stdout.str()
    assert not (pytester.path / "nodir").exists()


def test_setup_cfg_registers_the_plugin_for_pytest() -> None:
    parser = configparser.ConfigParser()
    parser.read(REPO / "setup.cfg", encoding="utf-8")
    entries = [line.strip() for line in parser["options.entry_points"]["pytest11"].splitlines()
               if line.strip()]
    assert entries == ["proxy_types = proxy_types._pytest_plugin"]
    packages = parser["options"]["packages"].split()
    assert "proxy_types.audit" in packages


def test_the_installed_wheel_loads_the_plugin_and_the_command(tmp_path: Path) -> None:
    """Built and installed for real: pytest finds the plugin through its entry point."""
    wheel = build_wheel(tmp_path)
    entry_points = zipfile.ZipFile(wheel).read(
        "proxy_types-0.1.0.dist-info/entry_points.txt").decode()
    assert "[pytest11]\nproxy_types = proxy_types._pytest_plugin" in entry_points
    target = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
         "--target", str(target), str(wheel)],
        capture_output=True, text=True, check=False, timeout=600,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    project = tmp_path / "project"
    project.mkdir()
    (project / ".git").mkdir()
    (project / "test_user.py").write_text(textwrap.dedent(TEST_FILE), encoding="utf-8")
    env: dict[str, Any] = {key: value for key, value in os.environ.items()
                           if key not in ("PYTHONPATH", "PYTEST_DISABLE_PLUGIN_AUTOLOAD")}
    env["PYTHONPATH"] = str(target)  # before the venv's own copy of the package
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--proxy-types-audit"],
        cwd=project, env=env, capture_output=True, text=True, check=False, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "proxy-types audit: 1 records, 1 calls" in result.stdout
    assert str(target) in subprocess.run(
        [sys.executable, "-c", "import proxy_types; print(proxy_types.__file__)"],
        cwd=project, env=env, capture_output=True, text=True, check=True).stdout
    (project / "script.py").write_text("import proxy_types\nisinstance(proxy_types.proxy(2), int)\n")
    command = subprocess.run([sys.executable, "-m", "proxy_types.audit", "script.py"],
                             cwd=project, env=env, capture_output=True, text=True, check=False)
    assert command.returncode == 0 and "script.py:2:1" in command.stderr, command.stderr
