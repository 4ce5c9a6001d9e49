"""The findings of a ``check`` run as text, JSON or SARIF 2.1.0."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .check import CheckResult, Finding
from .common import EXIT_CLEAN, EXIT_FINDINGS, PROGRAM

if TYPE_CHECKING:  # the runtime package loads with JSON and SARIF only: text needs none of it
    from proxy_types._sarif import SarifLog

OTHER_ERRORS = "other mypy errors"


def proxy_codes() -> list[tuple[str, str]]:
    """(code, description) of every plugin error code, in the plugin's order."""
    from ..codes import ALL_CODES

    return [(code.code, code.description) for code in ALL_CODES]


def summarize(findings: Sequence[Finding]) -> dict[str, int]:
    """Count of findings per plugin code, with every other error counted together."""
    counts = {code: 0 for code, _ in proxy_codes()}
    counts[OTHER_ERRORS] = 0
    for finding in findings:
        if finding.severity == "error":
            key = finding.code if finding.code in counts else OTHER_ERRORS
            counts[key] += 1
    return counts


def render_text(result: CheckResult) -> str:
    """mypy's findings as text, then the summary table."""
    out = io.StringIO()
    for finding in result.findings:
        location = f"{finding.file}:{finding.line}:{finding.column}"
        code = f"  [{finding.code}]" if finding.code and finding.severity == "error" else ""
        out.write(f"{location}: {finding.severity}: {finding.message}{code}\n")
        for hint in (finding.hint or "").splitlines():
            out.write(f"{location}: note: {hint}\n")
        if result.runtime is not None and finding.is_plugin_finding:
            for record in result.runtime.confirms(finding.file, finding.line):
                out.write(f"{location}: note: confirmed at run time ({record.count}x): "
                          f"{record.outcome}\n")
    out.write(totals_line(result.findings, hidden_total(result)) + "\n")
    for line in hidden_lines(result):
        out.write(line + "\n")
    if result.runtime is not None:
        out.write(runtime_lines(result))
    counts = summarize(result.findings)
    width = max(len(key) for key in counts)
    out.write("\n")
    out.write(f"proxy-types summary (config: {result.config.description})\n")
    for key, count in counts.items():
        out.write(f"  {key:<{width}}  {count}\n")
    return out.getvalue()


def runtime_lines(result: CheckResult) -> str:
    """The runtime audit's part of the text report: counts, then what it alone saw."""
    assert result.runtime is not None
    ours = [f for f in result.findings if f.is_plugin_finding]
    confirmed = sum(1 for f in ours if result.runtime.confirms(f.file, f.line))
    only = result.runtime.runtime_only
    lines = [f"\nruntime audit: {confirmed} of {len(ours)} plugin findings confirmed at run time;"
             f" {len(only)} merge{'s' * (len(only) != 1)} seen at run time only"]
    lines += [f"{r.file}:{r.line}:{r.column}: runtime: {r.message}  [{r.code}]" for r in only]
    return "\n".join(lines) + "\n"


#: How to see the findings of a code that is off by default.
SHOW_OFF_BY_DEFAULT = {
    "proxy-specialize": "enable_error_code = proxy-specialize in the plugin's settings, or "
                        "proxy-types check --preset torch-compile, shows them",
}


def hidden_lines(result: CheckResult) -> list[str]:
    """One ``Hidden:`` line per code the settings hide findings of (two when the
    ``tracers`` setting hid some of them), and one for ``--min-confidence``: how many,
    and how to see them."""
    return [line for line, _ in hidden_notes(result)]


