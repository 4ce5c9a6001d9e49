"""Cost of one proxy operation (add, compare) inside and outside a trace.

Run ``python benchmarks/bench_operations.py`` (``--quick`` for a smoke run).  The
baseline of each operation is the same operation on a real torch ``SymInt``
(backed by a ``ShapeEnv``, which records every operation as a sympy
expression); a plain ``int`` is shown for scale.  One process, one run.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import format_ns, format_ratio, ratio, render_table  # noqa: E402
from benchmarks._symbolic import symbolic_subjects  # noqa: E402
from proxy_types import IntegerProxy, trace  # noqa: E402

OPERATIONS: dict[str, str] = {"add": "x + 1", "compare": "x < 7"}
BASELINE = "SymInt backed"


def _operands(with_torch: bool) -> dict[str, tuple[object, bool]]:
    """{row name: (operand, run inside a proxy_types trace)}."""
    operands: dict[str, tuple[object, bool]] = {
        "int": (3, False),
        "IntegerProxy outside trace": (IntegerProxy("n", 3), False),
        "IntegerProxy inside trace": (IntegerProxy("n", 3), True),
        "IntegerProxy no hint, inside trace": (IntegerProxy("m"), True),
    }
    symbolic = symbolic_subjects() if with_torch else None
    if symbolic is not None:
        operands[BASELINE] = (symbolic.backed_int, False)
        operands["SymInt unbacked"] = (symbolic.unbacked_int, False)
    return operands


def _time(statement: str, operand: object, in_trace: bool, number: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        # A fresh trace per repeat keeps the recorded list from growing across repeats.
        context: AbstractContextManager[object] = trace() if in_trace else nullcontext()
        timer = timeit.Timer(statement, globals={"x": operand})
        with context:
            best = min(best, timer.timeit(number))
    return best / number


def measure(number: int, repeat: int, with_torch: bool = True) -> dict[str, dict[str, float]]:
    """Seconds per operation: {row: {operation: seconds}}."""
    results: dict[str, dict[str, float]] = {}
    for name, (operand, in_trace) in _operands(with_torch).items():
        results[name] = {op: _time(statement, operand, in_trace, number, repeat)
                         for op, statement in OPERATIONS.items()}
    return results


def format_table(timings: dict[str, dict[str, float]], title: str | None = None) -> str:
    """ns per operation and the ratio against the same operation on a backed SymInt."""
    baseline = timings.get(BASELINE)
    header = ["operand"]
    for op, statement in OPERATIONS.items():
        header += [f"{op} `{statement}`", f"{op} vs SymInt"]
    rows = []
    for name, row in timings.items():
        cells = [name]
        for op in OPERATIONS:
            cells.append(format_ns(row[op]))
            cells.append(format_ratio(ratio(row[op], baseline[op])) if baseline else "n/a")
        rows.append(cells)
    return render_table(title, header, rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="tiny run to smoke-test the script")
    parser.add_argument("--no-torch", action="store_true", help="leave out the SymInt rows")
    arguments = parser.parse_args(argv)
    number, repeat = (100, 1) if arguments.quick else (20_000, 5)
    print(format_table(measure(number, repeat, with_torch=not arguments.no_torch)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
