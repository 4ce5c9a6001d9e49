"""Instructions mypy executes without and with the plugin, counted by valgrind.

Run ``python -m benchmarks.count_instructions --corpus thunder``.  On a
virtual machine the CPU time of one cold mypy run varies by several percent
between runs of the same code (docs/performance.md), so the time benchmark
needs dozens of pairs to tell a 2% cost from a 4% one.  An instruction count
(valgrind's cachegrind, no cache simulation) hardly varies: the same binary,
inputs and hash seed give nearly the same count whatever else the machine is
doing, once mypy parses with one thread (``bench_plugin.ONE_PARSE_THREAD``).
One run per variant therefore settles the question "how much more work does
mypy do with the plugin", which is what the targets are about (2% cold and warm
with the default settings, 5% with the traced torch settings).
Instructions are not seconds (a cache miss costs more than an add), which is
why the time benchmark stays the first table.

Both variants run at once, one per core: a count does not depend on load.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    BenchmarkError,
    corpus_tool_parser,
    note,
    parse_modes,
    ratio,
    render_table,
    run_corpus_tool,
)
from benchmarks.bench_plugin import (  # noqa: E402
    VARIANTS,
    Workspace,
    checked_output,
    checkout_environment,
    compile_bytecode,
    last_line,
    mypy_arguments,
    proxy_reports,
    workspace,
)
from benchmarks.corpus import Corpus, corpora  # noqa: E402

#: Cachegrind counting instructions only: the cache and branch simulations would
#: make it several times slower and are not needed for a count.  Its per-function
#: file is not needed either (it would land in the corpus directory).
VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no",
            "--cachegrind-out-file=/dev/null")
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
    limit: float  # largest acceptable ratio with / without (Corpus.ratio_limit)

    def ratio(self) -> float:
        """Instructions with the plugin over instructions without it."""
        return ratio(self.with_plugin, self.without)


def valgrind_available() -> bool:
    """True when ``valgrind`` is on PATH."""
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
            _finish(corpus, space, variant, _start([], corpus, space, variant, environment))
    note(f"  counting instructions: {corpus.name} {mode}, both variants under valgrind ...")
    started: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for variant in VARIANTS:
            started[variant] = _start(list(VALGRIND), corpus, space, variant, environment)
        outputs = {v: _finish(corpus, space, v, started[v]) for v in VARIANTS}
    finally:
        for process in started.values():  # one failed: don't leave the other running
            if process.poll() is None:
                process.kill()
                process.wait()
    totals = {v: total_instructions(outputs[v], corpus, v) for v in VARIANTS}
    if proxy_reports(outputs["without"]):
        raise BenchmarkError(f"{corpus.name}: proxy-* errors without the plugin; "
                             "the baseline config is not plugin-free")
    return InstructionCount(corpus.name, mode, totals["without"], totals["with"],
                            proxy_reports(outputs["with"]), corpus.ratio_limit(mode))


def _start(prefix: list[str], corpus: Corpus, space: Workspace, variant: str,
           environment: dict[str, str]) -> subprocess.Popen[bytes]:
    command = [*prefix, *mypy_arguments(corpus, space.configs[variant], space.caches[variant],
                                        one_parse_thread=True)]
    with space.logs[variant].open("w", encoding="utf-8") as output:
        return subprocess.Popen(command, cwd=corpus.directory, env=environment,
                                stdout=output, stderr=subprocess.STDOUT)


def _finish(corpus: Corpus, space: Workspace, variant: str,
            process: subprocess.Popen[bytes]) -> str:
    return checked_output(corpus, space.configs[variant], process.wait(), space.logs[variant])


def total_instructions(output: str, corpus: Corpus, variant: str) -> int:
    found = _TOTAL.findall(output)
    if not found:
        # valgrind itself failing exits 1 too, like mypy finding errors: show why.
        raise BenchmarkError(f"{corpus.name} ({variant} plugin): no instruction total in "
                             f"valgrind's output; last line: {last_line(output) or 'none'}")
    return int(found[-1].replace(",", ""))


def format_rows(counts: list[InstructionCount]) -> list[list[str]]:
    """Rows of the table (header first)."""
    rows = [["corpus", "cache", "instructions without", "instructions with", "ratio", "target",
             "proxy reports"]]
    for c in counts:
        limit = c.limit - 1
        verdict = "ok" if c.ratio() - 1 <= limit else "over"
        rows.append([c.corpus, c.mode, f"{c.without / 1e9:.3f} G", f"{c.with_plugin / 1e9:.3f} G",
                     f"{c.ratio():.4f}x", f"<=+{limit:.0%} {verdict}", str(c.plugin_reports)])
    return rows


def count_corpora(names: list[str], modes: list[str], workdir: Path) -> list[InstructionCount]:
    """Counts for each corpus, in each mode."""
    return [count(corpus, workdir, mode)
            for corpus in corpora(names, workdir) for mode in modes]


def main(argv: list[str] | None = None) -> int:
    """Print the table (or JSON) for one corpus; exit 2 with one line if it cannot run."""
    parser = corpus_tool_parser(__doc__)
    parser.add_argument("--modes", default="cold,warm", help="cold, warm or cold,warm (default)")
    arguments = parser.parse_args(argv)
    try:
        modes = parse_modes(arguments.modes)
    except ValueError as error:
        parser.error(str(error))
    return run_corpus_tool(
        "count_instructions", arguments.json,
        lambda: count_corpora([arguments.corpus], modes, arguments.workdir),
        lambda counts: [asdict(c) for c in counts], _table_text)


def _table_text(counts: list[InstructionCount]) -> str:
    rows = format_rows(counts)
    return render_table("instructions: mypy without vs with the plugin (valgrind)",
                        rows[0], rows[1:])

if __name__ == "__main__":
    sys.exit(main())
