"""mypy with and without the plugin on the same code: wall time, CPU time, peak memory.

Each run is a fresh ``python -m mypy`` subprocess.  The two variants use config
files that differ only in the ``plugins = mypy_plugin`` line, and separate cache
directories.  Runs alternate in pairs (without, with; with, without; ...) so
a change in machine load hits both alike and neither variant always runs
second.  Cold runs start from an empty cache; warm runs reuse a cache primed by
one untimed run per variant.
"""

from __future__ import annotations

import compileall
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from .common import ROOT, BenchmarkError, PairedChange, median, note, paired_change, ratio
from .corpus import Corpus, with_plugin

VARIANTS = ("without", "with")


@dataclass(frozen=True)
class Run:
    """One mypy process: wall seconds, CPU seconds (user + sys), peak RSS in MiB."""

    wall: float
    cpu: float
    peak_rss_mib: float
    plugin_reports: int  # lines with a proxy-* error code
    system: float = 0.0  # the kernel's part of ``cpu``


@dataclass
class Comparison:
    """All runs of one corpus in one cache mode, by variant."""

    corpus: str
    lines: int
    mode: str  # "cold" | "warm"
    limit: float  # largest acceptable ratio with / without (Corpus.ratio_limit)
    runs: dict[str, list[Run]] = field(default_factory=lambda: {v: [] for v in VARIANTS})

    def median_wall(self, variant: str) -> float:
        return median([run.wall for run in self.runs[variant]])

    def median_cpu(self, variant: str) -> float:
        return median([run.cpu for run in self.runs[variant]])

    def peak_rss(self, variant: str) -> float:
        return max(run.peak_rss_mib for run in self.runs[variant])

    def wall_ratio(self) -> float:
        return ratio(self.median_wall("with"), self.median_wall("without"))

    def cpu_ratio(self) -> float:
        return ratio(self.median_cpu("with"), self.median_cpu("without"))

    def cpu_change(self) -> PairedChange:
        """Mean CPU-time change from the plugin over the pairs, with its 95% interval."""
        return paired_change([run.cpu for run in self.runs["without"]],
                             [run.cpu for run in self.runs["with"]])

    def rss_ratio(self) -> float:
        return ratio(self.peak_rss("with"), self.peak_rss("without"))

    def plugin_reports(self) -> int:
        return max(run.plugin_reports for run in self.runs["with"])


def write_configs(corpus: Corpus, workdir: Path) -> dict[str, Path]:
    """Config files for both variants; they differ only in the plugins line."""
    directory = workdir / "configs"
    directory.mkdir(parents=True, exist_ok=True)
    slug = corpus.name.split(" ")[0]
    paths = {"without": directory / f"{slug}-without.ini", "with": directory / f"{slug}-with.ini"}
    paths["without"].write_text(corpus.settings, encoding="utf-8")
    paths["with"].write_text(with_plugin(corpus.settings), encoding="utf-8")
    return paths


def compile_bytecode() -> None:
    """Bring the plugin's .pyc files up to date, as installing the package would.

    Under PYTHONDONTWRITEBYTECODE a checkout's plugin is recompiled on every mypy
    run (~10 ms), a cost users never pay; checked before each run because the
    sources may change while the benchmark runs.
    """
    for package in ("mypy_plugin", "proxy_types"):
        compileall.compile_dir(str(ROOT / package), quiet=1)


def mypy_command(*, one_parse_thread: bool = False) -> list[str]:
    """``python -m mypy`` that imports the plugin from the checkout, not the working directory.

    ``-m`` puts the working directory first on ``sys.path``; the project corpus holds
    its own uncompiled copy of ``mypy_plugin/``, which would shadow the measured one.
    ``-P`` (Python 3.11+) leaves the working directory out.  ``one_parse_thread``:
    mypy started by :data:`ONE_PARSE_THREAD` instead (for instruction counts).
    """
    safe_path = ["-P"] if sys.version_info >= (3, 11) else []
    if one_parse_thread:
        return [sys.executable, *safe_path, "-c", ONE_PARSE_THREAD]
    return [sys.executable, *safe_path, "-m", "mypy"]


