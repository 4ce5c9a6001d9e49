"""Cost of a runtime audit: loops timed before, during and after ``proxy_types.audit()``.

Run ``python benchmarks/bench_audit.py`` (``--quick`` for a smoke run).  All
timings come from one process and one run: each loop is timed in turns
without an audit, inside one and again after it, best of the repeats; the
ratios are against the time without an audit.  Targets: at most 3x on the
isinstance-heavy loop while active, 1x (nothing patched) once it has ended.
"""

from __future__ import annotations

import argparse
import builtins
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import render_table  # noqa: E402
from proxy_types import IntegerProxy, NumberClasses, audit  # noqa: E402
from proxy_types._audit import patched_names  # noqa: E402

ACTIVE_LIMIT = 3.0
STATIC_VALUES: list[object] = [7, 2.5, "seven", 3, None, 1.0, (1,), 12] * 125
PROXIES: list[object] = [IntegerProxy(f"n{i}", i) for i in range(8)] * 125


def count_ints(values: list[object]) -> int:
    """The isinstance-heavy loop: one check per element, static values only."""
    found = 0
    for value in values:
        if isinstance(value, int):
            found += 1
    return found


def count_numbers(values: list[object]) -> int:
    """Correct code on proxies: checks that include the dynamic class (never recorded)."""
    found = 0
    for value in values:
        if isinstance(value, NumberClasses):
            found += 1
    return found


def count_merges(values: list[object]) -> int:
    """A merge in a loop: every check is recorded (deduplicated into one record)."""
    found = 0
    for value in values:
        if isinstance(value, int):
            found += 1
    return found


LOOPS: dict[str, tuple[Callable[[list[object]], int], list[object]]] = {
    "isinstance-heavy loop, static values": (count_ints, STATIC_VALUES),
    "isinstance(p, NumberClasses) on proxies": (count_numbers, PROXIES),
    "isinstance(p, int) on proxies (recorded)": (count_merges, PROXIES),
}
PHASES = ("before", "active", "after")


def measure(number: int, repeat: int) -> dict[str, dict[str, float]]:
    """Seconds per loop element: {loop: {phase: seconds}}, phases interleaved per repeat."""
    original = builtins.isinstance
    best: dict[str, dict[str, float]] = {name: {} for name in LOOPS}
    for _ in range(repeat):
        for phase in PHASES:
            session = audit(config=False)
            if phase == "active":
                session.__enter__()
            try:
                for name, (loop, values) in LOOPS.items():
                    seconds = timeit.timeit(lambda: loop(values), number=number)
                    per_element = seconds / (number * len(values))
                    best[name][phase] = min(best[name].get(phase, per_element), per_element)
            finally:
                if phase == "active":
                    session.__exit__(None, None, None)
            if phase != "active" and (builtins.isinstance is not original or patched_names()):
                raise SystemExit(f"bench_audit: something is patched {phase} the audit")
    return best


def format_table(timings: dict[str, dict[str, float]]) -> str:
    """Nanoseconds per element and the ratio to the time before the audit."""
    rows = []
    for name, row in timings.items():
        before = row["before"]
        cells = [name] + [f"{row[phase] * 1e9:.1f} ns ({row[phase] / before:4.2f}x)"
                          for phase in PHASES]
        rows.append(cells)
    return render_table("audit overhead", ["loop", *PHASES], rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny run to smoke-test the script")
    arguments = parser.parse_args(argv)
    number, repeat = (2, 1) if arguments.quick else (40, 30)
    timings = measure(number, repeat)
    print(format_table(timings))
    heavy = timings["isinstance-heavy loop, static values"]
    ratio = heavy["active"] / heavy["before"]
    verdict = "ok" if ratio <= ACTIVE_LIMIT else "over"
    print(f"\nactive audit on the isinstance-heavy loop: {ratio:.2f}x (target <= "
          f"{ACTIVE_LIMIT:.0f}x: {verdict}); after the audit nothing is patched")
    return 0


if __name__ == "__main__":
    sys.exit(main())
