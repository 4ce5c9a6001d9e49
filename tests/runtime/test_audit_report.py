"""The audit's reports have the shapes of ``proxy-types check --format json|sarif``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mypy_plugin.cli import check, project_config, report
from mypy_plugin.errors import ALL_CODES
from proxy_types import Audit, ConfigurationError, IntegerProxy, audit
from proxy_types._audit_report import CODES

HERE = Path(__file__).resolve()
RUNTIME_FIELDS = {"source", "count", "operation", "dynamic_class", "classes", "outcome"}


@pytest.fixture
def found(monkeypatch: pytest.MonkeyPatch) -> Audit:
    """An audit with one isinstance merge (twice) and one refused conversion."""
    monkeypatch.chdir(HERE.parent)
    p: Any = IntegerProxy("n", 3)
    with audit(config=False) as session:
        for _ in range(2):
            isinstance(p, int)
        try:
            int(p)
        except TypeError:
            pass
    return session


def check_result() -> check.CheckResult:
    finding = check.Finding("a.py", 3, 5, 3, 9, "error", "proxy-isinstance", "text", "hint")
    config = project_config.ChosenConfig("mypy.ini", "mypy.ini", "mypy.ini", True)
    return check.CheckResult([finding], 1, config)


def test_runtime_codes_are_the_plugins_codes_plus_guards() -> None:
    plugin_codes = {code.code for code in ALL_CODES}
    assert set(CODES) - plugin_codes == {"proxy-guard"}


def test_json_has_the_check_commands_fields_plus_the_runtime_ones(found: Audit) -> None:
    static: dict[str, Any] = json.loads(report.render_json(check_result()))
    runtime: dict[str, Any] = json.loads(found.report("json"))
    assert set(runtime) == set(static) | {"source"}
    assert runtime["source"] == "runtime" and runtime["tool"] == static["tool"]
    static_finding = static["findings"][0]
    assert len(runtime["findings"]) == 2
    for finding in runtime["findings"]:
        assert set(finding) == set(static_finding) | RUNTIME_FIELDS
        for key, value in static_finding.items():
            assert type(finding[key]) is type(value), key
        assert finding["source"] == "runtime" and finding["file"] == HERE.name
    first, second = runtime["findings"]
    assert (first["code"], first["count"], first["classes"], first["outcome"]) == (
        "proxy-isinstance", 2, ["int"], "False")
    assert (second["code"], second["operation"], second["outcome"]) == (
        "proxy-concretize", "__int__", "raised ConcretizationError")
    assert runtime["summary"] == {"proxy-isinstance": 1, "proxy-concretize": 1, "proxy-guard": 0}
    assert runtime["exit_status"] == 1 and runtime["config"] == "no config file found"


def test_an_empty_audit_reports_exit_status_zero() -> None:
    with audit(config=False) as session:
        isinstance(IntegerProxy("n", 1), (int, IntegerProxy))
    document = json.loads(session.report("json"))
    assert (document["findings"], document["exit_status"]) == ([], 0)
    assert "0 records, 0 calls" in session.report("text")


def shape(value: Any) -> Any:
    """Keys of every object, nested; lists by their first item."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(value[0])] if value else []
    return type(value).__name__


def test_sarif_has_the_check_commands_shape(found: Audit, monkeypatch: pytest.MonkeyPatch) -> None:
    static = json.loads(report.render_sarif(check_result()))
    runtime = json.loads(found.report("sarif"))
    assert set(runtime) == set(static)
    assert (runtime["version"], runtime["$schema"]) == (static["version"], static["$schema"])
    (static_run,), (run,) = static["runs"], runtime["runs"]
    assert set(run) | {"invocations"} == set(static_run)  # check alone hides findings
    assert shape(run["tool"]["driver"]["rules"][0]) == shape(static_run["tool"]["driver"]["rules"][0])
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == list(CODES)
    static_result = shape(static_run["results"][0])
    for result in run["results"]:
        assert {k: v for k, v in shape(result).items() if k != "properties"} == static_result
        assert result["properties"]["source"] == "runtime"
        rule = run["tool"]["driver"]["rules"][result["ruleIndex"]]
        assert rule["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"] == {"uri": HERE.name, "uriBaseId": "%SRCROOT%"}
        assert location["region"]["startLine"] >= 1 and location["region"]["startColumn"] >= 1
    assert [result["level"] for result in run["results"]] == ["error", "error"]


def test_the_text_table_lists_each_record_and_the_counts(found: Audit) -> None:
    text = found.report("text")
    lines = text.splitlines()
    assert lines[0].startswith("proxy-types audit: 2 records, 3 calls")
    assert lines[1].split() == ["calls", "location", "code", "what", "happened"]
    assert lines[2].split()[:3] == ["2", f"{HERE.name}:{found.records[0].line}:13",
                                    "proxy-isinstance"]
    assert lines[-3:] == ["  proxy-isinstance  1", "  proxy-concretize  1", "  proxy-guard       0"]


@pytest.mark.parametrize("suffix, starts", [(".json", "{"), (".sarif", "{"), (".txt", "proxy-types audit")])
def test_write_report_picks_the_format_from_the_suffix(
    found: Audit, tmp_path: Path, suffix: str, starts: str
) -> None:
    path = tmp_path / f"report{suffix}"
    found.write_report(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(starts)
    if suffix == ".sarif":
        assert json.loads(text)["version"] == "2.1.0"


def test_an_unknown_report_suffix_is_one_line(found: Audit, tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError, match=r"report\.xml: unknown format; name it \*\.json"):
        found.write_report(tmp_path / "report.xml")
    assert not (tmp_path / "report.xml").exists()
