"""``check --min-confidence``: keep the plugin findings whose reason is sure enough.

The plugin says why a value may be a dynamic number (``Report.reason.source``):
its type names a dynamic class (``declared``), it is computed from a traced
parameter, a symbolic size or typed as a base class of dynamic classes
(``flow``, ``shape``, ``base``), or it is ``Any``/``object`` under
``strict_isinstance`` (``any``).  A finding without a reason (a class
definition, a config entry) counts as declared.  mypy's own findings are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .check import CheckResult, Finding

#: The levels ``--min-confidence`` accepts, surest first.
LEVELS = ("declared", "flow", "any")
#: The level of each reason source.
LEVEL_OF_SOURCE = {"declared": "declared", "flow": "flow", "shape": "flow", "base": "flow",
                   "any": "any"}


def confidence(finding: Finding) -> str:
    """The level of a plugin finding: that of its reason's source, else declared."""
    reason = finding.report.reason if finding.report is not None else None
    if reason is None:
        return "declared"
    return LEVEL_OF_SOURCE.get(reason.source, "any")  # an unknown source is the least sure


def kept(findings: Sequence[Finding], minimum: str) -> list[Finding]:
    """``findings`` without the plugin findings less sure than ``minimum``."""
    allowed = LEVELS[: LEVELS.index(minimum) + 1]
    return [f for f in findings if not f.is_plugin_finding or confidence(f) in allowed]


def with_min_confidence(result: CheckResult, minimum: str) -> CheckResult:
    """``result`` with only the findings at ``minimum`` or surer; exit status 0 if no error is left."""
    findings = kept(result.findings, minimum)
    status = result.exit_status
    if status == 1 and not any(f.severity == "error" for f in findings):
        status = 0
    return replace(result, findings=findings, exit_status=status,
                   below_confidence=len(result.findings) - len(findings), min_confidence=minimum)
