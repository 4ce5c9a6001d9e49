"""Audit reports in the shapes of ``proxy-types check``: a text table, JSON and SARIF 2.1.0.

The JSON document and SARIF log have the fields ``proxy-types check --format
json|sarif`` writes (mypy_plugin/cli/report.py), plus ``"source": "runtime"`` on the
document and each finding, and each record's ``count``, ``operation``,
``dynamic_class``, ``classes`` and ``outcome``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from ._audit import AuditRecord
from ._errors import ConfigurationError

PROGRAM = "proxy-types"
SOURCE = "runtime"
INFORMATION_URI = "https://pypi.org/project/proxy-types/"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
FORMATS = {".json": "json", ".sarif": "sarif", ".txt": "text"}

#: The codes an audit reports; the first two are the plugin's codes for the same mistakes.
CODES: dict[str, str] = {
    "proxy-isinstance": "isinstance/issubclass against static number classes ran on a dynamic "
                        "number (misclassified at run time)",
    "proxy-concretize": "a dynamic number was implicitly turned into a static value at run time "
                        "(conversion, index, condition, hash, format)",
    "proxy-guard": "torch specialized the traced program on a condition (a guard or runtime "
                   "assert), from the line shown",
}


def format_of(path: Path) -> str:
    """The report format a file name asks for, by its suffix."""
    found = FORMATS.get(path.suffix.lower())
    if found is None:
        raise ConfigurationError(f"audit report {path}: unknown format; name it *.json, *.sarif "
                                 "or *.txt")
    return found


def render(records: Sequence[AuditRecord], format: str, config_file: str | None,
           problems: Sequence[str] = ()) -> str:
    """The report of ``records`` in ``format`` (``text``, ``json`` or ``sarif``)."""
    if format == "text":
        return render_text(records, config_file, problems)
    if format == "json":
        return render_json(records, config_file)
    if format == "sarif":
        return render_sarif(records)
    raise ValueError(f"unknown audit report format {format!r} (text, json, sarif)")


def display_path(filename: str) -> str:
    """``filename`` relative to the working directory when inside it, with forward slashes."""
    if filename.startswith("<"):
        return filename
    try:
        relative = os.path.relpath(filename)
    except ValueError:  # another drive on Windows
        return Path(filename).as_posix()
    return Path(filename if relative.startswith("..") else relative).as_posix()


def summarize(records: Sequence[AuditRecord]) -> dict[str, int]:
    """Number of records (distinct call sites and outcomes) per code."""
    counts = dict.fromkeys(CODES, 0)
    for record in records:
        counts[record.code] += 1
    return counts


def exit_status(records: Sequence[AuditRecord]) -> int:
    """1 when a merge was recorded (guards are notes), else 0; like ``proxy-types check``."""
    return 1 if any(record.severity == "error" for record in records) else 0


def finding(record: AuditRecord) -> dict[str, object]:
    """A record as a ``proxy-types check`` finding, with the runtime's own fields."""
    return {
        "file": display_path(record.file),
        "line": record.line,
        "column": record.column if record.column is not None else 1,
        "end_line": record.end_line,
        "end_column": record.end_column,
        "severity": record.severity,
        "code": record.code,
        "message": record.message,
        "hint": record.hint,
        "source": SOURCE,
        "count": record.count,
        "operation": record.operation,
        "dynamic_class": record.dynamic_class,
        "classes": list(record.classes),
        "outcome": record.outcome,
    }


def tool_version() -> str:
    """The installed proxy-types version, or ``0+unknown`` when not installed."""
    from importlib import metadata

    try:
        return metadata.version("proxy-types")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def render_json(records: Sequence[AuditRecord], config_file: str | None) -> str:
    """The records as the JSON document of ``proxy-types check --format json``."""
    document = {
        "tool": PROGRAM,
        "source": SOURCE,
        "version": tool_version(),
        "config": config_file or "no config file found",
        "exit_status": exit_status(records),
        "findings": [finding(record) for record in records],
        "summary": summarize(records),
    }
    return json.dumps(document, indent=2) + "\n"


def render_text(records: Sequence[AuditRecord], config_file: str | None,
                problems: Sequence[str] = ()) -> str:
    """A short table: one row per record, the count per code, then the audit's own problems."""
    calls = sum(record.count for record in records)
    lines = [f"proxy-types audit: {len(records)} records, {calls} calls "
             f"(config: {config_file or 'no config file found'})"]
    rows = [["calls", "location", "code", "what happened"]]
    for record in records:
        column = f":{record.column}" if record.column is not None else ""
        rows.append([str(record.count), f"{display_path(record.file)}:{record.line}{column}",
                     record.code, record.message])
    if records:
        widths = [max(len(row[index]) for row in rows) for index in range(3)]
        for row in rows:
            cells = [row[0].rjust(widths[0]), row[1].ljust(widths[1]), row[2].ljust(widths[2])]
            lines.append("  " + "  ".join([*cells, row[3]]).rstrip())
    for code, count in summarize(records).items():
        lines.append(f"  {code:<17} {count}")
    lines += [f"  calls the audit could not judge: {problem}" for problem in problems]
    return "\n".join(lines) + "\n"


def sarif_rule(code: str) -> dict[str, object]:
    """The SARIF rule of a runtime code, shaped like ``proxy-types check``'s rules."""
    description = CODES[code]
    return {
        "id": code,
        "name": "".join(part.capitalize() for part in code.replace("-", " ").split()),
        "shortDescription": {"text": description},
        "fullDescription": {"text": description},
        "help": {"text": description, "markdown": description},
        "defaultConfiguration": {"level": "note" if code == "proxy-guard" else "error"},
        "properties": {"tags": ["types", "proxy-types", SOURCE]},
    }


def sarif_location(record: AuditRecord, root: Path) -> dict[str, object]:
    """A record's SARIF location, relative to ``root`` when it lies inside it."""
    # startColumn is required by code scanning: 1 where Python keeps no column.
    region: dict[str, int] = {"startLine": record.line, "startColumn": record.column or 1}
    if record.column is not None and record.end_line is not None and record.end_column is not None:
        region.update(endLine=record.end_line, endColumn=record.end_column)
    if record.file.startswith("<"):  # code without a file: <string>, <stdin>
        artifact: dict[str, str] = {"uri": quote(record.file)}
    else:
        absolute = Path(record.file).resolve()
        try:
            relative = absolute.relative_to(root)
            artifact = {"uri": quote(relative.as_posix()), "uriBaseId": "%SRCROOT%"}
        except ValueError:
            artifact = {"uri": absolute.as_uri()}
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def render_sarif(records: Sequence[AuditRecord]) -> str:
    """The records as a SARIF 2.1.0 log, one rule per runtime code."""
    root = Path.cwd().resolve()
    codes = list(CODES)
    results = []
    for record in records:
        message = record.message + (f"\n{record.hint}" if record.hint else "")
        results.append({
            "ruleId": record.code,
            "ruleIndex": codes.index(record.code),
            "level": record.severity,
            "message": {"text": message},
            "locations": [sarif_location(record, root)],
            "properties": {"source": SOURCE, "count": record.count,
                           "operation": record.operation, "outcome": record.outcome},
        })
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": PROGRAM,
                "informationUri": INFORMATION_URI,
                "version": tool_version(),
                "rules": [sarif_rule(code) for code in codes],
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
            "results": results,
            "properties": {"source": SOURCE},
        }],
    }
    return json.dumps(document, indent=2) + "\n"
