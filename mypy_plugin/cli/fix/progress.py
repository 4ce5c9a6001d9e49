"""The mypy runs of ``fix``, counted, and a progress line for each phase that took long.

``fix`` checks, rewrites, checks again and undoes; on a large tree each mypy
run takes a while, so a phase that took at least ``PROXY_TYPES_PROGRESS_SECONDS``
(default 10) is reported on standard error with its number of mypy runs.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ..check import CheckResult, run_check
from ..common import CommandLineError

PROGRESS_VARIABLE = "PROXY_TYPES_PROGRESS_SECONDS"
DEFAULT_PROGRESS_SECONDS = 10.0


def progress_threshold() -> float:
    """Seconds a phase must take to get a progress line (``inf``: never)."""
    value = os.environ.get(PROGRESS_VARIABLE, "").strip()
    if not value:
        return DEFAULT_PROGRESS_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if math.isnan(seconds) or seconds < 0:
        raise CommandLineError(
            f"{PROGRESS_VARIABLE} must be a number of seconds (or inf), got {value!r}")
    return seconds


class MypyRuns:
    """Runs mypy for ``fix`` on the same paths and settings, counting each run."""

    def __init__(self, paths: Sequence[str], config: str | None, cache_dir: str | None) -> None:
        self.paths, self.config, self.cache_dir = paths, config, cache_dir
        self.count = 0
        self.threshold = progress_threshold()  # read first: a bad value costs no mypy run

    def check(self) -> CheckResult:
        self.count += 1
        return run_check(self.paths, self.config, self.cache_dir, record_arguments=True)

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time a phase; if it took long, say so with its mypy runs."""
        start, runs = time.monotonic(), self.count
        yield
        elapsed = time.monotonic() - start
        if elapsed >= self.threshold:
            done = self.count - runs
            print(f"proxy-types fix: {name}: {done} mypy run{'s' * (done != 1)}, "
                  f"{elapsed:.1f} s", file=sys.stderr, flush=True)
