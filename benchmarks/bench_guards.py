"""Speed of the guards against the isinstance checks they replace.

Run ``python benchmarks/bench_guards.py`` (``--quick`` for a smoke run).  All
timings come from one process and one run; the table shows ratios against
``isinstance(x, (int, float, complex))``, the baseline.
"""

from __future__ import annotations

import argparse
import numbers
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from proxy_types import FloatProxy, IntegerProxy, is_dynamic_number, is_static_number  # noqa: E402

STATIC_TUPLE = (int, float, complex)


class MyFloat(float):
    pass


SUBJECTS: dict[str, object] = {
    "int": 12345,
    "float": 2.5,
    "bool": True,
    "float subclass": MyFloat(1.5),
    "IntegerProxy": IntegerProxy("n", 3),
    "FloatProxy": FloatProxy("f"),
    "str": "not a number",
}

# Expressions timed inline (no wrapper call for the isinstance baselines).
STATEMENTS: dict[str, str] = {
    "isinstance tuple (baseline)": "isinstance(x, STATIC_TUPLE)",
    "isinstance numbers.Number": "isinstance(x, Number)",
    "is_static_number": "is_static_number(x)",
    "is_dynamic_number": "is_dynamic_number(x)",
}


def best_time(statement: str, subject: object, number: int, repeat: int) -> float:
    namespace = {"x": subject, "STATIC_TUPLE": STATIC_TUPLE, "Number": numbers.Number,
                 "is_static_number": is_static_number, "is_dynamic_number": is_dynamic_number}
    return min(timeit.repeat(statement, globals=namespace, number=number, repeat=repeat)) / number


def measure(number: int, repeat: int) -> dict[str, dict[str, float]]:
    """Seconds per call: {subject: {check: seconds}}."""
    return {
        subject_name: {name: best_time(statement, subject, number, repeat)
                       for name, statement in STATEMENTS.items()}
        for subject_name, subject in SUBJECTS.items()
    }


def format_table(timings: dict[str, dict[str, float]]) -> str:
    """Nanoseconds per call and the ratio to the baseline, one row per subject."""
    names = list(STATEMENTS)
    header = f"{'subject':<16}" + "".join(f"{name:>32}" for name in names)
    rows = [header]
    for subject_name, row in timings.items():
        baseline = row[names[0]]
        cells = "".join(f"{row[name] * 1e9:>20.1f} ns ({row[name] / baseline:4.2f}x)" for name in names)
        rows.append(f"{subject_name:<16}{cells}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny run to smoke-test the script")
    arguments = parser.parse_args(argv)
    # Answers first: a fast wrong guard is worthless.
    for subject_name, subject in SUBJECTS.items():
        expected_static = subject_name in ("int", "float", "bool", "float subclass")
        if is_static_number(subject) is not expected_static:
            print(f"wrong answer for {subject_name}", file=sys.stderr)
            return 1
    number, repeat = (200, 1) if arguments.quick else (500_000, 5)
    print(format_table(measure(number, repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
