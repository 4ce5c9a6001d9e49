"""Where the plugin spends its time: cProfile on one in-process mypy run.

Run ``python -m benchmarks.profile_plugin --corpus torch-refs`` (cold cache,
plugin on).  mypy itself is compiled with mypyc and invisible to cProfile; the
plugin is plain Python, so every call into it is counted.  The profiler slows
Python code far more than compiled code, so the plugin's share printed here is
an upper bound; bench_plugin's ratios are the real cost.
"""

from __future__ import annotations

import ast
import cProfile
import os
import pstats
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    ROOT,
    corpus_tool_parser,
    render_table,
    run_corpus_tool,
)
from benchmarks.bench_plugin import run_in_process, write_configs  # noqa: E402
from benchmarks.corpus import corpora  # noqa: E402

PLUGIN_DIR = str(ROOT / "mypy_plugin") + os.sep


def _is_mypy(caller: tuple[str, int, str]) -> bool:
    # Compiled mypy shows up as the builtin it was entered through (mypy.api.run).
    path, _, name = caller
    return (path == "~" and name.startswith("<built-in method mypy")) or (
        f"{os.sep}mypy{os.sep}" in path and not path.startswith(PLUGIN_DIR))


@dataclass(frozen=True)
class HookCost:
    """Calls into one plugin function from mypy, and the time spent inside them."""

    function: str
    calls: int
    seconds: float


@dataclass(frozen=True)
class Profile:
    corpus: str
    run_seconds: float  # the whole mypy run, under the profiler
    plugin_seconds: float  # all time inside plugin code, entered from mypy
    entries: list[HookCost]  # one per plugin function mypy calls, costliest first
    inner: list[HookCost]  # every plugin function by its own (self) time, costliest first


def _qualified_names(path: str) -> dict[int, str]:
    """First line of each function in ``path`` -> ``Class.method.<inner>`` style name."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    names: dict[int, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    lines = [child.lineno, *(d.lineno for d in child.decorator_list)]
                    names.update({line: name for line in lines})
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return names


def _label(key: tuple[str, int, str], cache: dict[str, dict[int, str]]) -> str:
    path, line, name = key
    if path not in cache:
        cache[path] = _qualified_names(path)
    module = Path(path).stem
    return f"{module}.{cache[path].get(line, name)}"


def plugin_costs(stats: pstats.Stats) -> tuple[float, list[HookCost]]:
    """Total time in plugin code called directly by mypy, and the cost of each entry point."""
    raw = stats.stats  # type: ignore[attr-defined]  # pstats keeps its table untyped
    labels: dict[str, dict[int, str]] = {}
    entries: dict[str, HookCost] = {}
    total = 0.0
    for key, (_, _, _, _, callers) in raw.items():
        if not key[0].startswith(PLUGIN_DIR):
            continue
        for caller, (_, calls, _, cumulative) in callers.items():
            if not _is_mypy(caller):
                continue
            total += cumulative
            label = _label(key, labels)
            known = entries.get(label, HookCost(label, 0, 0.0))
            entries[label] = HookCost(label, known.calls + calls, known.seconds + cumulative)
    ranked = sorted(entries.values(), key=lambda entry: entry.seconds, reverse=True)
    return total, ranked


def self_times(stats: pstats.Stats, limit: int = 15) -> list[HookCost]:
    """Plugin functions by time spent in their own code (not in callees)."""
    raw = stats.stats  # type: ignore[attr-defined]
    labels: dict[str, dict[int, str]] = {}
    costs = [HookCost(_label(key, labels), calls, own)
             for key, (_, calls, own, _, _) in raw.items() if key[0].startswith(PLUGIN_DIR)]
    return sorted(costs, key=lambda cost: cost.seconds, reverse=True)[:limit]


def profile_corpus(name: str, workdir: Path) -> Profile:
    """One cold mypy run with the plugin on corpus ``name``, under cProfile."""
    workdir = workdir.resolve()
    (corpus,) = corpora([name], workdir)
    config = write_configs(corpus, workdir)["with"]
    profiler = cProfile.Profile()  # as a context manager: enabled just around the run
    elapsed = run_in_process(corpus, config, workdir / "cache" / "profile", lambda: profiler)
    stats = pstats.Stats(profiler)
    total, entries = plugin_costs(stats)
    return Profile(corpus.name, elapsed, total, entries, self_times(stats))


def format_rows(profile: Profile, limit: int = 12) -> list[list[str]]:
    """Rows of the profile table (header first); the last row is the total."""
    rows = [["plugin function called by mypy", "calls", "cumulative", "per call", "share of run"]]
    for entry in profile.entries[:limit]:
        per_call = entry.seconds / entry.calls * 1e6 if entry.calls else 0.0
        rows.append([entry.function, str(entry.calls), f"{entry.seconds:.3f} s",
                     f"{per_call:.1f} us", f"{entry.seconds / profile.run_seconds:.2%}"])
    calls = sum(entry.calls for entry in profile.entries)
    rows.append([f"all plugin code ({profile.corpus}, run {profile.run_seconds:.1f} s)",
                 str(calls), f"{profile.plugin_seconds:.3f} s", "",
                 f"{profile.plugin_seconds / profile.run_seconds:.2%}"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = corpus_tool_parser(__doc__)
    parser.add_argument("--self-times", action="store_true",
                        help="also list plugin functions by their own time")
    arguments = parser.parse_args(argv)

    def text(profile: Profile) -> str:
        rows = format_rows(profile)
        tables = [render_table(f"plugin profile: {profile.corpus}", rows[0], rows[1:])]
        if arguments.self_times:
            inner = [["plugin function", "calls", "own time"]] + [
                [cost.function, str(cost.calls), f"{cost.seconds:.3f} s"] for cost in profile.inner]
            tables.append(render_table("own time", inner[0], inner[1:]))
        return "\n".join(tables)

    return run_corpus_tool("profile_plugin", arguments.json,
                           lambda: profile_corpus(arguments.corpus, arguments.workdir),
                           asdict, text)

if __name__ == "__main__":
    sys.exit(main())
