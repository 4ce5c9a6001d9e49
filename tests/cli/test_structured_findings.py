"""The plugin's reports as data, end to end: rendered, emitted, collected, in the JSON, planned.

Every report kind (``findings.ALL_KINDS``) is triggered in one project; the
command line's JSON carries each finding's report, the report rendered again
gives mypy's message, and ``fix`` plans each finding from that data alone.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mypy_plugin import findings
from mypy_plugin.cli.check import Finding, run_check
from mypy_plugin.cli.confidence import confidence, kept, with_min_confidence
from mypy_plugin.errors import render
from mypy_plugin.findings import Reason, Report

RunCli = Callable[..., subprocess.CompletedProcess[str]]

CONFIG = """\
[mypy]
plugins = mypy_plugin

[mypy.plugins.proxy_types]
migrate_classes = kinds_lib.Legacy
strict_isinstance = true
dynamic_number_classes = kinds_lib.make_proxy, kinds_lib.Nope, absent_lib.Number
concretizing_functions = kinds_lib.pyval
"""

LIB = """\
from __future__ import annotations

import numbers

from proxy_types import FloatProxy


class Legacy(float):
    pass


def make_proxy() -> float:
    return 1.0


def pyval(x: object) -> object:
    return x


class Both(FloatProxy, float):
    pass


def checks_number(n: float) -> float:
    return float(n)


numbers.Real.register(FloatProxy)
"""

CASES = """\
from __future__ import annotations

from typing import cast

from proxy_types import BoolProxy, FloatProxy, IntegerProxy

import absent_lib  # type: ignore[import-not-found]
from kinds_lib import Legacy, checks_number, pyval


def isinstance_check(x: float | FloatProxy) -> bool:
    return isinstance(x, float)


def legacy_check(x: Legacy) -> bool:
    return isinstance(x, float)


def maybe_legacy(x: float) -> bool:
    return isinstance(x, float)


def conversion(p: FloatProxy) -> float:
    return float(p)


def condition(n: IntegerProxy) -> int:
    if n >= 0:
        return 1
    return 0


def bool_condition(flag: BoolProxy) -> int:
    if flag:
        return 1
    return 0


def casted(p: FloatProxy) -> float:
    return cast(float, p)


def items(sizes: list[IntegerProxy]) -> bool:
    return all(s > 0 for s in sizes)


def read(p: FloatProxy) -> object:
    return pyval(p)


def keyed(p: FloatProxy) -> dict[FloatProxy, int]:
    return {p: 1}


def formatted(p: FloatProxy) -> str:
    return f"{p:.2f}"


def passed_on(p: FloatProxy) -> float:
    return checks_number(p)  # type: ignore[arg-type]
"""

# In a module of its own, run by the round-trip tests only.
TYPE_CASES = """\
from __future__ import annotations

from proxy_types import FloatProxy


def exact_type(x: float | FloatProxy) -> bool:
    return type(x) is float
