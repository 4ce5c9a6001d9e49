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

from ._audit_records import AuditRecord
from ._errors import ConfigurationError
from ._sarif import PROGRAM, SarifLog, tool_version

SOURCE = "runtime"
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
        # The same shape as check's: the audit records every merge, so nothing is hidden.
        "hidden": {"codes": {}, "below_min_confidence": 0, "by_tracers": {}},
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


def render_sarif(records: Sequence[AuditRecord]) -> str:
    """The records as a SARIF 2.1.0 log, one rule per runtime code."""
    log = SarifLog(Path.cwd().resolve())
    for code, description in CODES.items():
        log.add_rule(code, description, tags=["types", "proxy-types", SOURCE],
                     level="note" if code == "proxy-guard" else "error")
    for record in records:
        message = record.message + (f"\n{record.hint}" if record.hint else "")
        log.add_result(record.code, record.severity, message, record.file, record.line,
                       record.column, record.end_line, record.end_column,
                       {"source": SOURCE, "count": record.count,
                        "operation": record.operation, "outcome": record.outcome})
    return log.render({"source": SOURCE})
