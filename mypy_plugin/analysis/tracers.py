"""Which of the torch tracers the project runs a report is about: the ``tracers`` setting.

What an operation does to a torch Sym number under make_fx, export and torch.compile
is data in ``proxy_types/_table.py`` (``tracer_outcomes``).  Where the three agree
there is nothing to filter and nothing to name; where they differ, a report names
the tracers it fails under among those the project runs, and ``errors.emit`` hides
(and counts, while the command line counts hidden findings) a report that fails
under none of them.
"""

from __future__ import annotations

from ..config import ProxyTypesConfig
from ..number_table import table as _table
from .kinds import TORCH, Dynamic


def failing_tracers(operation: str, found: Dynamic, config: ProxyTypesConfig, *,
                    format_spec: bool = False) -> tuple[str, ...] | None:
    """The tracers of ``config.tracers`` under which ``operation`` on ``found`` fails.

    None when the question does not arise: ``found`` is no torch Sym number, or the
    table says every tracer fails there.  An empty tuple: harmless under each tracer
    the project runs, so the report is hidden.
    """
    if found.kind != TORCH:
        return None
    failing = _table.failing_tracers(operation, format_spec=format_spec)
    if len(failing) == len(_table.TORCH_TRACERS):
        return None
    return tuple(tracer for tracer in failing if tracer in config.tracers)
