"""``proxy-types check`` end to end: real mypy, real plugin, in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

RunCli = Callable[..., subprocess.CompletedProcess[str]]  # the run_cli fixture


CLEAN = """\
from proxy_types import IntegerProxy, is_static_number, to_static


def width(n: int | IntegerProxy) -> int:
    if is_static_number(n):
        return n
    return to_static(n)
"""

# Line 5 holds the proxy-isinstance finding, line 7 an ordinary mypy error.
FINDINGS = """\
from proxy_types import FloatProxy


def scale(p: float | FloatProxy) -> str:
    if isinstance(p, float):
        return "constant"
    count: int = "many"
    return count
"""


def write(directory: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text), encoding="utf-8")
    return directory


def summary_rows(stdout: str) -> dict[str, int]:
    """The ``  code  count`` rows under the summary heading of the text report."""
    rows: dict[str, int] = {}
    heading_seen = False
    for line in stdout.splitlines():
        if line.startswith("proxy-types summary"):
            heading_seen = True
        elif heading_seen and line.startswith("  "):
            label, _, count = line.strip().rpartition(" ")
            rows[label.strip()] = int(count)
    return rows


def test_clean_project_with_no_config_uses_embedded_default(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {"clean.py": CLEAN})
    result = run_cli("check", "clean.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "config: embedded default" in result.stdout
    rows = summary_rows(result.stdout)
    assert rows["proxy-isinstance"] == 0 and rows["other mypy errors"] == 0
    assert set(rows) >= {"proxy-isinstance", "proxy-concretize", "proxy-base"}
    assert result.stdout.startswith("Success: no issues found\n")


def test_version(run_cli: RunCli, tmp_path: Path) -> None:
    from proxy_types._sarif import tool_version

    result = run_cli("--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    checkout = Path(__file__).resolve().parents[2] / "proxy_types"
    guards = ("guards: compiled (proxy_types._speedups)"
              if any(checkout.glob("_speedups*.so")) or any(checkout.glob("_speedups*.pyd"))
              else "guards: pure Python (proxy_types._speedups is not built: no C compiler "
                   "at install time?)")
    assert result.stdout == f"proxy-types {tool_version()}\n{guards}\n"


BUILD_SPEEDUPS = """\
from setuptools import Extension, setup
setup(name="speedups", script_args=["-q", "build_ext", "--inplace"],
      ext_modules=[Extension("proxy_types._speedups", ["proxy_types/_speedups.c"])])
