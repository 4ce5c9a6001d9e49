"""SARIF ``codeFlows`` of a report on a value a callee returned: the callee's line first.

The reason's steps travel as data through the JSON output (``check --format json``,
the report cache) and come back as the same steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mypy_plugin import findings
from mypy_plugin.cli.check import Finding
from mypy_plugin.cli.report import _code_flows
from mypy_plugin.findings import Reason, Report
from proxy_types._sarif import SarifLog


def _finding(reason: Reason) -> Finding:
    report = Report("proxy-specialize", findings.CONVERSION, "SymInt", "int()", reason=reason,
                    file="model.py", line=12, column=8)
    return Finding("model.py", 12, 9, 12, 15, "error", "proxy-specialize",
                   "int() installs a guard", report=report)


def _flows(finding: Finding) -> list[Any]:
    return list(_code_flows(SarifLog(Path.cwd().resolve()), finding))


def test_a_returned_size_shows_the_callee_then_the_report() -> None:
    steps = ("helpers.py:4: x.shape returned by helpers.rows",)
    finding = Finding.from_dict(_finding(Reason("shape", "returns a size", steps=steps))
                                .as_dict())  # through the JSON output and back
    assert finding.report is not None and finding.report.reason is not None
    assert finding.report.reason.steps == steps
    locations = _flows(finding)[0]["threadFlows"][0]["locations"]
    shown = [(item["location"]["physicalLocation"]["region"]["startLine"],
              item["location"]["message"]["text"]) for item in locations]
    assert shown == [(4, "x.shape returned by helpers.rows"), (12, "int()")]


def test_a_size_read_in_place_has_no_code_flows() -> None:
    assert _flows(_finding(Reason("shape", "a size"))) == []
    assert "steps" not in Reason("shape", "a size").as_dict()
