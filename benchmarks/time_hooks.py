"""Real time inside the plugin's hooks, per family: one cold in-process mypy run.

Run ``python -m benchmarks.time_hooks --corpus thunder``.  cProfile (see
profile_plugin.py) slows the plugin's Python code far more than compiled mypy,
so its shares overstate the plugin.  Here the plugin runs unprofiled: mypy
loads :class:`TimedPlugin`, the real plugin whose hooks are wrapped in a clock
(``time.perf_counter``), so each family's time is what the plugin costs mypy in
that family, mypy's own work done inside the hooks included.  Hook lookups
(mypy asks for a hook by name before every call it checks) are counted and
timed when they run Python code: the plugin answers a name it has answered
before from a dict, without running any (see ``mypy_plugin/main.py``).  The
clock's own cost, measured in the same run, is subtracted from the lookups.
"""

from __future__ import annotations

import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mypy.plugin import Plugin  # noqa: E402

from benchmarks.common import (  # noqa: E402
    BenchmarkError,
    corpus_tool_parser,
    render_table,
    run_corpus_tool,
)
from benchmarks.bench_plugin import run_in_process, write_configs  # noqa: E402
from benchmarks.corpus import PLUGINS_LINE, corpora  # noqa: E402

#: Hook lookup -> the family its hooks belong to.
FAMILIES: dict[str, str] = {
    "get_function_hook": "isinstance checks (function hook)",
    "get_function_signature_hook": "conversions (function signature hook)",
    "get_method_signature_hook": "indexing (method signature hook)",
    "get_method_hook": "comparisons, register (method hook)",
    "get_type_analyze_hook": "casts, bare conditions (type analysis)",
    "get_base_class_hook": "class bases (base class hook)",
    "get_customize_class_mro_hook": "migration (class MRO hook)",
}
LOOKUPS = "hook lookups that ran Python"

_Ctx = TypeVar("_Ctx")
_Result = TypeVar("_Result")

#: Family -> seconds and calls, filled in by the plugin while mypy runs.
seconds: defaultdict[str, float] = defaultdict(float)
calls: Counter[str] = Counter()


def _timed(family: str, hook: Callable[[_Ctx], _Result]) -> Callable[[_Ctx], _Result]:
    def run(ctx: _Ctx) -> _Result:
        start = time.perf_counter()
        try:
            return hook(ctx)
        finally:
            seconds[family] += time.perf_counter() - start
            calls[family] += 1

    return run


def _timed_lookup(name: str, parent: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    family = FAMILIES[name]

    def lookup(self: Any, fullname: str) -> Any:
        start = time.perf_counter()
        hook = parent(self, fullname)
        seconds[LOOKUPS] += time.perf_counter() - start
        calls[LOOKUPS] += 1
        return None if hook is None else _timed(family, hook)

    return lookup


def _timed_plugin_class() -> type[Plugin]:
    from mypy_plugin.main import ProxyTypesPlugin

    return type("TimedPlugin", (ProxyTypesPlugin,),
                {name: _timed_lookup(name, getattr(ProxyTypesPlugin, name)) for name in FAMILIES})


TimedPlugin: type[Plugin] = _timed_plugin_class()


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point (``plugins = benchmarks.time_hooks``)."""
    return TimedPlugin


def clock_cost(samples: int = 200_000) -> float:
    """Seconds one timed lookup adds around a lookup that does nothing.

    Times the same steps as the lookup wrapper (two clock reads, a call, two
    counter updates) around a function that returns None at once.
    """

    def nothing(self: object, fullname: str) -> None:
        return None

    spent: defaultdict[str, float] = defaultdict(float)
    counted: Counter[str] = Counter()
    start = time.perf_counter()
    for _ in range(samples):
        begin = time.perf_counter()
        nothing(None, "builtins.int.__lt__")
        spent["x"] += time.perf_counter() - begin
        counted["x"] += 1
    return (time.perf_counter() - start) / samples


@dataclass(frozen=True)
class FamilyTime:
    family: str
    calls: int
    seconds: float


@dataclass(frozen=True)
class HookTimes:
    corpus: str
    run_seconds: float
    families: list[FamilyTime]  # costliest first, lookups last


def time_corpus(name: str, workdir: Path) -> HookTimes:
    """One cold mypy run with the timed plugin on corpus ``name``."""
    workdir = workdir.resolve()
    (corpus,) = corpora([name], workdir)
    plain = write_configs(corpus, workdir)["with"]
    config = plain.with_name(plain.stem + "-timed.ini")
    text = plain.read_text(encoding="utf-8")
    if PLUGINS_LINE not in text:
        raise BenchmarkError(f"{plain}: no '{PLUGINS_LINE}' line to replace")
    config.write_text(text.replace(PLUGINS_LINE, "plugins = benchmarks.time_hooks"),
                      encoding="utf-8")
    elapsed = run_in_process(corpus, config, workdir / "cache" / "time-hooks")
    # mypy imported this file as benchmarks.time_hooks, which may not be __main__.
    loaded = sys.modules["benchmarks.time_hooks"]
    measured: defaultdict[str, float] = loaded.seconds
    counted: Counter[str] = loaded.calls
    if not counted[LOOKUPS]:
        raise BenchmarkError(f"mypy on {corpus.name} never asked the timed plugin for a hook")
    lookups = max(0.0, measured[LOOKUPS] - counted[LOOKUPS] * clock_cost())
    families = sorted((FamilyTime(family, counted[family], measured[family])
                       for family in counted if family != LOOKUPS),
                      key=lambda item: item.seconds, reverse=True)
    return HookTimes(corpus.name, elapsed,
                     [*families, FamilyTime(LOOKUPS, counted[LOOKUPS], lookups)])


def format_rows(times: HookTimes) -> list[list[str]]:
    """Rows of the table (header first); the last row is the total."""
    rows = [["hook family", "calls", "time", "per call", "share of run"]]
    for item in times.families:
        per_call = item.seconds / item.calls * 1e6 if item.calls else 0.0
        rows.append([item.family, str(item.calls), f"{item.seconds * 1e3:.1f} ms",
                     f"{per_call:.2f} us", f"{item.seconds / times.run_seconds:.2%}"])
    total = sum(item.seconds for item in times.families)
    rows.append([f"all hooks and lookups ({times.corpus}, run {times.run_seconds:.1f} s)",
                 str(sum(item.calls for item in times.families)), f"{total * 1e3:.1f} ms", "",
                 f"{total / times.run_seconds:.2%}"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = corpus_tool_parser(__doc__)
    arguments = parser.parse_args(argv)
    return run_corpus_tool("time_hooks", arguments.json,
                           lambda: time_corpus(arguments.corpus, arguments.workdir),
                           asdict, _table_text)


def _table_text(times: HookTimes) -> str:
    rows = format_rows(times)
    return render_table(f"time inside the plugin's hooks: {times.corpus}", rows[0], rows[1:])

if __name__ == "__main__":
    sys.exit(main())
