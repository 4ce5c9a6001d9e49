"""Collecting reports: each once, in order, at one lookup each (issue #30, item 9)."""

from __future__ import annotations

import pytest

from mypy_plugin import collectors, findings
from mypy_plugin.findings import Report


def report(line: int) -> Report:
    return Report("proxy-concretize", findings.HASHING, "SymInt", "dict key", file="a.py",
                  line=line, message=f"finding on line {line}")


def test_reports_are_kept_once_in_order_and_withdrawn() -> None:
    with collectors.collecting() as outer:
        collectors.keep(report(3))
        with collectors.collecting() as inner:
            collectors.keep(report(1))
            collectors.keep(report(3))
            collectors.keep(report(1))
            collectors.withdraw(report(3))  # from every collection
        collectors.keep(report(2))
        collectors.keep(report(3))  # withdrawn: may be kept again
    assert [r.line for r in outer] == [1, 2, 3]
    assert [r.line for r in inner] == [1]
    collectors.keep(report(4))  # no collection: nothing is kept
    assert [r.line for r in outer] == [1, 2, 3]


def test_keeping_many_reports_compares_none_of_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Distinct reports hash apart: a list scan compared each with every earlier one."""
    comparisons = 0
    equal = Report.__eq__

    def counted(self: Report, other: object) -> bool:
        nonlocal comparisons
        comparisons += 1
        return equal(self, other)

    monkeypatch.setattr(Report, "__eq__", counted)
    count = 2_000
    with collectors.collecting() as reports:
        for line in range(count):
            collectors.keep(report(line))
        collectors.keep(report(0))  # again: found, not added
    assert len(reports) == count
    assert comparisons <= 10  # the one repeat, and any hash collision