def hidden_notes(result: CheckResult) -> list[tuple[str, str | None]]:
    """:func:`hidden_lines`, each with the code it counts (None: ``--min-confidence``)."""
    from ..codes import ALL_CODES

    off_by_default = {code.code for code in ALL_CODES if not code.default_enabled}
    notes: list[tuple[str, str | None]] = []
    for code, total in sorted(result.hidden.items()):
        by_tracers = result.hidden_by_tracers.get(code, 0)
        count = total - by_tracers
        noun = f"{code} finding{'s' * (count != 1)}"
        if count and code in off_by_default:
            how = SHOW_OFF_BY_DEFAULT.get(code, f"enable_error_code = {code} shows them")
            notes.append((f"Hidden: {count} {noun} (off by default; {how})", code))
        elif count:
            notes.append((f"Hidden: {count} {noun} (disabled in the mypy config: "
                          f"disable_error_code or a # mypy: comment)", code))
        if by_tracers:
            notes.append((f"Hidden: {by_tracers} {code} finding{'s' * (by_tracers != 1)} "
                          "(harmless under each tracer the tracers setting names; list the "
                          "other tracers the project runs there to see them)", code))
    if result.below_confidence:
        count = result.below_confidence
        notes.append((f"Hidden: {count} finding{'s' * (count != 1)} below --min-confidence "
                      f"{result.min_confidence} (--min-confidence any shows them)", None))
    return notes


def hidden_total(result: CheckResult) -> int:
    """How many findings the settings and ``--min-confidence`` hid."""
    return sum(result.hidden.values()) + result.below_confidence


def totals_line(findings: Sequence[Finding], hidden: int = 0) -> str:
    """mypy's closing line: ``Found 3 errors in 2 files`` or ``Success: no issues found``;
    never a bare Success when ``hidden`` findings were left out."""
    errors = [f for f in findings if f.severity == "error"]
    if not errors and hidden:
        return f"Success: no issues shown, {hidden} hidden by the settings (see below)"
    if not errors:
        return "Success: no issues found"
    files = len({f.file for f in errors})
    return (f"Found {len(errors)} error{'s' * (len(errors) != 1)} in {files} "
            f"file{'s' * (files != 1)}")


def render_json(result: CheckResult) -> str:
    """The findings, summary and config as one JSON document."""
    from proxy_types._sarif import tool_version

    document = {
        "tool": PROGRAM,
        "version": tool_version(),
        "config": result.config.description,
        "exit_status": result.exit_status,
        "findings": [_with_runtime(finding, result) for finding in result.findings],
        "summary": summarize(result.findings),
        "hidden": {"codes": dict(sorted(result.hidden.items())),
                   "below_min_confidence": result.below_confidence,
                   "by_tracers": dict(sorted(result.hidden_by_tracers.items()))},
    }
    if result.runtime is not None:
        document["runtime_only"] = [r.as_dict() for r in result.runtime.runtime_only]
    return json.dumps(document, indent=2) + "\n"


def _with_runtime(finding: Finding, result: CheckResult) -> dict[str, object]:
    data = finding.as_dict()
    if result.runtime is not None and finding.is_plugin_finding:
        data["confirmed_at_runtime"] = bool(result.runtime.confirms(finding.file, finding.line))
    return data


def add_sarif_rule(log: SarifLog, code: str, description: str) -> None:
    """The SARIF rule of an error code, with its explanation as help when there is one."""
    from .explain import explanation_markdown, explanation_text

    text, markdown = description, description
    try:
        text, markdown = explanation_text(code), explanation_markdown(code)
    except KeyError:  # a mypy code we do not explain
        pass
    log.add_rule(code, description, help_text=text, help_markdown=markdown,
                 tags=["types", "proxy-types" if code.startswith("proxy-") else "mypy"])


def mypy_code_description(code: str) -> str:
    """mypy's description of one of its own error codes."""
    from mypy import errorcodes

    known = errorcodes.error_codes.get(code)
    return known.description if known is not None else f"mypy error [{code}]"


#: A step ``file:line: note``; compiled on first use (by SARIF only), then cached by re.
_STEP = r"^(?P<file>.+):(?P<line>\d+): (?P<note>.*)$"


