"""Helpers shared by the benchmarks: paths, statistics, the machine, table layout."""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

_Result = TypeVar("_Result")

ROOT = Path(__file__).resolve().parent.parent
#: Downloads, corpora copies and mypy caches (``/scratch/`` is gitignored).
DEFAULT_WORKDIR = ROOT / "scratch" / "bench"


class BenchmarkError(Exception):
    """A benchmark cannot run; the message is one line meant for the user."""


def median(values: Sequence[float]) -> float:
    """Median of a non-empty sequence."""
    return statistics.median(values)


#: Two-sided 95% critical values of Student's t, by degrees of freedom; a df
#: between two keys, or above the last, uses the smaller key (the wider interval).
_T_975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
          9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131,
          16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074,
          23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045,
          30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


@dataclass(frozen=True)
class PairedChange:
    """Mean change of B over A in paired runs, relative to A's mean, with a 95% interval.

    ``low`` and ``high`` are NaN with fewer than two pairs.
    """

    mean: float
    low: float
    high: float
    pairs: int

    def verdict(self, limit: float) -> str:
        """``ok`` when the whole interval is at most ``limit``, ``over`` when all of it
        is above, ``unclear`` when it straddles ``limit`` or is unknown."""
        if self.high <= limit:
            return "ok"
        if self.low > limit:
            return "over"
        return "unclear"

    def describe(self) -> str:
        """``+1.62% (+0.25..+2.99)``; only the mean with one pair."""
        if math.isnan(self.high):
            return "n/a" if math.isnan(self.mean) else f"{self.mean:+.2%} (1 pair)"
        # Two decimals: an end that rounds onto the target would hide the verdict's reason.
        return f"{self.mean:+.2%} ({self.low * 100:+.2f}..{self.high * 100:+.2f})"

    def as_json(self) -> dict[str, float | int | None]:
        """The fields, with None for an unknown bound (JSON has no NaN)."""
        return {"mean": None if math.isnan(self.mean) else self.mean,
                "low": None if math.isnan(self.low) else self.low,
                "high": None if math.isnan(self.high) else self.high,
                "pairs": self.pairs}


def paired_change(baseline: Sequence[float], changed: Sequence[float]) -> PairedChange:
    """Student's t interval for the mean of ``changed[i] - baseline[i]``, over ``mean(baseline)``.

    Pairs share the machine's state at the time they ran, so their differences
    vary much less than either list; the uncertainty of the baseline's mean,
    a second-order effect here, is left out.
    """
    if len(baseline) != len(changed) or not baseline:
        raise ValueError("paired_change needs two equally long, non-empty lists")
    scale = statistics.fmean(baseline)
    if scale <= 0:
        nan = float("nan")
        return PairedChange(nan, nan, nan, len(baseline))
    differences = [b - a for a, b in zip(baseline, changed)]
    mean = statistics.fmean(differences)
    if len(differences) < 2:
        return PairedChange(mean / scale, float("nan"), float("nan"), 1)
    degrees = len(differences) - 1
    critical = _T_975[max(df for df in _T_975 if df <= degrees)]
    half_width = critical * statistics.stdev(differences) / math.sqrt(len(differences))
    return PairedChange(mean / scale, (mean - half_width) / scale, (mean + half_width) / scale,
                        len(differences))


MODES = ("cold", "warm")


def parse_modes(value: str) -> list[str]:
    """``cold``, ``warm`` or ``cold,warm`` as a list; ValueError with a one-line message."""
    modes = [mode.strip() for mode in value.split(",") if mode.strip()]
    if not modes or any(mode not in MODES for mode in modes):
        raise ValueError(f'--modes: expected cold, warm or cold,warm, got "{value}"')
    return modes


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


def run_corpus_tool(tool: str, as_json: bool, measure: Callable[[], _Result],
                    data: Callable[[_Result], object], text: Callable[[_Result], str]) -> int:
    """Run ``measure`` and print its result as JSON or as ``text``; 2 and one line on error."""
    try:
        result = measure()
    except BenchmarkError as error:
        print(f"{tool}: error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(data(result)) if as_json else text(result))
    return 0


def corpus_tool_parser(doc: str | None) -> argparse.ArgumentParser:
    """The arguments of the tools that run mypy once on one corpus (profile, hook times)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    parser.add_argument("--corpus", default="torch-refs",
                        help="project, torch-refs, thunder, torch-traced or quick (default: torch-refs)")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser
