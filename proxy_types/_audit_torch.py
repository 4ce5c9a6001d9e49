"""Torch's guards under an audit: ``ShapeEnv._log_guard`` wrapped to record each guard.

Torch passes each guard it adds through ``ShapeEnv._log_guard(prefix, expression,
...)``, which logs it at INFO; the audit wraps that method and leaves the logger
alone (its level, handlers and propagation), so ``caplog`` still sees every guard.
A guard is recorded at the nearest line outside libraries and the audit.
"""

from __future__ import annotations

import sys
import types
import warnings
from collections.abc import Callable
from typing import Any

from ._audit_records import is_library_file
from ._audit_wrappers import _deliver, _like, _problem

_GUARD_MODULE = "torch.fx.experimental.symbolic_shapes"
_GUARD_METHOD = "_log_guard"


def _guard_frame() -> types.FrameType | None:
    """The nearest frame outside libraries and the audit: the line that made torch guard."""
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        # The audit's own frames (a dunder wrapper torch guards under) are not the user's line.
        own = str(frame.f_globals.get("__name__", "")).startswith("proxy_types._audit")
        if not own and not is_library_file(frame.f_code.co_filename):
            return frame
        frame = frame.f_back
    return None


def _make_guard_log(raw: Any) -> Callable[..., Any]:
    """``ShapeEnv._log_guard`` that also records the guard; torch's own logging is untouched."""

    def audited(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            prefix = args[0] if args else kwargs.get("prefix")
            expression = args[1] if len(args) > 1 else kwargs.get("g")
            if prefix is not None and expression is not None and "suppressed" not in str(prefix):
                _deliver(_guard_frame(), "guard", str(prefix), None, None, str(expression))
        except Exception as error:  # torch's guard must not fail for the audit
            _problem(error)
        return raw(self, *args, **kwargs)

    return _like(audited, raw)


def _guard_log_replacement(module: types.ModuleType) -> tuple[type, Callable[..., Any]] | None:
    """(``ShapeEnv``, its wrapped ``_log_guard``); None, with a warning, when torch has none."""
    shape_env = getattr(module, "ShapeEnv", None)
    raw = getattr(shape_env, "__dict__", {}).get(_GUARD_METHOD)
    if not isinstance(shape_env, type) or not callable(raw):
        warnings.warn(f"proxy_types.audit: cannot watch torch's guards: {_GUARD_MODULE}."
                      f"ShapeEnv has no {_GUARD_METHOD}(); no proxy-guard records",
                      RuntimeWarning, stacklevel=3)
        return None
    return shape_env, _make_guard_log(raw)