def _code_flows(log: SarifLog, finding: Finding) -> list[dict[str, object]]:
    """SARIF ``codeFlows`` of a cross-call finding: where a returned value came from
    (its reason's steps), the call, then each step to the sink (the report's
    ``extra`` after its first five parts); ``file:line: note`` each."""
    from ..findings import CALL_REACHES_SINK  # loaded by JSON and SARIF reports only

    report = finding.report
    if report is None:
        return []
    steps: list[tuple[str, int, int | None, str]] = []
    if report.reason is not None and report.reason.steps:
        # a value that came from elsewhere (a callee's return): its steps, then the report
        steps += _parsed_steps(report.reason.steps)
    if report.kind == CALL_REACHES_SINK and len(report.extra) > 5:
        steps.append((finding.file, finding.line, finding.column,
                      f"{report.subject} passed to {report.operation}"))
        steps += _parsed_steps(report.extra[5:])
    elif steps:
        steps.append((finding.file, finding.line, finding.column, report.operation))
    else:
        return []
    locations = [{"location": {**log.location(file, line, column, None, None),
                               "message": {"text": note}}}
                 for file, line, column, note in steps]
    return [{"threadFlows": [{"locations": locations}]}]


def _parsed_steps(steps: tuple[str, ...]) -> list[tuple[str, int, int | None, str]]:
    parsed: list[tuple[str, int, int | None, str]] = []
    for step in steps:
        match = re.match(_STEP, step)
        if match is not None:
            parsed.append((match["file"], int(match["line"]), None, match["note"]))
    return parsed


def render_sarif(result: CheckResult) -> str:
    """The findings as a SARIF 2.1.0 log for code scanning."""
    from proxy_types._sarif import SarifLog

    log = SarifLog(Path.cwd().resolve())
    for code, description in proxy_codes():
        add_sarif_rule(log, code, description)
    for finding in result.findings:
        if finding.severity != "error":
            continue
        code = finding.code or "mypy"
        if not log.has_rule(code):
            add_sarif_rule(log, code, mypy_code_description(code))
        properties: dict[str, object] | None = None
        if finding.report is not None:  # what the plugin found, as data
            details = finding.as_dict()
            properties = {"kind": details["kind"], "reason": details["reason"],
                          "report": details["report"]}
            if result.runtime is not None:
                properties["confirmedAtRuntime"] = bool(
                    result.runtime.confirms(finding.file, finding.line))
        message = finding.message + (f"\n{finding.hint}" if finding.hint else "")
        log.add_result(code, "error", message, finding.file, finding.line, finding.column,
                       finding.end_line, finding.end_column, properties)
        flows = _code_flows(log, finding)
        if flows:
            log.results[-1]["codeFlows"] = flows
    for record in result.runtime.runtime_only if result.runtime is not None else []:
        if not log.has_rule(record.code):
            add_sarif_rule(log, record.code, "recorded by the runtime audit (proxy_types.audit)")
        log.add_result(record.code, "error",
                       f"{record.message} (seen at run time: {record.outcome})",
                       record.file, record.line, record.column,
                       properties={"source": "runtime", "count": record.count})
    return log.render(sarif_hidden(result), sarif_invocation(result))


def sarif_hidden(result: CheckResult) -> dict[str, object]:
    """The run's properties: the findings the settings hid, by code and by confidence."""
    return {"hidden": {"codes": dict(sorted(result.hidden.items())),
                       "belowMinConfidence": result.below_confidence,
                       "minConfidence": result.min_confidence,
                       "byTracers": dict(sorted(result.hidden_by_tracers.items()))}}


def sarif_invocation(result: CheckResult) -> dict[str, object]:
    """The run's invocation: one note per summary ``Hidden:`` line, so a viewer shows
    that findings were left out and how to see them."""
    notes: list[dict[str, object]] = []
    for line, code in hidden_notes(result):
        note: dict[str, object] = {"level": "note", "message": {"text": line}}
        if code is not None:
            note["descriptor"] = {"id": code}
        notes.append(note)
    return {"executionSuccessful": result.exit_status in (EXIT_CLEAN, EXIT_FINDINGS),
            "toolExecutionNotifications": notes}


RENDERERS = {"text": render_text, "json": render_json, "sarif": render_sarif}
