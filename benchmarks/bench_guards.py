"""Speed of the guards against an empty function call and ``isinstance(x, numbers.Number)``.

Run ``python benchmarks/bench_guards.py`` (``--quick`` for a smoke run,
``--no-torch`` to leave out torch's SymInt and SymFloat).  Issue #16's target,
judged per cell: on every subject (ints, floats, proxies) ``is_static_number``
and ``is_dynamic_number`` cost at most 1.3x a call of an empty one-argument
Python function, and ``isinstance(x, numbers.Number)`` costs at least 2x the
guard.  Every check is timed in one process: each repeat times every subject
and check once (in an order that rotates from repeat to repeat), a ratio is
taken within each repeat, and the table shows medians over the repeats.
Each timing is of one statement in ``timeit``'s loop (``empty(x)``,
``is_static_number(x)``, ``isinstance(x, Number)``), whose own few
nanoseconds are in every cell alike.
"""

from __future__ import annotations

import argparse
import numbers
import statistics
import sys
import timeit
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import render_table  # noqa: E402
from benchmarks._symbolic import symbolic_subjects  # noqa: E402
from proxy_types import FloatProxy, IntegerProxy, is_dynamic_number, is_static_number  # noqa: E402

EMPTY = "empty call"
NUMBER_ABC = "numbers.Number"
GUARDS = ("is_static_number", "is_dynamic_number")
#: What is timed: each statement with ``x`` bound to the subject.
STATEMENTS: dict[str, str] = {
    EMPTY: "empty(x)",
    "is_static_number": "is_static_number(x)",
    "is_dynamic_number": "is_dynamic_number(x)",
    NUMBER_ABC: "isinstance(x, Number)",
}
#: Issue #16: a guard costs at most this many empty calls ...
MAX_VS_EMPTY = 1.3
#: ... and isinstance(x, numbers.Number) at least this many guard calls.
MIN_SPEEDUP_OVER_NUMBER = 2.0


def empty(x: object) -> bool:
    """The reference: a one-argument Python function that does nothing."""
    return True


class Subject(NamedTuple):
    value: object
    static: bool  # the right answer of is_static_number
    dynamic: bool  # the right answer of is_dynamic_number


def subjects(with_torch: bool = True) -> dict[str, Subject]:
    """The values checked, with their right answers (torch's only when it is installed)."""
    found: dict[str, Subject] = {
        "int": Subject(12345, True, False),
        "float": Subject(2.5, True, False),
        "IntegerProxy": Subject(IntegerProxy("n", 3), False, True),
        "FloatProxy": Subject(FloatProxy("f"), False, True),
    }
    symbolic = symbolic_subjects() if with_torch else None
    if symbolic is not None:
        found["SymInt"] = Subject(symbolic.backed_int, False, True)
        found["SymFloat"] = Subject(symbolic.backed_float, False, True)
    return found


def wrong_answers(checked: dict[str, Subject]) -> list[str]:
    """Subjects some guard answers wrongly for (a fast wrong guard is worthless)."""
    return [name for name, subject in checked.items()
            if (is_static_number(subject.value), is_dynamic_number(subject.value))
            != (subject.static, subject.dynamic)]


@dataclass(frozen=True)
class GuardCell:
    """One subject and guard: medians over the repeats, and the verdicts."""

    seconds: float  # the guard, per call
    empty_seconds: float
    number_seconds: float  # isinstance(x, numbers.Number)
    vs_empty: float  # median of the per-repeat ratios guard / empty
    speedup_over_number: float  # median of the per-repeat ratios Number / guard

    @property
    def empty_verdict(self) -> str:
        return "ok" if self.vs_empty <= MAX_VS_EMPTY else "over"

    @property
    def number_verdict(self) -> str:
        return "ok" if self.speedup_over_number >= MIN_SPEEDUP_OVER_NUMBER else "under"


def judge(repeats: Mapping[str, Sequence[float]]) -> dict[str, GuardCell]:
    """Each guard's cell from one subject's per-repeat seconds ({check: [seconds per repeat]})."""
    counts = {len(times) for times in repeats.values()}
    if len(counts) != 1 or 0 in counts:
        raise ValueError("judge needs the same, non-zero number of repeats for every check")
    empty_times, number_times = repeats[EMPTY], repeats[NUMBER_ABC]
    return {
        guard: GuardCell(
            seconds=statistics.median(repeats[guard]),
            empty_seconds=statistics.median(empty_times),
            number_seconds=statistics.median(number_times),
            vs_empty=statistics.median(g / e for g, e in zip(repeats[guard], empty_times)),
            speedup_over_number=statistics.median(
                n / g for n, g in zip(number_times, repeats[guard])),
        )
        for guard in GUARDS
    }


