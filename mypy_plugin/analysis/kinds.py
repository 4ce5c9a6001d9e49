"""The kinds of dynamic number and the record of one found in a value.

Shared vocabulary of the analysis and the checks: it imports neither.
"""

from __future__ import annotations

from typing import NamedTuple

from ..findings import Reason

#: Kinds of dynamic class, by what an implicit conversion does to their instances
#: (``proxy_types/_table.py`` says what each operation does to each kind):
#: "own" raises, "torch" and "guarded" install a guard, "silent" returns the trace-time value.
OWN, TORCH, GUARDED, SILENT = "own", "torch", "guarded", "silent"

#: Kinds whose comparisons install a guard instead of returning a trace-time answer.
GUARDING_KINDS = frozenset({TORCH, GUARDED})


class Dynamic(NamedTuple):
    """A dynamic number a value may be: the class as shown, its kind, and why."""

    name: str
    kind: str
    reason: Reason
