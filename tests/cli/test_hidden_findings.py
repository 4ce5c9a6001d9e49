"""``check`` says how many findings the settings hid, and how to see them (issue #28)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

RunCli = Callable[..., subprocess.CompletedProcess[str]]  # the run_cli fixture
SarifProblems = Callable[[Any], list[str]]  # the sarif_problems fixture

# Line 5 specializes on a comparison, line 7 converts: both proxy-specialize.
SPECIALIZING = """\
import torch


def f(n: torch.SymInt) -> int:
    if n > 3:
        return 1
    return int(n)
"""

CLEAN = """\
def g(x: int) -> int:
    return x + 1
"""

CASTING = """\
from typing import cast

from proxy_types import FloatProxy


def f(p: float | FloatProxy) -> float:
    return cast(float, p)
"""

PLUGIN_CONFIG = "[mypy]\nplugins = mypy_plugin\n"


def check(cli_env: dict[str, str], project: Path, cache: Path, *args: str
          ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy_plugin", "check", "--cache-dir", str(cache), *args],
        cwd=project, env=cli_env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def torch_project(cli_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
                  ) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """A project with the two SymInt sites, and its first (cold) run."""
    pytest.importorskip("torch")  # mypy reads torch's SymInt from the installed package
    project = tmp_path_factory.mktemp("symint")
    (project / "sym.py").write_text(SPECIALIZING, encoding="utf-8")
    (project / "clean.py").write_text(CLEAN, encoding="utf-8")
    cache = project.parent / f"{project.name}-cache"
    return project, cache, check(cli_env, project, cache, "sym.py", "clean.py")


def test_hidden_proxy_specialize_findings_are_counted(
        torch_project: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    _, _, result = torch_project
    assert result.returncode == 0, result.stderr  # the documented status: nothing shown
    lines = result.stdout.splitlines()
    assert "Success: no issues found" not in lines
    hidden = [line for line in lines if line.startswith("Hidden:")]
    assert hidden == [
        "Hidden: 2 proxy-specialize findings (off by default; enable_error_code = "
        "proxy-specialize in the plugin's settings, or proxy-types check --preset torch-compile, "
        "shows them)"]
    assert "proxy-hidden" not in result.stdout + result.stderr
    assert "sym.py:" not in result.stdout  # counted, not shown


def test_warm_run_counts_them_again(
        cli_env: dict[str, str],
        torch_project: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    project, cache, _ = torch_project
    warm = check(cli_env, project, cache, "--format", "json", "sym.py", "clean.py")
    document = json.loads(warm.stdout)
    assert document["hidden"] == {"codes": {"proxy-specialize": 2}, "below_min_confidence": 0,
                                  "by_tracers": {}}
    assert document["findings"] == [] and document["exit_status"] == 0


def test_plain_mypy_over_the_same_cache_shows_nothing_hidden(
        cli_env: dict[str, str],
        torch_project: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    project, cache, _ = torch_project
    default = Path(__file__).resolve().parents[2] / "mypy_plugin" / "default.ini"
    plain = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(default), "--cache-dir", str(cache),
         "sym.py", "clean.py"],
        cwd=project, env=cli_env, capture_output=True, text=True, timeout=600)
    assert plain.stdout == "Success: no issues found in 2 source files\n", plain.stdout


def test_enabled_findings_are_shown_not_hidden(
        cli_env: dict[str, str],
        torch_project: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    project, cache, _ = torch_project
    enabled = project / "enabled.py"
    enabled.write_text('# mypy: enable-error-code="proxy-specialize"\n' + SPECIALIZING,
                       encoding="utf-8")
    try:
        result = check(cli_env, project, cache, "enabled.py")
    finally:
        enabled.unlink()
    assert result.returncode == 1
    shown = [line for line in result.stdout.splitlines() if "[proxy-specialize]" in line]
    assert [line.split(":")[1] for line in shown] == ["6", "8"]
    assert "Hidden:" not in result.stdout


def test_no_hidden_line_without_hidden_findings(
        cli_env: dict[str, str],
        torch_project: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    project, cache, _ = torch_project
    result = check(cli_env, project, cache, "clean.py")
    assert result.returncode == 0
    assert result.stdout.startswith("Success: no issues found\n")
    assert "Hidden" not in result.stdout


def write_project(directory: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (directory / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return directory


def test_a_disabled_code_is_counted(tmp_path: Path, run_cli: RunCli) -> None:
    project = write_project(tmp_path, {
        "mypy.ini": PLUGIN_CONFIG + "disable_error_code = proxy-cast\n", "casting.py": CASTING})
    result = run_cli("check", "casting.py", cwd=project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert ("Hidden: 1 proxy-cast finding (disabled in the mypy config: disable_error_code or "
            "a # mypy: comment)") in result.stdout.splitlines()
    (project / "mypy.ini").write_text(PLUGIN_CONFIG, encoding="utf-8")
    shown = run_cli("check", "casting.py", cwd=project)
    assert shown.returncode == 1 and "[proxy-cast]" in shown.stdout
    assert "Hidden" not in shown.stdout


def test_min_confidence_says_what_it_left_out(tmp_path: Path, run_cli: RunCli) -> None:
    project = write_project(tmp_path, {
        "mypy.ini": PLUGIN_CONFIG + "\n[mypy.plugins.proxy_types]\nstrict_isinstance = True\n",
        "loose.py": """\
            from typing import Any


            def f(x: Any) -> bool:
                return isinstance(x, int)
            """})
    sure = run_cli("check", "--min-confidence", "declared", "loose.py", cwd=project)
    assert sure.returncode == 0
    assert ("Hidden: 1 finding below --min-confidence declared (--min-confidence any shows "
            "them)") in sure.stdout.splitlines()
    assert "Success: no issues found\n" not in sure.stdout
    everything = run_cli("check", "loose.py", cwd=project)
    assert everything.returncode == 1 and "[proxy-isinstance]" in everything.stdout
    assert "Hidden" not in everything.stdout


def sarif_hidden(document: dict[str, Any]) -> tuple[object, list[str], list[object]]:
    """The run's hidden counts, its notes' texts and their descriptors' ids."""
    run = document["runs"][0]
    notes = run["invocations"][0]["toolExecutionNotifications"]
    return (run["properties"]["hidden"], [note["message"]["text"] for note in notes],
            [note.get("descriptor", {}).get("id") for note in notes])