def time_repeats(checked: dict[str, Subject], number: int,
                 repeats: int) -> dict[str, dict[str, list[float]]]:
    """Seconds per call, {subject: {check: [one per repeat]}}, all interleaved."""
    times: dict[str, dict[str, list[float]]] = {
        name: {check: [] for check in STATEMENTS} for name in checked}
    checks = list(STATEMENTS)
    for repeat in range(repeats):
        # Rotating the order keeps a slow first or last slot off any one check.
        order = checks[repeat % len(checks):] + checks[:repeat % len(checks)]
        for name, subject in checked.items():
            namespace = {"x": subject.value, "empty": empty, "Number": numbers.Number,
                         "is_static_number": is_static_number,
                         "is_dynamic_number": is_dynamic_number}
            for check in order:
                seconds = timeit.timeit(STATEMENTS[check], globals=namespace, number=number)
                times[name][check].append(seconds / number)
    return times


def measure(number: int, repeats: int, with_torch: bool = True) -> dict[str, dict[str, GuardCell]]:
    """{subject: {guard: cell}}, after checking every guard answer."""
    checked = subjects(with_torch)
    wrong = wrong_answers(checked)
    if wrong:
        raise SystemExit(f"bench_guards: wrong guard answer for {', '.join(wrong)}")
    return {name: judge(times) for name, times in time_repeats(checked, number, repeats).items()}


def implementation() -> str:
    """Which guards are timed: the compiled ones or the pure-Python fallback."""
    return "pure Python" if type(is_static_number).__name__ == "function" else "compiled"


def format_table(cells: dict[str, dict[str, GuardCell]], title: str | None = None) -> str:
    """Nanoseconds per call, the two ratios per guard and their verdicts, one row per subject."""
    header = ["subject", EMPTY, *GUARDS, NUMBER_ABC,
              *(f"{_short(guard)}/empty (<={MAX_VS_EMPTY}x)" for guard in GUARDS),
              *(f"Number/{_short(guard)} (>={MIN_SPEEDUP_OVER_NUMBER:g}x)" for guard in GUARDS)]
    rows = []
    for subject, row in cells.items():
        first = row[GUARDS[0]]
        rows.append([
            subject, f"{first.empty_seconds * 1e9:.1f} ns",
            *(f"{row[guard].seconds * 1e9:.1f} ns" for guard in GUARDS),
            f"{first.number_seconds * 1e9:.1f} ns",
            *(f"{row[guard].vs_empty:.2f}x {row[guard].empty_verdict}" for guard in GUARDS),
            *(f"{row[guard].speedup_over_number:.2f}x {row[guard].number_verdict}"
              for guard in GUARDS),
        ])
    return render_table(title, header, rows, rule=title is not None)


def _short(guard: str) -> str:
    return guard.removeprefix("is_").removesuffix("_number")


def as_json(cells: dict[str, dict[str, GuardCell]]) -> dict[str, object]:
    """The cells with their verdicts, for ``python -m benchmarks --json``."""
    return {
        "implementation": implementation(),
        "subjects": {
            subject: {guard: {"ns": cell.seconds * 1e9, "empty_ns": cell.empty_seconds * 1e9,
                              "number_ns": cell.number_seconds * 1e9,
                              "vs_empty": cell.vs_empty, "empty_verdict": cell.empty_verdict,
                              "speedup_over_number": cell.speedup_over_number,
                              "number_verdict": cell.number_verdict}
                      for guard, cell in row.items()}
            for subject, row in cells.items()
        },
    }


def title() -> str:
    return (f"guards: ns per call and ratios, medians of interleaved repeats "
            f"({implementation()} guards)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny run to smoke-test the script")
    parser.add_argument("--no-torch", action="store_true", help="leave out torch SymInt subjects")
    parser.add_argument("--repeats", type=int, default=None,
                        help="interleaved repeats (default 21; quick: 3)")
    arguments = parser.parse_args(argv)
    if arguments.repeats is not None and arguments.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {arguments.repeats}")
    repeats = arguments.repeats or (3 if arguments.quick else 21)
    number = 1000 if arguments.quick else 100_000
    print(format_table(measure(number, repeats, with_torch=not arguments.no_torch), title()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
