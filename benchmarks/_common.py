"""Helpers shared by the benchmarks: paths, statistics, the machine, table layout."""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Downloads, corpora copies and mypy caches (``/scratch/`` is gitignored).
DEFAULT_WORKDIR = ROOT / "scratch" / "bench"


class BenchmarkError(Exception):
    """A benchmark cannot run; the message is one line meant for the user."""


def median(values: Sequence[float]) -> float:
    """Median of a non-empty sequence."""
    return statistics.median(values)


def ratio(value: float, baseline: float) -> float:
    """``value / baseline``; NaN when the baseline is not positive."""
    return value / baseline if baseline > 0 else float("nan")


def format_ratio(value: float) -> str:
    return f"{value:.3f}x" if value == value else "n/a"


def format_ns(seconds: float) -> str:
    return f"{seconds * 1e9:.1f} ns"


def machine_description() -> dict[str, str]:
    """The facts a reader needs to compare results: CPU, cores, memory, versions."""
    facts = {
        "cpu": _cpu_model(),
        "nproc": str(os.cpu_count() or "?"),
        "memory": _memory_total(),
        "load average": " ".join(f"{load:.2f}" for load in os.getloadavg()),
        "python": platform.python_version(),
    }
    try:
        from mypy.version import __version__ as mypy_version

        facts["mypy"] = mypy_version
    except ImportError:
        facts["mypy"] = "not installed"
    facts["torch"] = _installed_version("torch")
    return facts


def _installed_version(distribution: str) -> str:
    # importlib.metadata avoids importing torch just to read its version.
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_total() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                kib = int(line.split()[1])
                return f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return "unknown"


def render_table(
    title: str | None, header: Sequence[str], rows: Sequence[Sequence[str]], *, rule: bool = True
) -> str:
    """A plain-text table: first column left-aligned, the others right-aligned."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        first = f"{cells[0]:<{widths[0]}}"
        rest = [f"{cell:>{width}}" for cell, width in zip(cells[1:], widths[1:])]
        return "  ".join([first, *rest]).rstrip()

    lines = [] if title is None else [f"== {title} =="]
    lines.append(line(header))
    if rule:
        lines.append("-" * len(lines[-1]))
    return "\n".join([*lines, *(line(row) for row in rows)])


def note(message: str) -> None:
    """One progress or warning line on stderr (stdout carries only the tables)."""
    print(message, file=sys.stderr, flush=True)


def corpus_tool_parser(doc: str | None) -> argparse.ArgumentParser:
    """The arguments of the tools that run mypy once on one corpus (profile, hook times)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--corpus", default="torch-refs",
                        help="project, torch-refs, thunder or quick (default: torch-refs)")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser
