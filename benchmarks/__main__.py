"""Run every benchmark and print the tables: ``python -m benchmarks [--quick]``.

Sections: ``plugin`` (mypy with/without the plugin: time and memory),
``instructions`` (the same comparison counted in instructions, under valgrind),
``profile`` (cProfile of the plugin's hooks), ``guards`` (guards against an
empty call and isinstance), ``operations`` (proxy operations against torch SymInt) and
``audit`` (an isinstance-heavy loop with and without an active runtime audit).
Progress goes to stderr, tables to stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

from . import bench_audit, bench_guards, bench_operations, count_instructions
from .common import (
    DEFAULT_WORKDIR,
    ROOT,
    BenchmarkError,
    machine_description,
    note,
    parse_modes,
    render_table,
)
from .bench_plugin import Comparison, compare, format_memory_rows, format_time_table
from .corpus import KNOWN_CORPORA, Corpus, corpora
from .count_instructions import InstructionCount
from .profile_plugin import HookCost, Profile, format_rows

SECTIONS = ("plugin", "instructions", "profile", "guards", "operations", "audit")
FULL_CORPORA = "project,torch-refs,thunder"


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description="Run the proxy-types benchmarks.")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: tiny corpus, one pair of runs, few iterations")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma-separated subset of {', '.join(SECTIONS)}")
    parser.add_argument("--corpora", default=None,
                        help=f"plugin corpora (default {FULL_CORPORA}; quick: quick)")
    parser.add_argument("--cold-pairs", type=int, default=None,
                        help="alternating without/with pairs, cold cache (default 20)")
    parser.add_argument("--warm-pairs", type=int, default=None,
                        help="alternating without/with pairs, warm cache (default 30)")
    parser.add_argument("--modes", default="cold,warm",
                        help="cache modes to measure: cold, warm or cold,warm (default)")
    parser.add_argument("--profile-corpus", default=None,
                        help="corpus for the hook profile (default torch-refs)")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR,
                        help="downloads, corpus copies and caches (default scratch/bench)")
    parser.add_argument("--json", type=Path, default=None, help="also write results here")
    arguments = parser.parse_args(argv)
    sections = [s.strip() for s in arguments.sections.split(",") if s.strip()]
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        parser.error(f'unknown section "{unknown[0]}" (known: {", ".join(SECTIONS)})')
    arguments.sections = sections
    try:
        arguments.modes = parse_modes(arguments.modes)
    except ValueError as error:
        parser.error(str(error))
    for name in ("cold_pairs", "warm_pairs"):
        value = getattr(arguments, name)
        if value is not None and value < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1, got {value}")
        if value is None:
            setattr(arguments, name, 1 if arguments.quick else (20 if name == "cold_pairs" else 30))
    arguments.corpora = arguments.corpora or ("quick" if arguments.quick else FULL_CORPORA)
    arguments.profile_corpus = arguments.profile_corpus or (
        "quick" if arguments.quick else "torch-refs")
    for name in [*arguments.corpora.split(","), arguments.profile_corpus]:
        if name.strip() not in KNOWN_CORPORA:
            parser.error(f'unknown corpus "{name.strip()}" (known: {", ".join(KNOWN_CORPORA)})')
    return arguments


def _prepared_corpora(arguments: argparse.Namespace) -> Iterator[Corpus]:
    """The plugin corpora in order; one that cannot be prepared is skipped, except in --quick."""
    for name in (name.strip() for name in arguments.corpora.split(",")):
        if not name:
            continue
        try:
            (corpus,) = corpora([name], arguments.workdir)
        except BenchmarkError as error:
            if arguments.quick:
                raise
            note(f"skipping corpus {name}: {error}")
            continue
        yield corpus


def plugin_section(arguments: argparse.Namespace) -> tuple[str, list[Comparison]]:
    """Overhead and memory tables for each corpus, cold then warm."""
    comparisons: list[Comparison] = []
    for corpus in _prepared_corpora(arguments):
        for mode, pairs in (("cold", arguments.cold_pairs), ("warm", arguments.warm_pairs)):
            if mode not in arguments.modes:
                continue
            comparisons.append(compare(corpus, arguments.workdir, mode, pairs))
    if not comparisons:
        raise BenchmarkError("no corpus could be prepared")
    time_rows = format_time_table(comparisons, None)
    memory_rows = format_memory_rows(comparisons)
    text = "\n\n".join([
        render_table("plugin overhead: mypy without vs with the plugin (medians; change: "
                     "mean paired CPU difference, 95% interval)",
                     time_rows[0], time_rows[1:]),
        render_table("memory: peak RSS of one cold mypy run (max over runs)",
                     memory_rows[0], memory_rows[1:]),
    ])
    return text, comparisons


def instructions_section(arguments: argparse.Namespace) -> tuple[str, list[InstructionCount]]:
    """Instruction counts for each corpus and cache mode (valgrind, one run per variant)."""
    counts: list[InstructionCount] = []
    for corpus in _prepared_corpora(arguments):
        counts.extend(count_instructions.count(corpus, arguments.workdir, mode)
                      for mode in arguments.modes)
    if not counts:
        raise BenchmarkError("no corpus could be prepared")
    rows = count_instructions.format_rows(counts)
    title = "instructions: mypy without vs with the plugin (valgrind, one run each)"
    return render_table(title, rows[0], rows[1:]), counts


def profile_section(arguments: argparse.Namespace) -> tuple[str, Profile]:
    """The hook profile, taken in a fresh process so nothing earlier skews it."""
    command = [sys.executable, "-m", "benchmarks.profile_plugin", "--json",
               "--corpus", arguments.profile_corpus, "--workdir", str(arguments.workdir.resolve())]
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    completed = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True,
                               text=True, check=False)
    if completed.returncode != 0:
        last = (completed.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchmarkError(f"profile of {arguments.profile_corpus} failed: {last}")
    data = json.loads(completed.stdout)
    profile = Profile(data["corpus"], data["run_seconds"], data["plugin_seconds"],
                      [HookCost(**entry) for entry in data["entries"]],
                      [HookCost(**entry) for entry in data["inner"]])
    rows = format_rows(profile)
    title = f"plugin profile: cProfile of one cold in-process mypy run on {profile.corpus}"
    return render_table(title, rows[0], rows[1:]), profile


def main(argv: list[str] | None = None) -> int:
    arguments = _parse(argv)
    results: dict[str, Any] = {"machine": machine_description(), "quick": arguments.quick}
    print(render_table("machine", ["fact", "value"], list(results["machine"].items())))
    try:
        if "plugin" in arguments.sections:
            text, comparisons = plugin_section(arguments)
            print(f"\n{text}", flush=True)
            results["plugin"] = [{**asdict(c), "cpu_change": c.cpu_change().as_json()}
                                 for c in comparisons]
        if "instructions" in arguments.sections and not count_instructions.valgrind_available():
            note("skipping the instruction counts: valgrind is not installed")
        elif "instructions" in arguments.sections:
            text, counts = instructions_section(arguments)
            print(f"\n{text}", flush=True)
            results["instructions"] = [asdict(c) for c in counts]
        if "profile" in arguments.sections:
            note("profiling the plugin ...")
            text, profile = profile_section(arguments)
            print(f"\n{text}", flush=True)
            results["profile"] = asdict(profile)
        if "guards" in arguments.sections:
            note("timing the guards ...")
            number, repeats = (1000, 3) if arguments.quick else (100_000, 21)
            guard_cells = bench_guards.measure(number, repeats)
            print("\n" + bench_guards.format_table(guard_cells, bench_guards.title()), flush=True)
            results["guards"] = bench_guards.as_json(guard_cells)
        if "operations" in arguments.sections:
            note("timing proxy operations ...")
            number, repeat = (100, 1) if arguments.quick else (20_000, 5)
            operation_timings = bench_operations.measure(number, repeat)
            print("\n" + bench_operations.format_table(
                operation_timings, "operations: ns per operation (ratio to a backed torch SymInt)"),
                flush=True)
            results["operations"] = operation_timings
        if "audit" in arguments.sections:
            note("timing an active runtime audit ...")
            number, repeat = (2, 1) if arguments.quick else (40, 30)
            audit_timings = bench_audit.measure(number, repeat)
            print("\n" + bench_audit.format_table(audit_timings), flush=True)
            results["audit"] = audit_timings
    except BenchmarkError as error:
        print(f"benchmarks: error: {error}", file=sys.stderr)
        return 2
    if arguments.json is not None:
        arguments.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
