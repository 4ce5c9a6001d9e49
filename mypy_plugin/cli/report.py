"""The findings of a ``check`` run as text, JSON or SARIF 2.1.0."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from .check import CheckResult, Finding
from .common import PROGRAM

INFORMATION_URI = "https://pypi.org/project/proxy-types/"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
OTHER_ERRORS = "other mypy errors"


def proxy_codes() -> list[tuple[str, str]]:
    """(code, description) of every plugin error code, in the plugin's order."""
    from ..errors import ALL_CODES

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
    out.write(totals_line(result.findings) + "\n")
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


def totals_line(findings: Sequence[Finding]) -> str:
    """mypy's closing line: ``Found 3 errors in 2 files`` or ``Success: no issues found``."""
    errors = [f for f in findings if f.severity == "error"]
    if not errors:
        return "Success: no issues found"
    files = len({f.file for f in errors})
    return (f"Found {len(errors)} error{'s' * (len(errors) != 1)} in {files} "
            f"file{'s' * (files != 1)}")


def render_json(result: CheckResult) -> str:
    """The findings, summary and config as one JSON document."""
    document = {
        "tool": PROGRAM,
        "version": tool_version(),
        "config": result.config.description,
        "exit_status": result.exit_status,
        "findings": [_with_runtime(finding, result) for finding in result.findings],
        "summary": summarize(result.findings),
    }
    if result.runtime is not None:
        document["runtime_only"] = [r.as_dict() for r in result.runtime.runtime_only]
    return json.dumps(document, indent=2) + "\n"


def _with_runtime(finding: Finding, result: CheckResult) -> dict[str, object]:
    data = finding.as_dict()
    if result.runtime is not None and finding.is_plugin_finding:
        data["confirmed_at_runtime"] = bool(result.runtime.confirms(finding.file, finding.line))
    return data


def tool_version() -> str:
    """The installed proxy-types version, or ``0+unknown`` when not installed."""
    from importlib import metadata

    try:
        return metadata.version("proxy-types")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def sarif_rule(code: str, description: str) -> dict[str, object]:
    """The SARIF rule of an error code, with its explanation as help when there is one."""
    from .explain import explanation_markdown, explanation_text

    text, markdown = description, description
    try:
        text, markdown = explanation_text(code), explanation_markdown(code)
    except KeyError:  # a mypy code we do not explain
        pass
    return {
        "id": code,
        "name": "".join(part.capitalize() for part in code.replace("-", " ").split()),
        "shortDescription": {"text": description},
        "fullDescription": {"text": description},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["types", "proxy-types" if code.startswith("proxy-") else "mypy"]},
    }


def mypy_code_description(code: str) -> str:
    """mypy's description of one of its own error codes."""
    from mypy import errorcodes

    known = errorcodes.error_codes.get(code)
    return known.description if known is not None else f"mypy error [{code}]"


def sarif_location(finding: Finding, root: Path) -> dict[str, object]:
    """A finding's SARIF location, relative to ``root`` when it lies inside it."""
    path = Path(finding.file)
    absolute = path if path.is_absolute() else (Path.cwd() / path)
    try:
        relative = absolute.resolve().relative_to(root)
        artifact: dict[str, str] = {"uri": quote(relative.as_posix()), "uriBaseId": "%SRCROOT%"}
    except ValueError:  # outside the source root: keep an absolute URI
        artifact = {"uri": absolute.resolve().as_uri()}
    region: dict[str, int] = {"startLine": finding.line, "startColumn": finding.column}
    if finding.end_line is not None and finding.end_column is not None:
        region.update(endLine=finding.end_line, endColumn=finding.end_column)
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def render_sarif(result: CheckResult) -> str:
    """The findings as a SARIF 2.1.0 log for code scanning."""
    root = Path.cwd().resolve()
    rules: list[dict[str, object]] = []
    rule_index: dict[str, int] = {}

    def add_rule(code: str, description: str) -> None:
        """Append the rule of ``code`` and remember its index."""
        rule_index[code] = len(rules)
        rules.append(sarif_rule(code, description))

    for code, description in proxy_codes():
        add_rule(code, description)
    results = []
    for finding in result.findings:
        if finding.severity != "error":
            continue
        code = finding.code or "mypy"
        if code not in rule_index:
            add_rule(code, mypy_code_description(code))
        message = finding.message + (f"\n{finding.hint}" if finding.hint else "")
        sarif_result: dict[str, object] = {
            "ruleId": code,
            "ruleIndex": rule_index[code],
            "level": "error",
            "message": {"text": message},
            "locations": [sarif_location(finding, root)],
        }
        if finding.report is not None:  # what the plugin found, as data
            details = finding.as_dict()
            sarif_result["properties"] = {"kind": details["kind"], "reason": details["reason"],
                                          "report": details["report"]}
            if result.runtime is not None:
                sarif_result["properties"]["confirmedAtRuntime"] = bool(  # type: ignore[index]
                    result.runtime.confirms(finding.file, finding.line))
        results.append(sarif_result)
    for record in result.runtime.runtime_only if result.runtime is not None else []:
        if record.code not in rule_index:
            add_rule(record.code, "recorded by the runtime audit (proxy_types.audit)")
        where = Finding(record.file, record.line, record.column, None, None, "error",
                        record.code, record.message)
        results.append({
            "ruleId": record.code,
            "ruleIndex": rule_index[record.code],
            "level": "error",
            "message": {"text": f"{record.message} (seen at run time: {record.outcome})"},
            "locations": [sarif_location(where, root)],
            "properties": {"source": "runtime", "count": record.count},
        })
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": PROGRAM,
                "informationUri": INFORMATION_URI,
                "version": tool_version(),
                "rules": rules,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
            "results": results,
        }],
    }
    return json.dumps(document, indent=2) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "sarif": render_sarif}
