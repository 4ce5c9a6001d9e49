"""Instructions mypy executes without and with the plugin, counted by valgrind.

Run ``python -m benchmarks.count_instructions --corpus thunder``.  On a
virtual machine the CPU time of one cold mypy run varies by several percent
between runs of the same code (docs/performance.md), so the time benchmark
needs dozens of pairs to tell a 2% cost from a 4% one.  An instruction count
(valgrind's cachegrind, no cache simulation) hardly varies: the same binary,
inputs and hash seed give the same count whatever else the machine is doing.
One run per variant therefore settles the question "how much more work does
mypy do with the plugin", which is what the 3% and 2% targets are about.
Instructions are not seconds (a cache miss costs more than an add), which is
why the time benchmark stays the first table.

Both variants run at once, one per core: a count does not depend on load.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import BenchmarkError, corpus_tool_parser, note, ratio, render_table  # noqa: E402
from benchmarks.bench_plugin import (  # noqa: E402
    TARGETS,
    VARIANTS,
    Workspace,
    checkout_environment,
    compile_bytecode,
    mypy_command,
    workspace,
)
from benchmarks.corpus import Corpus, corpora  # noqa: E402

#: Cachegrind counting instructions only: the cache and branch simulations would
#: make it several times slower and are not needed for a count.
VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no")
_TOTAL = re.compile(r"^==\d+== I\s+refs:\s+([\d,]+)\s*$", re.MULTILINE)
#: Same hash seed for both variants: set and dict orders, hence the work done, match.
HASH_SEED = "0"


@dataclass(frozen=True)
class InstructionCount:
    """Instructions of one mypy run per variant, on one corpus in one cache mode."""

    corpus: str
    mode: str  # "cold" | "warm"
    without: int
    with_plugin: int
    plugin_reports: int  # proxy-* lines in the plugin run's output

    def ratio(self) -> float:
        return ratio(self.with_plugin, self.without)


def valgrind_available() -> bool:
    return shutil.which(VALGRIND[0]) is not None


def count(corpus: Corpus, workdir: Path, mode: str) -> InstructionCount:
    """Count both variants on ``corpus``: from an empty cache (cold) or a primed one (warm)."""
    if not valgrind_available():
        raise BenchmarkError("valgrind is not installed (Debian package valgrind)")
    space = workspace(corpus, workdir, prefix="count-")
    compile_bytecode()
    environment = dict(checkout_environment(), PYTHONHASHSEED=HASH_SEED)
    for variant in VARIANTS:
        shutil.rmtree(space.caches[variant], ignore_errors=True)
        if mode == "warm":  # prime the cache without valgrind: only the second run is counted
            _finish(corpus, variant, _start([], corpus, space, variant, environment))
    note(f"  counting instructions: {corpus.name} {mode}, both variants under valgrind ...")
    started = {v: _start(list(VALGRIND), corpus, space, v, environment) for v in VARIANTS}
    outputs = {v: _finish(corpus, v, started[v]) for v in VARIANTS}
    totals = {v: _instructions(outputs[v], corpus, v) for v in VARIANTS}
    reports = {v: sum("[proxy-" in line for line in outputs[v].splitlines()) for v in VARIANTS}
    if reports["without"]:
        raise BenchmarkError(f"{corpus.name}: proxy-* errors without the plugin; "
                             "the baseline config is not plugin-free")
    return InstructionCount(corpus.name, mode, totals["without"], totals["with"],
                            reports["with"])


def _start(prefix: list[str], corpus: Corpus, space: Workspace, variant: str,
           environment: dict[str, str]) -> tuple[subprocess.Popen[bytes], Path]:
    command = [*prefix, *mypy_command(), "--config-file", str(space.configs[variant]),
               "--cache-dir", str(space.caches[variant]), *corpus.targets]
    log = space.logs[variant]
    with log.open("w", encoding="utf-8") as output:
        process = subprocess.Popen(command, cwd=corpus.directory, env=environment,
                                   stdout=output, stderr=subprocess.STDOUT)
    return process, log


def _finish(corpus: Corpus, variant: str,
            started: tuple[subprocess.Popen[bytes], Path]) -> str:
    process, log = started
    status = process.wait()
    text = log.read_text(encoding="utf-8", errors="replace")
    if status not in (0, 1):  # 1: type errors found, which is normal here
        last = (text.strip().splitlines() or ["no output"])[-1]
        raise BenchmarkError(f"mypy on {corpus.name} ({variant} plugin) exited {status}: {last}")
    return text


def _instructions(output: str, corpus: Corpus, variant: str) -> int:
    found = _TOTAL.findall(output)
    if not found:
        raise BenchmarkError(f"{corpus.name} ({variant} plugin): no instruction total "
                             "in valgrind's output")
    return int(found[-1].replace(",", ""))


def format_rows(counts: list[InstructionCount]) -> list[list[str]]:
    """Rows of the table (header first)."""
    rows = [["corpus", "cache", "instructions without", "instructions with", "ratio", "target",
             "proxy reports"]]
    for c in counts:
        target = TARGETS[c.mode]
        verdict = "ok" if c.ratio() <= target else "over"
        rows.append([c.corpus, c.mode, f"{c.without / 1e9:.3f} G", f"{c.with_plugin / 1e9:.3f} G",
                     f"{c.ratio():.4f}x", f"<={target:.2f} {verdict}", str(c.plugin_reports)])
    return rows


def count_corpora(names: list[str], modes: list[str], workdir: Path) -> list[InstructionCount]:
    """Counts for each corpus, in each mode."""
    return [count(corpus, workdir, mode)
            for corpus in corpora(names, workdir) for mode in modes]


def main(argv: list[str] | None = None) -> int:
    parser = corpus_tool_parser(__doc__)
    parser.add_argument("--modes", default="cold,warm", help="cold, warm or cold,warm (default)")
    arguments = parser.parse_args(argv)
    modes = [m.strip() for m in arguments.modes.split(",") if m.strip()]
    if not modes or any(m not in ("cold", "warm") for m in modes):
        parser.error(f'--modes: expected cold, warm or cold,warm, got "{arguments.modes}"')
    try:
        counts = count_corpora([arguments.corpus], modes, arguments.workdir)
    except BenchmarkError as error:
        print(f"count_instructions: error: {error}", file=sys.stderr)
        return 2
    if arguments.json:
        print(json.dumps([asdict(c) for c in counts]))
    else:
        rows = format_rows(counts)
        print(render_table("instructions: mypy without vs with the plugin (valgrind)",
                           rows[0], rows[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
