"""``check --runtime-report FILE``: the static findings next to what a runtime audit saw.

The audit (``proxy_types.audit``, ``pytest --proxy-types-audit=FILE``) writes
the JSON document ``check --format json`` writes, marked ``"source": "runtime"``.
A static finding is confirmed at run time when the audit recorded a merge on
its line of its file; an audit record on a line with no static finding is
runtime-only: the plugin did not see it (a class chosen at run time, untyped
or generated code).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .common import CommandLineError, one_line

RUNTIME_SOURCE = "runtime"


@dataclass(frozen=True)
class RuntimeRecord:
    """One merge the audit recorded: where, what and how it came out."""

    file: str
    line: int
    column: int
    code: str
    message: str
    outcome: str
    count: int

    @property
    def place(self) -> tuple[str, int]:
        return _place(self.file, self.line)

    def as_dict(self) -> dict[str, object]:
        return {"file": self.file, "line": self.line, "column": self.column, "code": self.code,
                "message": self.message, "outcome": self.outcome, "count": self.count,
                "source": RUNTIME_SOURCE}


def _place(file: str, line: int) -> tuple[str, int]:
    # The audit names files relative to where the tests ran; both sides are resolved.
    return (os.path.normcase(os.path.realpath(file)), line)


def read_runtime_report(path: str) -> list[RuntimeRecord]:
    """The records of an audit's JSON report; one clear line for anything else."""
    try:
        document: Any = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise CommandLineError(f"cannot read runtime report {path}: "
                               f"{one_line(error.strerror or str(error))}") from None
    except (UnicodeDecodeError, ValueError) as error:
        raise CommandLineError(f"runtime report {path} is not JSON: {one_line(str(error))}") \
            from None
    if not isinstance(document, dict) or document.get("source") != RUNTIME_SOURCE:
        raise CommandLineError(f'runtime report {path} is not a runtime audit report (no '
                               '"source": "runtime"); write one with pytest '
                               "--proxy-types-audit=FILE or python -m proxy_types.audit")
    findings = document.get("findings")
    if not isinstance(findings, list):
        raise CommandLineError(f'runtime report {path} has no "findings" list')
    records = []
    for index, item in enumerate(findings):
        try:
            records.append(RuntimeRecord(
                file=str(item["file"]), line=int(item["line"]), column=int(item["column"]),
                code=str(item["code"]), message=str(item["message"]),
                outcome=str(item.get("outcome", "")), count=int(item.get("count", 1))))
        except (KeyError, TypeError, ValueError) as error:
            raise CommandLineError(f"runtime report {path}: finding {index} is malformed "
                                   f"({one_line(repr(error))})") from None
    return records


@dataclass
class RuntimeJoin:
    """Which static findings the audit confirmed, and what it saw that they did not."""

    confirmed: dict[tuple[str, int], list[RuntimeRecord]]
    runtime_only: list[RuntimeRecord]

    def confirms(self, file: str, line: int) -> list[RuntimeRecord]:
        return self.confirmed.get(_place(file, line), [])


def join(static_places: set[tuple[str, int]], records: list[RuntimeRecord]) -> RuntimeJoin:
    """Split ``records`` into those on a line with a static finding and the rest."""
    statically_seen = {_place(file, line) for file, line in static_places}
    confirmed: dict[tuple[str, int], list[RuntimeRecord]] = {}
    runtime_only: list[RuntimeRecord] = []
    for record in records:
        if record.place in statically_seen:
            confirmed.setdefault(record.place, []).append(record)
        else:
            runtime_only.append(record)
    return RuntimeJoin(confirmed, runtime_only)
