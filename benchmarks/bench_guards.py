"""Speed of the guards against the isinstance checks they replace.

Run ``python benchmarks/bench_guards.py`` (``--quick`` for a smoke run,
``--no-torch`` to leave out torch's SymInt and ``is_concrete_int``).  All timings
come from one process and one run; the table shows nanoseconds per call and the
ratio against ``isinstance(x, (int, float, complex))``, the baseline.
"""

from __future__ import annotations

import argparse
import numbers
import sys
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import render_table  # noqa: E402
from benchmarks._symbolic import symbolic_subjects  # noqa: E402
from proxy_types import (  # noqa: E402
    FloatProxy,
    IntegerProxy,
    NumberClasses,
    is_dynamic_number,
    is_static_number,
)

STATIC_TUPLE = (int, float, complex)


class MyFloat(float):
    pass


class Subject(NamedTuple):
    value: object
    static: bool  # the right answer of is_static_number
    dynamic: bool  # the right answer of is_dynamic_number


# Expressions timed inline (no wrapper call for the isinstance baselines).
STATEMENTS: dict[str, str] = {
    "isinstance tuple (baseline)": "isinstance(x, STATIC_TUPLE)",
    "isinstance numbers.Number": "isinstance(x, Number)",
    "is_static_number": "is_static_number(x)",
    "is_dynamic_number": "is_dynamic_number(x)",
    "isinstance NumberClasses": "isinstance(x, NumberClasses)",
    "torch is_concrete_int": "is_concrete_int(x)",
}


def subjects(with_torch: bool = True) -> tuple[dict[str, Subject], Callable[..., Any] | None]:
    """The values checked, with their right answers, and torch's ``is_concrete_int``."""
    found: dict[str, Subject] = {
        "int": Subject(12345, True, False),
        "float": Subject(2.5, True, False),
        "bool": Subject(True, True, False),
        "float subclass": Subject(MyFloat(1.5), True, False),
        "IntegerProxy": Subject(IntegerProxy("n", 3), False, True),
        "FloatProxy": Subject(FloatProxy("f"), False, True),
    }
    symbolic = symbolic_subjects() if with_torch else None
    if symbolic is not None:
        found["SymInt backed"] = Subject(symbolic.backed_int, False, True)
        found["SymInt unbacked"] = Subject(symbolic.unbacked_int, False, True)
        found["SymFloat"] = Subject(symbolic.backed_float, False, True)
    found["str"] = Subject("not a number", False, False)
    found["object"] = Subject(object(), False, False)
    return found, (symbolic.is_concrete_int if symbolic is not None else None)


def wrong_answers(checked: dict[str, Subject]) -> list[str]:
    """Subjects some guard answers wrongly for (a fast wrong guard is worthless)."""
    wrong = []
    for name, subject in checked.items():
        answers = (is_static_number(subject.value), is_dynamic_number(subject.value),
                   isinstance(subject.value, NumberClasses))
        if answers != (subject.static, subject.dynamic, subject.static or subject.dynamic):
            wrong.append(name)
    return wrong


def _applies(check: str, subject: Subject, is_concrete_int: Callable[..., Any] | None) -> bool:
    # is_concrete_int asserts its argument is an int or a SymInt.
    if check != "torch is_concrete_int":
        return True
    return is_concrete_int is not None and (
        type(subject.value) is int or type(subject.value).__name__ == "SymInt"
    )


def best_time(statement: str, subject: object, number: int, repeat: int,
              is_concrete_int: Callable[..., Any] | None = None) -> float:
    """Seconds per evaluation of ``statement`` with ``x`` bound to ``subject`` (best of ``repeat``)."""
    namespace = {"x": subject, "STATIC_TUPLE": STATIC_TUPLE, "Number": numbers.Number,
                 "is_static_number": is_static_number, "is_dynamic_number": is_dynamic_number,
                 "NumberClasses": NumberClasses, "is_concrete_int": is_concrete_int}
    return min(timeit.repeat(statement, globals=namespace, number=number, repeat=repeat)) / number


def measure(number: int, repeat: int, with_torch: bool = True) -> dict[str, dict[str, float | None]]:
    """Seconds per call: {subject: {check: seconds, or None where the check does not apply}}."""
    checked, is_concrete_int = subjects(with_torch)
    wrong = wrong_answers(checked)
    if wrong:
        raise SystemExit(f"bench_guards: wrong guard answer for {', '.join(wrong)}")
    return {
        name: {check: best_time(statement, subject.value, number, repeat, is_concrete_int)
               if _applies(check, subject, is_concrete_int) else None
               for check, statement in STATEMENTS.items()}
        for name, subject in checked.items()
    }


def format_table(timings: dict[str, dict[str, float | None]], title: str | None = None) -> str:
    """Nanoseconds per call and the ratio to the baseline, one row per subject."""
    names = list(STATEMENTS)
    rows = []
    for subject_name, row in timings.items():
        baseline = row[names[0]]
        cells = [subject_name]
        for name in names:
            seconds = row[name]
            if seconds is None or baseline is None:
                cells.append("n/a")
            else:
                cells.append(f"{seconds * 1e9:.1f} ns ({seconds / baseline:4.2f}x)")
        rows.append(cells)
    return render_table(title, ["subject", *names], rows, rule=title is not None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny run to smoke-test the script")
    parser.add_argument("--no-torch", action="store_true", help="leave out torch SymInt subjects")
    arguments = parser.parse_args(argv)
    number, repeat = (200, 1) if arguments.quick else (500_000, 5)
    print(format_table(measure(number, repeat, with_torch=not arguments.no_torch)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
