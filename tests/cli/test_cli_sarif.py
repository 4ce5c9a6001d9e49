"""The SARIF writer and the checks that stand in for GitHub's validation."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SarifProblems = Callable[[Any], list[str]]  # the sarif_problems fixture
from mypy_plugin.cli.check import CheckResult, Finding
from mypy_plugin.cli.common import DEFAULT_CONFIG
from mypy_plugin.cli.project_config import ChosenConfig
from mypy_plugin.cli.report import render_sarif


def finding(file: str, code: str | None, line: int = 3, column: int = 5) -> Finding:
    return Finding(file, line, column, line, column + 4, "error", code, "message text", "a hint")


def sarif_for(findings: list[Finding]) -> dict[str, Any]:
    config = ChosenConfig(str(DEFAULT_CONFIG), None, "embedded default", False)
    document: dict[str, Any] = json.loads(render_sarif(CheckResult(findings, 1, config)))
    return document


@pytest.fixture
def in_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_locations_are_relative_encoded_and_one_based(
    in_project: Path, sarif_problems: SarifProblems
) -> None:
    document = sarif_for([finding("my dir/mod.py", "proxy-base"), finding("a.py", None)])
    assert sarif_problems(document) == []
    first, second = document["runs"][0]["results"]
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "my%20dir/mod.py", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 9}
    assert first["message"]["text"] == "message text\na hint"
    assert second["ruleId"] == "mypy"  # a message without a code still has a rule
    base = document["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == in_project.resolve().as_uri() + "/"


def test_file_outside_the_source_root_keeps_an_absolute_uri(
    in_project: Path, sarif_problems: SarifProblems
) -> None:
    outside = in_project.parent / "elsewhere.py"
    document = sarif_for([finding(str(outside), "proxy-isinstance")])
    artifact = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"
    ]
    assert artifact == {"uri": outside.resolve().as_uri()}
    assert sarif_problems(document) == []


def test_rules_are_unique_and_indexed(
    in_project: Path, sarif_problems: SarifProblems
) -> None:
    document = sarif_for([finding("a.py", "arg-type"), finding("b.py", "arg-type", line=9)])
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    ids = [rule["id"] for rule in rules]
    assert ids.count("arg-type") == 1
    results = document["runs"][0]["results"]
    assert {result["ruleIndex"] for result in results} == {ids.index("arg-type")}
    assert rules[ids.index("arg-type")]["shortDescription"]["text"] != "mypy error [arg-type]"
    assert sarif_problems(document) == []


Breakage = Callable[[dict[str, Any]], None]


def set_column_zero(document: dict[str, Any]) -> None:
    document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"][
        "startColumn"
    ] = 0


BREAKAGES: dict[str, Breakage] = {
    "version": lambda d: d.update(version="2.0.0"),
    "driver-name": lambda d: d["runs"][0]["tool"]["driver"].pop("name"),
    "rule-help": lambda d: d["runs"][0]["tool"]["driver"]["rules"][0].pop("help"),
    "rule-index": lambda d: d["runs"][0]["results"][0].update(ruleIndex=99),
    "rule-id": lambda d: d["runs"][0]["results"][0].update(ruleId="proxy-other"),
    "message": lambda d: d["runs"][0]["results"][0].pop("message"),
    "level": lambda d: d["runs"][0]["results"][0].update(level="fatal"),
    "locations": lambda d: d["runs"][0]["results"][0].update(locations=[]),
    "column": set_column_zero,
    "execution-successful": lambda d: d["runs"][0]["invocations"][0].pop("executionSuccessful"),
    "notification-text": lambda d: d["runs"][0]["invocations"][0].update(
        toolExecutionNotifications=[{"level": "note", "message": {}}]),
    "notification-level": lambda d: d["runs"][0]["invocations"][0].update(
        toolExecutionNotifications=[{"level": "info", "message": {"text": "x"}}]),
    "run-properties": lambda d: d["runs"][0].update(properties=[]),
}


@pytest.mark.parametrize("name", sorted(BREAKAGES))
def test_checks_reject_broken_documents(
    in_project: Path, name: str, sarif_problems: SarifProblems
) -> None:
    document = sarif_for([finding("a.py", "proxy-isinstance")])
    broken = copy.deepcopy(document)
    BREAKAGES[name](broken)
    assert sarif_problems(document) == []
    assert sarif_problems(broken) != []