#: mypy's command line with one thread for parsing.  mypy 2 parses files in a pool
#: of threads; under valgrind their interleaving differs from run to run, which
#: moves where objects are allocated and so the order of sets of them: counts of
#: the same code differed by up to 0.16% (76.81-76.93 G for mypy alone on thunder).
#: The parsing done is the same; mypys without the setting run as they are.
ONE_PARSE_THREAD = """\
import sys
import mypy.util
if hasattr(mypy.util, "_AVAILABLE_THREADS"):
    mypy.util._AVAILABLE_THREADS = 1
from mypy.__main__ import console_entry
sys.argv[0] = "mypy"
console_entry()
"""


def checkout_environment() -> dict[str, str]:
    """This process's environment with the checkout first on ``PYTHONPATH``.

    Both variants get the same path, so the import of mypy_plugin is the only difference.
    """
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(ROOT), environment.get("PYTHONPATH", "")]))
    return environment


def mypy_arguments(corpus: Corpus, config: Path, cache_dir: Path, *,
                   one_parse_thread: bool = False) -> list[str]:
    """The command line of one mypy run on ``corpus``."""
    return [*mypy_command(one_parse_thread=one_parse_thread), "--config-file", str(config),
            "--cache-dir", str(cache_dir), *corpus.targets]


def checked_output(corpus: Corpus, config: Path, status: int, log: Path) -> str:
    """The run's output from ``log``; a BenchmarkError naming its last line if mypy failed."""
    text = log.read_text(encoding="utf-8", errors="replace")
    if status not in (0, 1):  # 1: type errors found, which is normal here
        last = last_line(text) or "no output"
        raise BenchmarkError(f"mypy on {corpus.name} with {config.name} exited {status}: {last}")
    return text


def last_line(text: str) -> str:
    """The last line of a run's output that is not valgrind's own (``==PID== ...``)."""
    lines = [line for line in text.strip().splitlines() if not _VALGRIND_LINE.match(line)]
    return lines[-1] if lines else ""


_VALGRIND_LINE = re.compile(r"^==\d+==")


def proxy_reports(text: str) -> int:
    """Lines of mypy output with a ``proxy-*`` error code."""
    return sum("[proxy-" in line for line in text.splitlines())