def test_sarif_carries_the_hidden_counts(
        cli_env: dict[str, str], sarif_problems: SarifProblems,
        torch_project: tuple[Path, Path, subprocess.CompletedProcess[str]]) -> None:
    project, cache, text_run = torch_project
    result = check(cli_env, project, cache, "--format", "sarif", "sym.py", "clean.py")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert sarif_problems(document) == []
    hidden, notes, ids = sarif_hidden(document)
    assert hidden == {"codes": {"proxy-specialize": 2}, "belowMinConfidence": 0,
                      "minConfidence": "any", "byTracers": {}}
    # The same lines as the text summary's.
    assert notes == [line for line in text_run.stdout.splitlines() if line.startswith("Hidden:")]
    assert ids == ["proxy-specialize"]
    assert document["runs"][0]["invocations"][0]["executionSuccessful"] is True
    assert document["runs"][0]["results"] == []
    clean = json.loads(check(cli_env, project, cache, "--format", "sarif", "clean.py").stdout)
    assert sarif_hidden(clean) == ({"codes": {}, "belowMinConfidence": 0,
                                    "minConfidence": "any", "byTracers": {}}, [], [])


def test_sarif_carries_what_min_confidence_left_out(
        tmp_path: Path, run_cli: RunCli, sarif_problems: SarifProblems) -> None:
    project = write_project(tmp_path, {
        "mypy.ini": PLUGIN_CONFIG + "\n[mypy.plugins.proxy_types]\nstrict_isinstance = True\n",
        "loose.py": "from typing import Any\n\n\ndef f(x: Any) -> bool:\n"
                    "    return isinstance(x, int)\n"})
    sure = run_cli("check", "--format", "sarif", "--min-confidence", "declared", "loose.py",
                   cwd=project)
    document = json.loads(sure.stdout)
    assert sarif_problems(document) == []
    assert sarif_hidden(document) == (
        {"codes": {}, "belowMinConfidence": 1, "minConfidence": "declared", "byTracers": {}},
        ["Hidden: 1 finding below --min-confidence declared (--min-confidence any shows them)"],
        [None])
    everything = json.loads(run_cli("check", "--format", "sarif", "loose.py",
                                    cwd=project).stdout)
    assert sarif_hidden(everything)[0] == {"codes": {}, "belowMinConfidence": 0,
                                           "minConfidence": "any", "byTracers": {}}
    assert [r["ruleId"] for r in everything["runs"][0]["results"]] == ["proxy-isinstance"]


# Line 5 sorts a SymInt into the wrong branch under make_fx and export only; line 7
# installs a guard under every tracer.
CHECKED_AS_INT = """\
import torch


def f(n: torch.SymInt) -> int:
    if isinstance(n, int):
        return n
    return int(n)
"""


def test_findings_harmless_under_the_tracers_run_are_counted(
        cli_env: dict[str, str], tmp_path: Path) -> None:
    pytest.importorskip("torch")
    project = write_project(tmp_path, {"checked.py": CHECKED_AS_INT})
    config = project / "mypy.ini"
    cache = tmp_path / "cache"
    settings = PLUGIN_CONFIG + ("\n[mypy.plugins.proxy_types]\nenable_error_code = "
                                "proxy-specialize\ntracers = {}\n")
    config.write_text(settings.format("compile"), encoding="utf-8")
    result = check(cli_env, project, cache, "--format", "json", "checked.py")
    document = json.loads(result.stdout)
    assert [(f["line"], f["code"]) for f in document["findings"]] == [(7, "proxy-specialize")]
    assert document["hidden"] == {"codes": {"proxy-isinstance": 1}, "below_min_confidence": 0,
                                  "by_tracers": {"proxy-isinstance": 1}}
    text = check(cli_env, project, cache, "checked.py").stdout.splitlines()
    assert [line for line in text if line.startswith("Hidden:")] == [
        "Hidden: 1 proxy-isinstance finding (harmless under each tracer the tracers setting "
        "names; list the other tracers the project runs there to see them)"]
    config.write_text(settings.format("compile, export"), encoding="utf-8")
    shown = check(cli_env, project, cache, "checked.py")
    assert shown.returncode == 1
    assert "checked.py:5:8: error: isinstance() against static number classes (int) " \
        "misclassifies" in shown.stdout
    assert "(fails under export)  [proxy-isinstance]" in shown.stdout
    assert "Hidden" not in shown.stdout
