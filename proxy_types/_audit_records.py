"""What a runtime audit records: ``AuditRecord``, how an event becomes one, and whose files count.

An event is counted by its call site (code object and instruction), its kind,
operation, classes and outcome; ``_RecordBook.records`` merges the counts into
``AuditRecord`` rows.  Nothing here patches or imports anything.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import types
from dataclasses import dataclass
from typing import Any, Literal

from ._table import CLASS_CONCRETIZING_DUNDERS, CONCRETIZING_DUNDERS

# Each watched dunder and how users spell its operation ("__int__" -> "int()").
_WATCHED_DUNDERS = {c.dunder: c.operation for c in CONCRETIZING_DUNDERS + CLASS_CONCRETIZING_DUNDERS}

_Kind = Literal["isinstance", "conversion", "guard"]
_CODES: dict[str, str] = {
    "isinstance": "proxy-isinstance", "conversion": "proxy-concretize", "guard": "proxy-guard",
}


@dataclass(frozen=True)
class AuditRecord:
    """One deduplicated event: where, what, on which classes, with which outcome, how often.

    ``line``/``column`` are 1-based; ``end_column`` is exclusive; columns are
    None where Python keeps no positions.
    """

    file: str
    line: int
    column: int | None
    end_line: int | None
    end_column: int | None
    kind: _Kind
    operation: str  # "isinstance", "issubclass", a dunder, or torch's "eval" / "runtime_assert"
    dynamic_class: str | None  # the dynamic number's class; None for guards
    classes: tuple[str, ...]  # the class argument of isinstance/issubclass
    outcome: str  # "True"/"False", "returned 3", "raised ConcretizationError", a guard expression
    count: int

    @property
    def code(self) -> str:
        """The report code: ``proxy-isinstance``, ``proxy-concretize`` or ``proxy-guard``."""
        return _CODES[self.kind]

    @property
    def severity(self) -> str:
        """``error`` for merges, ``note`` for torch guards (specializations, not mistakes)."""
        return "note" if self.kind == "guard" else "error"

    @property
    def message(self) -> str:
        """One line, worded like the plugin's message for the same code."""
        if self.kind == "isinstance":
            shown = ", ".join(self.classes)
            return (f'{self.operation}() against static number classes ({shown}) on dynamic '
                    f'number "{self.dynamic_class}" returned {self.outcome}')
        if self.kind == "conversion":
            spelled = _WATCHED_DUNDERS.get(self.operation, self.operation)
            return (f'{self.operation} ({spelled}) on dynamic number "{self.dynamic_class}" '
                    f"{self.outcome}")
        if self.operation == "runtime_assert":
            return f"torch recorded the runtime assert {self.outcome}"
        return f"torch installed the guard {self.outcome}"

    @property
    def hint(self) -> str | None:
        """What to do instead; None for guards."""
        if self.kind == "isinstance":
            return ("use proxy_types.is_static_number() / is_dynamic_number() or include "
                    "proxy_types.NumberClasses")
        if self.kind == "conversion":
            return ("use proxy_types.to_static(x) to specialize (a recorded guard), "
                    "proxy_types.check(cond) for a run-time assertion, or branch on "
                    "proxy_types.is_dynamic_number(x)")
        return None


# -- how an event is described ----------------------------------------------------------------

def _class_name(cls: object) -> str:
    module = getattr(cls, "__module__", None)
    name = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", None)
    if not isinstance(name, str):
        return repr(cls)
    return name if module in (None, "builtins") else f"{module}.{name}"


def _flatten(classinfo: object) -> list[object]:
    if type(classinfo) is tuple:
        return [c for item in classinfo for c in _flatten(item)]
    if type(classinfo) is types.UnionType or getattr(classinfo, "__origin__", None) is _typing_union():
        return _flatten(getattr(classinfo, "__args__", ()))
    return [classinfo]


def _typing_union() -> object:
    typing = sys.modules.get("typing")
    return getattr(typing, "Union", None) if typing is not None else None


def _position(frame: types.FrameType) -> tuple[int, int | None, int | None, int | None]:
    """(line, column, end line, end column) of the frame's current instruction, 1-based."""
    line = frame.f_lineno or 0
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is None:  # Python 3.10
        return line, None, None, None
    for index, position in enumerate(positions()):
        if index == frame.f_lasti // 2:
            start, end, column, end_column = position
            if start is None or column is None:
                return line, None, None, None
            return start, column + 1, end, None if end_column is None else end_column + 1
    return line, None, None, None


def _outcome_text(value: object) -> str:
    if type(value) in (bool, int, float, complex):
        text = repr(value)
    elif type(value) is str:
        text = repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
    else:
        text = f"a {_class_name(type(value))}"
    return f"returned {text}"



# -- whose records are kept by default --------------------------------------------------------

def _library_roots() -> tuple[str, ...]:
    import sysconfig

    paths = sysconfig.get_paths()
    roots = {os.path.normcase(os.path.realpath(paths[key])) + os.sep
             for key in ("stdlib", "platstdlib") if key in paths}
    return tuple(sorted(roots))


@functools.lru_cache(maxsize=None)
def is_library_file(filename: str) -> bool:
    """True for files of the standard library and of installed packages."""
    if filename.startswith("<frozen"):
        return True
    if filename.startswith("<"):  # <string>, <stdin>: the user's code
        return False
    normal = os.path.normcase(os.path.realpath(filename))
    wrapped = normal.replace("\\", "/")
    if "/site-packages/" in wrapped or "/dist-packages/" in wrapped:
        return True
    return normal.startswith(_library_roots())


def outside_libraries(filename: str) -> bool:
    """The default filter: keep records from files outside the standard library and site-packages."""
    return not is_library_file(filename)


# -- one audit's records ----------------------------------------------------------------------

class _RecordBook:
    """The events one audit has counted, and the calls it could not judge; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: dict[tuple[object, ...], list[Any]] = {}
        self._alive: list[tuple[object, object]] = []
        self._problems: dict[str, int] = {}

    def _count(self, key: tuple[object, ...], frame: types.FrameType, kind: _Kind,
               operation: str, subject: type | None, classinfo: object, outcome: object) -> None:
        with self._lock:
            event = self._events.get(key)
            if event is not None:
                event[-1] += 1
                return
        line, column, end_line, end_column = _position(frame)
        classes = tuple(_class_name(c) for c in _flatten(classinfo)) if kind == "isinstance" else ()
        record = [frame.f_code.co_filename, line, column, end_line, end_column, kind, operation,
                  None if subject is None else _class_name(subject), classes, str(outcome), 1]
        with self._lock:
            event = self._events.setdefault(key, record)
            if event is not record:
                event[-1] += 1
            else:  # the key holds their ids: no other object may take them
                self._alive.append((subject, classinfo))

    @property
    def records(self) -> list[AuditRecord]:
        """The records so far, merged by location, operation, classes and outcome, in order."""
        merged: dict[tuple[object, ...], list[Any]] = {}
        with self._lock:
            events = [list(event) for event in self._events.values()]
        for event in events:
            identity = tuple(event[:-1])
            if identity in merged:
                merged[identity][-1] += event[-1]
            else:
                merged[identity] = event
        return [AuditRecord(*event) for event in merged.values()]

    def _note_problem(self, text: str) -> None:
        with self._lock:
            self._problems[text] = self._problems.get(text, 0) + 1

    @property
    def problems(self) -> list[str]:
        """Calls the audit could not judge (its own errors, with counts); empty normally."""
        with self._lock:
            return [f"{text} (x{count})" for text, count in self._problems.items()]