"""


def test_version_says_when_the_guards_are_compiled(cli_env: dict[str, str],
                                                     tmp_path: Path) -> None:
    import shutil

    from proxy_types._sarif import tool_version

    if shutil.which("cc") is None:
        pytest.skip("no C compiler to build proxy_types._speedups")
    repo = Path(__file__).resolve().parents[2]
    shutil.copytree(repo / "proxy_types", tmp_path / "proxy_types",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    build = subprocess.run([sys.executable, "-c", BUILD_SPEEDUPS], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert build.returncode == 0, build.stderr
    env = {**cli_env, "PYTHONPATH": f"{tmp_path}{os.pathsep}{cli_env['PYTHONPATH']}"}
    result = subprocess.run([sys.executable, "-m", "mypy_plugin", "--version"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (f"proxy-types {tool_version()}\n"
                             "guards: compiled (proxy_types._speedups)\n")


def test_findings_are_listed_and_counted(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {"pkg/scale.py": FINDINGS})
    result = run_cli("check", "pkg", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("pkg/scale.py:5:8: error: ") and line.endswith("[proxy-isinstance]")
               for line in lines), result.stdout
    assert any(line.startswith("pkg/scale.py:7:18: error: ") and line.endswith("[assignment]")
               for line in lines), result.stdout
    rows = summary_rows(result.stdout)
    assert rows["proxy-isinstance"] == 1
    assert rows["proxy-concretize"] == 0
    assert rows["other mypy errors"] == 2  # the assignment and the return value
    # mypy's totals line closes the diagnostics, as under plain mypy.
    assert "\nFound 3 errors in 1 file\n\nproxy-types summary" in result.stdout


def test_json_report(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {"scale.py": FINDINGS, "clean.py": CLEAN})
    result = run_cli("check", "--format", "json", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert document["exit_status"] == 1
    findings = document["findings"]
    assert {finding["file"] for finding in findings} == {"scale.py"}
    isinstance_findings = [f for f in findings if f["code"] == "proxy-isinstance"]
    assert len(isinstance_findings) == 1
    finding = isinstance_findings[0]
    assert (finding["line"], finding["column"], finding["severity"]) == (5, 8, "error")
    assert "FloatProxy" in finding["message"]
    assert set(finding) >= {"file", "line", "column", "severity", "code", "message"}
    assert document["summary"]["proxy-isinstance"] == 1
    assert document["summary"]["other mypy errors"] == 2


def test_json_report_of_clean_project_is_empty(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {"clean.py": CLEAN})
    result = run_cli("check", "--format", "json", "clean.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["findings"] == []
    assert set(document["summary"].values()) == {0}


def test_sarif_report_has_what_github_code_scanning_requires(
    run_cli: RunCli, tmp_path: Path, sarif_problems: Callable[[Any], list[str]]
) -> None:
    write(tmp_path, {"src/scale.py": FINDINGS})
    report = tmp_path / "results.sarif"
    result = run_cli("check", "--format", "sarif", "--output", str(report), "src", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout == ""
    document: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    assert sarif_problems(document) == []
    run = document["runs"][0]
    rule_ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert {"proxy-isinstance", "proxy-concretize", "proxy-base"} <= set(rule_ids)
    by_rule = {result["ruleId"]: result for result in run["results"]}
    proxy_result = by_rule["proxy-isinstance"]
    assert rule_ids[proxy_result["ruleIndex"]] == "proxy-isinstance"
    location = proxy_result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "src/scale.py", "uriBaseId": "%SRCROOT%"}
    assert (location["region"]["startLine"], location["region"]["startColumn"]) == (5, 8)
    assert "assignment" in by_rule  # ordinary mypy errors get rules of their own


def test_an_unwritable_output_is_one_line_and_keeps_the_old_report(
    run_cli: RunCli, tmp_path: Path
) -> None:
    write(tmp_path, {"clean.py": CLEAN})
    missing = tmp_path / "no-such-dir" / "report.json"
    result = run_cli("check", "--format", "json", "--output", str(missing), "clean.py",
                     cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"proxy-types: error: cannot write {missing}: No such file or "
                             "directory; no file was written\n")
    old = tmp_path / "report.json"
    old.write_text("old report\n", encoding="utf-8")
    result = run_cli("check", "--format", "json", "--output", str(old), "clean.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(old.read_text(encoding="utf-8"))["findings"] == []
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".report")) == []


def test_existing_config_without_plugin_is_used_with_plugin_added(
    run_cli: RunCli, tmp_path: Path
) -> None:
    write(tmp_path, {
        "mypy.ini": "[mypy]\ndisallow_untyped_defs = True\n",
        "code.py": "def untyped(x):\n    return x\n\n\n" + FINDINGS,
    })
    result = run_cli("check", "--format", "json", "code.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    assert document["config"] == "mypy.ini + mypy_plugin"
    codes = {(f["line"], f["code"]) for f in document["findings"]}
    assert (1, "no-untyped-def") in codes  # the project's own setting still applies
    assert (9, "proxy-isinstance") in codes  # and so does the plugin


def test_pyproject_plugin_settings_carry_over(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {
        "pyproject.toml": '[tool.mypy]\nfiles = ["legacy.py", "new.py"]\n\n'
                          '[tool.proxy_types]\nexempt_modules = ["legacy"]\n',
        "legacy.py": FINDINGS,
        "new.py": FINDINGS,
    })
    result = run_cli("check", "--format", "json", cwd=tmp_path)  # paths from `files`
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    proxy_files = {f["file"] for f in document["findings"] if f["code"] == "proxy-isinstance"}
    assert proxy_files == {"new.py"}
    assert document["config"] == "pyproject.toml + mypy_plugin"


def test_config_that_enables_plugin_is_used_as_is(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {
        "setup.cfg": "[metadata]\nname = demo\n\n[mypy]\nplugins = mypy_plugin\n"
                     "disable_error_code = proxy-isinstance\n",
        "scale.py": FINDINGS,
    })
    result = run_cli("check", "--format", "json", "scale.py", cwd=tmp_path)
    document = json.loads(result.stdout)
    assert document["config"] == "setup.cfg"
    assert [f["code"] for f in document["findings"]] == ["assignment", "return-value"]


def test_forced_config_file(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {
        "mypy.ini": "[mypy]\nplugins = mypy_plugin\ndisable_error_code = proxy-isinstance\n",
        "ci/strict.ini": "[mypy]\nplugins = mypy_plugin\n",
        "scale.py": FINDINGS,
    })
    result = run_cli("check", "--config", "ci/strict.ini", "--format", "json", "scale.py",
                     cwd=tmp_path)
    document = json.loads(result.stdout)
    assert document["config"] == "ci/strict.ini"
    assert "proxy-isinstance" in [f["code"] for f in document["findings"]]


def test_default_config_ignores_the_project_config(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {
        "mypy.ini": "[mypy]\nplugins = mypy_plugin\ndisable_error_code = proxy-isinstance\n",
        "scale.py": FINDINGS,
    })
    project = run_cli("check", "--format", "json", "scale.py", cwd=tmp_path)
    assert "proxy-isinstance" not in [f["code"] for f in json.loads(project.stdout)["findings"]]
    default = run_cli("check", "--default-config", "--format", "json", "scale.py", cwd=tmp_path)
    document = json.loads(default.stdout)
    assert document["config"] == "embedded default"
    text = run_cli("check", "--default-config", "scale.py", cwd=tmp_path).stdout
    assert "proxy-types summary (config: embedded default)" in text
    assert "proxy-isinstance" in [f["code"] for f in document["findings"]]


def test_default_config_and_config_exclude_each_other(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {"mypy.ini": "[mypy]\n", "clean.py": CLEAN})
    line = one_line_error(
        run_cli("check", "--default-config", "--config", "mypy.ini", "clean.py", cwd=tmp_path)
    )
    assert "--default-config" in line


def one_line_error(result: Any) -> str:
    """The single stderr line of a failed run, after checking there is just one."""
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert lines[0].startswith("proxy-types: error: ")
    text: str = lines[0]
    return text


def test_missing_path(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {"clean.py": CLEAN})
    line = one_line_error(run_cli("check", "clean.py", "src/nowhere.py", cwd=tmp_path))
    assert "src/nowhere.py" in line


def test_directory_without_python_files(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    write(tmp_path, {"clean.py": CLEAN})
    line = one_line_error(run_cli("check", "docs", cwd=tmp_path))
    assert "docs" in line


@pytest.mark.parametrize(
    "args, named",
    [
        (["check", "--format", "xml", "."], "xml"),
        (["check", "--no-such-flag", "."], "--no-such-flag"),
        (["lint", "."], "lint"),
        ([], "COMMAND"),
    ],
)
def test_bad_arguments(run_cli: RunCli, tmp_path: Path, args: list[str], named: str) -> None:
    assert named in one_line_error(run_cli(*args, cwd=tmp_path))


def test_forced_config_that_does_not_exist(run_cli: RunCli, tmp_path: Path) -> None:
    write(tmp_path, {"clean.py": CLEAN})
    line = one_line_error(run_cli("check", "--config", "nope.ini", "clean.py", cwd=tmp_path))
    assert "nope.ini" in line


@pytest.mark.parametrize(
    "config_name, config_text, named",
    [
        ("mypy.ini", "plugins = mypy_plugin\n", "mypy.ini"),  # no section header
        ("mypy.ini", "[mypy]\nstrict_optional = maybe\n", "strict_optional"),
        ("pyproject.toml", "[tool.mypy\nstrict = true\n", "pyproject.toml"),
        ("mypy.ini", "[mypy]\nplugins = mypy_plugin\n[mypy.plugins.proxy_types]\n"
                     "strict_isinstance = sometimes\n", "strict_isinstance"),
        ("mypy.ini", "[mypy]\nplugins = mypy_plugin, no_such_plugin_module\n",
         "no_such_plugin_module"),
        ("pyproject.toml", '[tool.mypy]\n\n[tool.proxy_types]\nstrict_isinstance = "yes"\n',
         'strict_isinstance: expected true or false, got "yes"'),
    ],
    ids=["ini-syntax", "mypy-value", "toml-syntax", "plugin-setting", "missing-plugin",
         "toml-plugin-type"],
)
def test_broken_config(
    run_cli: RunCli, tmp_path: Path, config_name: str, config_text: str, named: str
) -> None:
    write(tmp_path, {config_name: config_text, "clean.py": CLEAN})
    line = one_line_error(run_cli("check", "clean.py", cwd=tmp_path))
    assert named in line
    assert config_name in line
    assert line.count("error:") == 1, line


def test_toml_plugin_setting_fails_as_under_plain_mypy(
    run_cli: RunCli, cli_env: dict[str, str], tmp_path: Path
) -> None:
    write(tmp_path, {
        "pyproject.toml": '[tool.mypy]\nplugins = ["mypy_plugin"]\n\n'
                          '[tool.proxy_types]\nexempt_modules = "legacy"\n',
        "clean.py": CLEAN,
    })
    plain = subprocess.run([sys.executable, "-m", "mypy", "clean.py"], cwd=tmp_path,
                           env=cli_env, capture_output=True, text=True, timeout=300)
    assert plain.returncode == 2
    assert "exempt_modules: expected a list of strings" in plain.stderr
    line = one_line_error(run_cli("check", "clean.py", cwd=tmp_path))
    # mypy's line without its "error:": the command line says it once, up front.
    assert line == "proxy-types: error: broken config " + plain.stderr.strip().replace(
        "pyproject.toml:5: error: ", "pyproject.toml:5: ")
    assert line.count("error:") == 1