def run_mypy(corpus: Corpus, config: Path, cache_dir: Path, log: Path) -> Run:
    """One fresh mypy process on ``corpus``; its output goes to ``log``."""
    compile_bytecode()
    with log.open("w", encoding="utf-8") as output:
        start = time.perf_counter()
        process = subprocess.Popen(mypy_arguments(corpus, config, cache_dir),
                                   cwd=corpus.directory, env=checkout_environment(),
                                   stdout=output, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    text = checked_output(corpus, config, process.returncode, log)
    return Run(wall=wall, cpu=usage.ru_utime + usage.ru_stime, system=usage.ru_stime,
               peak_rss_mib=usage.ru_maxrss / 1024, plugin_reports=proxy_reports(text))


def run_in_process(
    corpus: Corpus,
    config: Path,
    cache_dir: Path,
    around: Callable[[], AbstractContextManager[object]] = nullcontext,
) -> float:
    """One cold mypy run on ``corpus`` in this process, inside ``around()``; its seconds.

    Moves this process into the corpus directory, where mypy runs.
    """
    from mypy import api

    shutil.rmtree(cache_dir, ignore_errors=True)
    sys.path.insert(0, str(ROOT))  # mypy imports the plugin by module name
    os.chdir(corpus.directory)
    with around():
        start = time.perf_counter()
        _, errors, status = api.run(["--config-file", str(config), "--cache-dir",
                                     str(cache_dir), *corpus.targets])
        elapsed = time.perf_counter() - start
    if status not in (0, 1):  # 1: type errors found, which is normal here
        raise BenchmarkError(f"mypy on {corpus.name} exited {status}: "
                             f"{(errors.strip().splitlines() or ['no output'])[-1]}")
    return elapsed


@dataclass(frozen=True)
class Workspace:
    """Where the runs of one corpus keep their configs, caches and logs, by variant."""

    configs: dict[str, Path]
    caches: dict[str, Path]
    logs: dict[str, Path]


def workspace(corpus: Corpus, workdir: Path, prefix: str = "") -> Workspace:
    """Configs, cache directories and log files for ``corpus`` under ``workdir``."""
    workdir = workdir.resolve()  # mypy runs in the corpus directory
    slug = prefix + corpus.name.split(" ")[0]
    (workdir / "logs").mkdir(parents=True, exist_ok=True)
    return Workspace(configs=write_configs(corpus, workdir),
                     caches={v: workdir / "cache" / f"{slug}-{v}" for v in VARIANTS},
                     logs={v: workdir / "logs" / f"{slug}-{v}.log" for v in VARIANTS})


def compare(corpus: Corpus, workdir: Path, mode: str, pairs: int) -> Comparison:
    """``pairs`` alternating runs without and with the plugin, cold or warm cache."""
    space = workspace(corpus, workdir)
    comparison = Comparison(corpus.name, corpus.python_lines(), mode,
                            corpus.ratio_limit(mode))
    if mode == "warm":
        for variant in VARIANTS:  # prime: one untimed run fills each cache
            run_mypy(corpus, space.configs[variant], space.caches[variant], space.logs[variant])
    for index in range(pairs):
        # Every other pair runs the plugin first, so neither variant always follows
        # the other (the page cache, the writeback of the last run's cache files).
        for variant in VARIANTS if index % 2 == 0 else VARIANTS[::-1]:
            if mode == "cold":
                shutil.rmtree(space.caches[variant], ignore_errors=True)
            run = run_mypy(corpus, space.configs[variant], space.caches[variant],
                           space.logs[variant])
            comparison.runs[variant].append(run)
            note(f"  {corpus.name} {mode} {variant} plugin, run {index + 1}/{pairs}: "
                 f"{run.wall:.2f} s wall, {run.cpu:.2f} s cpu, {run.peak_rss_mib:.0f} MiB")
    if any(run.plugin_reports for run in comparison.runs["without"]):
        raise BenchmarkError(f"{corpus.name}: proxy-* errors without the plugin; "
                             "the baseline config is not plugin-free")
    return comparison


def format_time_table(comparisons: list[Comparison], title: str | None) -> list[list[str]]:
    """Rows of the overhead table (header first)."""
    header = ["corpus", "lines", "cache", "runs", "wall without", "wall with", "wall ratio",
              "cpu without", "cpu with", "cpu ratio", "cpu change (95%)", "cpu target",
              "proxy reports"]
    rows = [header]
    for c in comparisons:
        limit = c.limit - 1
        change = c.cpu_change()
        # Judged on CPU time (on a shared machine wall time also counts waiting for a
        # core) and on the interval: the median of a few noisy pairs can't tell 2% from 4%.
        rows.append([c.corpus, str(c.lines), c.mode, f"{len(c.runs['with'])}x2",
                     f"{c.median_wall('without'):.3f} s", f"{c.median_wall('with'):.3f} s",
                     f"{c.wall_ratio():.3f}x", f"{c.median_cpu('without'):.3f} s",
                     f"{c.median_cpu('with'):.3f} s", f"{c.cpu_ratio():.3f}x",
                     change.describe(), f"<=+{limit:.0%} {change.verdict(limit)}",
                     str(c.plugin_reports())])
    return rows


def format_memory_rows(comparisons: list[Comparison]) -> list[list[str]]:
    """Rows of the memory table (header first): peak over the cold runs, else the warm ones."""
    rows = [["corpus", "lines", "cache", "peak RSS without", "peak RSS with", "ratio"]]
    for c in comparisons:
        if c.mode == "cold" or not any(o.mode == "cold" and o.corpus == c.corpus
                                       for o in comparisons):
            rows.append([c.corpus, str(c.lines), c.mode, f"{c.peak_rss('without'):.0f} MiB",
                         f"{c.peak_rss('with'):.0f} MiB", f"{c.rss_ratio():.3f}x"])
    return rows
