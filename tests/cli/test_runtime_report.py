"""``check --runtime-report``: static findings confirmed by a real runtime audit, and the rest.

The audit report comes from ``python -m proxy_types.audit`` run on the same
project: one isinstance the plugin sees (a parameter typed ``IntegerProxy``)
and one it cannot (the class comes from a variable at run time).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mypy_plugin.cli.common import CommandLineError
from mypy_plugin.cli.runtime_report import RuntimeRecord, join, read_runtime_report

RunCli = Callable[..., subprocess.CompletedProcess[str]]

MODEL = """\
from __future__ import annotations

from proxy_types import IntegerProxy, trace


def static_kind(n: IntegerProxy) -> str:
    if isinstance(n, int):
        return "int"
    return "other"


def chosen_at_run_time(n: object, kind: type) -> bool:
    return isinstance(n, kind)


def clean(n: IntegerProxy) -> int:
    return 1


if __name__ == "__main__":
    with trace():
        n = IntegerProxy("n", 3)
        static_kind(n)
        chosen_at_run_time(n, int)
        clean(n)
"""


@pytest.fixture
def project(tmp_path: Path, cli_env: dict[str, str]) -> Path:
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\nplugins = mypy_plugin\n", encoding="utf-8")
    audited = subprocess.run(
        [sys.executable, "-m", "proxy_types.audit", "--no-config", "--output", "audit.json",
         "model.py"],
        cwd=tmp_path, env=cli_env, capture_output=True, text=True, timeout=300,
    )
    assert audited.returncode == 0, audited.stderr
    return tmp_path


def test_static_findings_are_confirmed_and_runtime_only_merges_listed(
    project: Path, run_cli: RunCli
) -> None:
    result = run_cli("check", "--format", "json", "--runtime-report", "audit.json", "model.py",
                     cwd=project)
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout)
    ours = [f for f in document["findings"] if str(f["code"]).startswith("proxy-")]
    assert [(f["line"], f["confirmed_at_runtime"]) for f in ours] == [(7, True)]
    assert [(r["line"], r["code"], r["source"]) for r in document["runtime_only"]] == [
        (13, "proxy-isinstance", "runtime")]


def test_text_report_names_the_confirmation_and_the_runtime_only_line(
    project: Path, run_cli: RunCli
) -> None:
    result = run_cli("check", "--runtime-report", "audit.json", "model.py", cwd=project)
    assert "model.py:7:8: note: confirmed at run time (1x): False" in result.stdout
    assert ("runtime audit: 1 of 1 plugin findings confirmed at run time; 1 merge seen at run "
            "time only") in result.stdout
    assert "model.py:13:" in result.stdout and ": runtime: " in result.stdout


def test_sarif_marks_confirmation_and_adds_runtime_results(project: Path, run_cli: RunCli) -> None:
    result = run_cli("check", "--format", "sarif", "--runtime-report", "audit.json", "model.py",
                     cwd=project)
    results = json.loads(result.stdout)["runs"][0]["results"]
    static = [r for r in results if r["properties"].get("source") != "runtime"]
    runtime = [r for r in results if r["properties"].get("source") == "runtime"]
    assert [r["properties"]["confirmedAtRuntime"] for r in static] == [True]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in runtime] == [13]


def test_without_the_option_nothing_about_the_runtime_appears(
    project: Path, run_cli: RunCli
) -> None:
    result = run_cli("check", "--format", "json", "model.py", cwd=project)
    document = json.loads(result.stdout)
    assert "runtime_only" not in document
    assert all("confirmed_at_runtime" not in f for f in document["findings"])


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "cannot read runtime report"),
        ("{not json", "is not JSON"),
        ('{"findings": []}', "is not a runtime audit report"),
        ('{"source": "runtime"}', 'has no "findings" list'),
        ('{"source": "runtime", "findings": [{"line": 3}]}', "finding 0 is malformed"),
    ],
)
def test_a_bad_report_is_one_line(tmp_path: Path, content: str | None, expected: str) -> None:
    path = tmp_path / "audit.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandLineError, match=expected) as raised:
        read_runtime_report(str(path))
    assert "\n" not in str(raised.value)


def test_bad_report_exits_2_before_mypy_runs(tmp_path: Path, run_cli: RunCli) -> None:
    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "audit.json").write_text("[]", encoding="utf-8")
    result = run_cli("check", "--runtime-report", "audit.json", "a.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().startswith("proxy-types: error: runtime report audit.json")
    assert result.stdout == ""


def test_join_matches_by_resolved_file_and_line(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    record = RuntimeRecord("./pkg/../m.py", 5, 1, "proxy-isinstance", "m", "returned False", 2)
    other = RuntimeRecord("m.py", 6, 1, "proxy-concretize", "m", "returned 3", 1)
    joined = join({(str(tmp_path / "m.py"), 5)}, [record, other])
    assert joined.confirms("m.py", 5) == [record]
    assert joined.confirms("m.py", 6) == []
    assert joined.runtime_only == [other]


def test_merges_only_the_audit_saw_make_a_clean_check_fail(project: Path, run_cli: RunCli) -> None:
    (project / "clean.py").write_text("x: int = 1\n", encoding="utf-8")
    result = run_cli("check", "--runtime-report", "audit.json", "clean.py", cwd=project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "0 of 0 plugin findings confirmed at run time; 2 merges seen at run time only" in \
        result.stdout
    (project / "empty.json").write_text('{"source": "runtime", "findings": []}', encoding="utf-8")
    quiet = run_cli("check", "--runtime-report", "empty.json", "clean.py", cwd=project)
    assert quiet.returncode == 0, quiet.stdout + quiet.stderr