"""

# What fix does with each kind: a rewrite, or the start of the reason it gives.
PLANNED = {
    findings.ISINSTANCE: None,
    findings.ISINSTANCE_LEGACY_BASE: None,
    findings.ISINSTANCE_MAYBE_LEGACY: None,
    findings.CONVERSION: None,
    findings.CONDITION: "a condition needs a decision",
    findings.BOOL_CONDITION: "a condition needs a decision",
    findings.CAST: "cast() hides a dynamic number",
    findings.ITEMS_TRUTH: "a condition needs a decision",
    findings.CONCRETIZING_CALL: "a concretizing_functions helper",
    findings.HASHING: "a dynamic number as a key",
    findings.FORMAT_SPEC: "a format spec needs the value",
    findings.TYPE_COMPARISON: "a type() comparison",
    findings.STATIC_AND_DYNAMIC_BASES: "a class definition",
    findings.LEGACY_STATIC_BASE: "a legacy proxy class",
    findings.ABC_REGISTER: "replace the ABC registration",
    findings.CONFIG_NOT_A_CLASS: "a configuration entry",
    findings.CONFIG_NO_SUCH_CLASS: "a configuration entry",
    findings.UNRESOLVED_MODULE: "mypy cannot find a module",
    findings.INTERNAL_ERROR: "a check of the plugin failed",
    findings.FLOW_TOO_LARGE: "a function too large to follow",
    findings.CALL_REACHES_SINK: "an argument reaches a sink inside the callee",
    findings.TENSOR_CONDITION: "tensor data as a condition",
    findings.FORMAT_TEXT: "text of a torch dynamic number",
    findings.STATIC_SCHEMA_ARGUMENT: "a dynamic number for an operator's static parameter",
}
# Needs a failing check: test_an_internal_error_round_trips injects one.
# A function too large to follow: tests/plugin/test_flow_limits.py.
# Tensor data as a condition needs torch and symbolic_shapes:
# tests/plugin/cases/calls/calls_conditions.py.  So does the text of a SymInt:
# tests/plugin/cases/specialize/specialize_text.py.  So does an operator's static parameter:
# tests/plugin/cases/calls/calls_schema_arguments.py.
END_TO_END_KINDS = set(findings.ALL_KINDS) - {findings.INTERNAL_ERROR, findings.FLOW_TOO_LARGE,
                                              findings.TENSOR_CONDITION, findings.FORMAT_TEXT,
                                              findings.STATIC_SCHEMA_ARGUMENT}
#: Kinds check reports at the settings file (the entries it looks up itself).
SETTINGS_KINDS = {findings.CONFIG_NOT_A_CLASS, findings.CONFIG_NO_SUCH_CLASS,
                  findings.UNRESOLVED_MODULE}
#: Of those, the kinds the plugin reports in checked modules only under plain mypy.
ONLY_AT_SETTINGS = {findings.CONFIG_NOT_A_CLASS, findings.CONFIG_NO_SUCH_CLASS}


def make_project(directory: Path, *, every_kind: bool = False) -> Path:
    (directory / "mypy.ini").write_text(CONFIG, encoding="utf-8")
    (directory / "kinds_lib.py").write_text(LIB, encoding="utf-8")
    (directory / "kinds_cases.py").write_text(CASES, encoding="utf-8")
    if every_kind:
        (directory / "kinds_types.py").write_text(TYPE_CASES, encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def document(tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli) -> tuple[Path, Any]:
    project = make_project(tmp_path_factory.mktemp("kinds"), every_kind=True)
    result = run_cli("check", "--format", "json", ".", cwd=project)
    assert result.returncode == 1, result.stderr
    return project, json.loads(result.stdout)


def plugin_findings(document: Any) -> list[dict[str, Any]]:
    return [f for f in document["findings"] if str(f["code"]).startswith("proxy-")]


def test_every_report_kind_reaches_the_json(document: tuple[Path, Any]) -> None:
    assert set(PLANNED) == set(findings.ALL_KINDS)
    found = plugin_findings(document[1])
    assert {f["kind"] for f in found} == END_TO_END_KINDS
    for finding in found:
        assert finding["report"]["kind"] == finding["kind"]
        assert finding["reason"] == finding["report"]["reason"]
    mypy_own = [f for f in document[1]["findings"] if f not in found]
    assert all("kind" not in f and "report" not in f for f in mypy_own)


def test_the_report_in_the_json_renders_the_message(document: tuple[Path, Any]) -> None:
    for data in plugin_findings(document[1]):
        finding = Finding.from_dict(data)
        assert finding.report is not None
        assert render(finding.report) == data["message"], data
        assert finding.as_dict() == data  # the JSON is all there is to the finding


def test_fix_plans_every_kind_from_the_json(document: tuple[Path, Any],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("libcst")
    from mypy_plugin.cli.fix.model import Options
    from mypy_plugin.cli.fix.plan import PlanSettings, plan_fixes

    project, data = document
    monkeypatch.chdir(project)
    # check reports the settings' entries at the settings file, which fix never rewrites.
    at_settings = [f for f in plugin_findings(data) if f["file"] == "mypy.ini"]
    assert {f["kind"] for f in at_settings} == SETTINGS_KINDS
    parsed = [Finding.from_dict(f) for f in plugin_findings(data) if f not in at_settings]
    options = Options(legacy_classes=("kinds_lib.Legacy",),
                      configured_classes=("kinds_lib.make_proxy", "kinds_lib.Nope"))
    plans, failures = plan_fixes(parsed, PlanSettings(options), annotations=False)
    assert failures == []
    outcomes = [o for plan in plans for o in plan.outcomes]
    assert len(outcomes) == len({(f.file, f.line, f.column, f.code, f.message) for f in parsed})
    seen = set()
    for outcome in outcomes:
        report = outcome.finding.report
        assert report is not None
        seen.add(report.kind)
        reason = PLANNED[report.kind]
        if reason is None:
            assert outcome.kind is not None, (report.kind, outcome.reason)
        else:
            assert outcome.kind is None and outcome.reason is not None
            assert outcome.reason.startswith(reason), (report.kind, outcome.reason)
    assert seen == END_TO_END_KINDS - ONLY_AT_SETTINGS


def test_sarif_results_carry_the_report(tmp_path: Path, run_cli: RunCli) -> None:
    project = make_project(tmp_path)
    result = run_cli("check", "--format", "sarif", "kinds_cases.py", cwd=project)
    results = json.loads(result.stdout)["runs"][0]["results"]
    ours = [r for r in results if r["ruleId"].startswith("proxy-")]
    assert ours and all(r["properties"]["kind"] in findings.ALL_KINDS for r in ours)
    assert all("reason" in r["properties"] for r in ours)
    flows = [r for r in ours if r["properties"]["kind"] == findings.CALL_REACHES_SINK]
    assert len(flows) == 1 and "codeFlows" not in [r for r in ours if r not in flows][0]
    steps = flows[0]["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [step["location"]["message"]["text"] for step in steps] == [
        "p passed to checks_number()", "float(n) in kinds_lib.checks_number"]
    assert steps[1]["location"]["physicalLocation"]["artifactLocation"]["uri"] == "kinds_lib.py"


def test_errors_replayed_from_a_plain_mypy_cache_get_their_reports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli_env: dict[str, str]
) -> None:
    """mypy replays a cached module's errors without checking it: no report is emitted.

    The command line then has mypy check those files again (their cache is
    found stale); the other modules keep theirs.  A cache plain mypy wrote is
    not check's (check's also holds hidden findings): its modules are checked.
    The next run finds the reports check stored beside the cache and runs mypy once.
    """
    from mypy import api

    project = make_project(tmp_path)
    (project / "clean.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.setenv("MYPYPATH", cli_env["MYPYPATH"])
    cold = run_check(["."], None, str(tmp_path / "cold-cache"))
    assert cold.rechecked == [] and cold.mypy_runs == 1  # every module checked
    cache = str(tmp_path / "cache")
    api.run(["--cache-dir", cache, "."])  # plain mypy writes the cache
    after_plain = run_check(["."], None, cache)
    assert after_plain.rechecked == []  # plain mypy's cache entries are not check's
    assert [f.as_dict() for f in after_plain.findings] == [f.as_dict() for f in cold.findings]
    warm = run_check(["."], None, cache)  # check's own cache: errors replayed
    plugin = [f for f in warm.findings if f.is_plugin_finding]
    assert plugin and all(f.report is not None for f in plugin)
    assert warm.rechecked == [] and warm.mypy_runs == 1  # the stored reports serve
    assert [f.as_dict() for f in warm.findings] == [f.as_dict() for f in cold.findings]
    again = run_check(["."], None, cache)
    assert again.rechecked == [] and again.mypy_runs == 1
    assert [f.as_dict() for f in again.findings] == [f.as_dict() for f in cold.findings]


# -- --min-confidence ----------------------------------------------------------


def finding_with(reason: Reason | None, code: str = "proxy-isinstance") -> Finding:
    report = Report(code, findings.ISINSTANCE, "SymInt", "isinstance", ("builtins.int",),
                    reason=reason)
    return Finding("m.py", 1, 1, None, None, "error", code, "message", report=report)


def test_confidence_levels_order_the_reason_sources() -> None:
    declared = finding_with(Reason("declared", 'declared as "SymInt"'))
    flow = [finding_with(Reason(source)) for source in ("flow", "shape", "base")]
    anything = finding_with(Reason("any", 'typed "Any"'))
    unknown = finding_with(None)
    mypy_error = Finding("m.py", 2, 1, None, None, "error", "arg-type", "message")
    assert [confidence(f) for f in (declared, *flow, anything, unknown)] == [
        "declared", "flow", "flow", "flow", "any", "declared"]
    everything = [declared, *flow, anything, unknown, mypy_error]
    assert kept(everything, "any") == everything
    assert kept(everything, "flow") == [declared, *flow, unknown, mypy_error]
    assert kept(everything, "declared") == [declared, unknown, mypy_error]


def test_min_confidence_clears_the_exit_status_when_no_error_is_left(tmp_path: Path) -> None:
    from mypy_plugin.cli.project_config import ChosenConfig

    config = ChosenConfig("mypy.ini", "mypy.ini", "mypy.ini", False)
    from mypy_plugin.cli.check import CheckResult

    result = CheckResult([finding_with(Reason("any"))], 1, config)
    assert with_min_confidence(result, "flow").exit_status == 0
    assert with_min_confidence(result, "any").exit_status == 1
    with_mypy = CheckResult([finding_with(Reason("any")),
                             Finding("m.py", 2, 1, None, None, "error", "arg-type", "x")], 1, config)
    assert with_min_confidence(with_mypy, "declared").exit_status == 1


def test_min_confidence_on_the_command_line(tmp_path: Path, run_cli: RunCli) -> None:
    project = make_project(tmp_path)
    everything = json.loads(run_cli("check", "--format", "json", ".", cwd=project).stdout)
    declared = json.loads(run_cli("check", "--format", "json", "--min-confidence", "declared",
                                  ".", cwd=project).stdout)
    sure = [f for f in plugin_findings(everything)
            if f["reason"] is None or f["reason"]["source"] == "declared"]
    assert plugin_findings(declared) == sure
    bad = run_cli("check", "--min-confidence", "likely", ".", cwd=project)
    assert bad.returncode == 2 and "likely" in bad.stderr


def test_strict_isinstance_findings_on_any_are_the_least_sure(tmp_path: Path,
                                                               run_cli: RunCli) -> None:
    project = make_project(tmp_path)
    (project / "loose.py").write_text(
        "from typing import Any\n\n\ndef f(x: Any) -> bool:\n    return isinstance(x, int)\n",
        encoding="utf-8")
    found = plugin_findings(json.loads(
        run_cli("check", "--format", "json", "loose.py", cwd=project).stdout))
    # The settings' bad entries are reported too, in every run: at mypy.ini.
    assert {f["file"] for f in found} == {"loose.py", "mypy.ini"}
    assert [f["reason"]["source"] for f in found if f["file"] == "loose.py"] == ["any"]


def test_reports_are_collected_when_the_config_asks_for_workers(tmp_path: Path,
                                                               run_cli: RunCli) -> None:
    project = make_project(tmp_path)
    config = project / "mypy.ini"
    config.write_text(CONFIG.replace("[mypy]\n", "[mypy]\nnum_workers = 2\n"), encoding="utf-8")
    result = run_cli("check", "--format", "json", "kinds_cases.py", cwd=project)
    found = plugin_findings(json.loads(result.stdout))
    assert found and all(f["report"] is not None for f in found)


def test_an_internal_error_round_trips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing check's proxy-internal line carries its report to the JSON and to fix."""
    pytest.importorskip("libcst")
    from mypy_plugin.checks import isinstance_calls
    from mypy_plugin.cli.check import run_check
    from mypy_plugin.cli.fix.model import Options
    from mypy_plugin.cli.fix.plan import PlanSettings, plan_fixes

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("injected failure")

    project = make_project(tmp_path)
    monkeypatch.chdir(project)
    monkeypatch.delenv("PROXY_TYPES_DEBUG", raising=False)
    monkeypatch.setattr(isinstance_calls, "check_isinstance_call", broken)
    result = run_check(["kinds_cases.py"], None, str(tmp_path / "cache"))
    internal = [f for f in result.findings if f.code == "proxy-internal"]
    assert internal and all(f.report is not None for f in internal)
    report = internal[0].report
    assert report is not None and report.kind == findings.INTERNAL_ERROR
    assert render(report) == internal[0].message
    again = Finding.from_dict(json.loads(json.dumps(internal[0].as_dict())))
    assert again.report == report
    plans, failures = plan_fixes([again], PlanSettings(Options()), annotations=False)
    assert failures == []
    (outcome,) = [o for plan in plans for o in plan.outcomes]
    assert outcome.kind is None and outcome.reason is not None
    planned = PLANNED[findings.INTERNAL_ERROR]
    assert planned is not None and outcome.reason.startswith(planned)
