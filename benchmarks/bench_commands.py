"""What users pay: instructions of plain mypy, mypy with the plugin and ``proxy-types check``.

Run ``python -m benchmarks.bench_commands --corpus examples`` (``--corpus
thunder`` fetches lightning-thunder's wheel).  Each variant runs once per cache
mode under valgrind (instructions only, one parse thread, one hash seed, as in
``count_instructions.py``), all variants at once: a count does not depend on
load.  Cold runs start from an empty cache; warm runs follow one uncounted run
of the same command, so ``check`` finds the reports it stored beside mypy's
cache.  The ratios are the table of docs/performance.md ("What the commands
cost") and the README.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_plugin import (  # noqa: E402
    checkout_environment,
    compile_bytecode,
    last_line,
    proxy_reports,
    workspace,
)
from benchmarks.common import (  # noqa: E402
    BenchmarkError,
    corpus_tool_parser,
    note,
    parse_modes,
    ratio,
    render_table,
    run_corpus_tool,
)
from benchmarks.corpus import Corpus, corpora  # noqa: E402
from benchmarks.count_instructions import (  # noqa: E402
    HASH_SEED,
    VALGRIND,
    total_instructions,
    valgrind_available,
)

#: One parse thread (see bench_plugin.ONE_PARSE_THREAD), then the command's own entry.
ONE_THREAD = """\
import sys
import mypy.util
if hasattr(mypy.util, "_AVAILABLE_THREADS"):
    mypy.util._AVAILABLE_THREADS = 1
"""
MYPY_ENTRY = ONE_THREAD + "from mypy.__main__ import console_entry\nsys.argv[0] = 'mypy'\n" \
    "console_entry()\n"
CHECK_ENTRY = ONE_THREAD + "from mypy_plugin.cli import console_main\n" \
    "sys.argv[0] = 'proxy-types'\nconsole_main()\n"

#: The commands compared, in the table's order.
COMMANDS = ("mypy", "mypy + plugin", "check")


@dataclass(frozen=True)
class CommandCounts:
    """Instructions of each command on one corpus in one cache mode."""

    corpus: str
    mode: str  # "cold" | "warm"
    mypy: int
    plugin: int  # mypy with the plugin
    check: int  # proxy-types check
    plugin_reports: int  # proxy-* lines of the plugin run (proof the plugin ran)
    check_reports: int  # the same in check's output

    def plugin_ratio(self) -> float:
        """mypy with the plugin over plain mypy."""
        return ratio(self.plugin, self.mypy)

    def check_ratio(self) -> float:
        """``check`` over mypy with the plugin: what the command adds to the plugin."""
        return ratio(self.check, self.plugin)

    def check_over_mypy(self) -> float:
        """``check`` over plain mypy."""
        return ratio(self.check, self.mypy)


def command_line(command: str, corpus: Corpus, configs: dict[str, Path],
                 caches: dict[str, Path]) -> list[str]:
    """The process of ``command`` on ``corpus`` (one parse thread)."""
    safe_path = ["-P"] if sys.version_info >= (3, 11) else []
    if command == "check":
        return [sys.executable, *safe_path, "-c", CHECK_ENTRY, "check", "--config",
                str(configs["with"]), "--cache-dir", str(caches[command]), *corpus.targets]
    config = configs["with" if command == "mypy + plugin" else "without"]
    return [sys.executable, *safe_path, "-c", MYPY_ENTRY, "--config-file", str(config),
            "--cache-dir", str(caches[command]), *corpus.targets]


def count(corpus: Corpus, workdir: Path, mode: str) -> CommandCounts:
    """Count every command on ``corpus`` in cache ``mode``."""
    if not valgrind_available():
        raise BenchmarkError("valgrind is not installed (Debian package valgrind)")
    space = workspace(corpus, workdir, prefix="commands-")
    slugs = {"mypy": "mypy", "mypy + plugin": "plugin", "check": "check"}
    caches = {c: workdir.resolve() / "cache" / f"commands-{corpus.name}-{slugs[c]}"
              for c in COMMANDS}
    logs = {c: workdir.resolve() / "logs" / f"commands-{corpus.name}-{slugs[c]}.log"
            for c in COMMANDS}
    compile_bytecode()
    environment = dict(checkout_environment(), PYTHONHASHSEED=HASH_SEED)
    for command in COMMANDS:
        shutil.rmtree(caches[command], ignore_errors=True)
        if mode == "warm":  # prime without valgrind: only the second run is counted
            finish(start([], command_line(command, corpus, space.configs, caches),
                         corpus, logs[command], environment), corpus, command, logs[command])
    note(f"  counting instructions: {corpus.name} {mode}, {len(COMMANDS)} commands "
         "under valgrind ...")
    started: dict[str, subprocess.Popen[bytes]] = {}
    try:
        for command in COMMANDS:
            started[command] = start(list(VALGRIND),
                                     command_line(command, corpus, space.configs, caches),
                                     corpus, logs[command], environment)
        outputs = {c: finish(started[c], corpus, c, logs[c]) for c in COMMANDS}
    finally:
        for process in started.values():  # one failed: don't leave the others running
            if process.poll() is None:
                process.kill()
                process.wait()
    totals = {c: total_instructions(outputs[c], corpus, c) for c in COMMANDS}
    if proxy_reports(outputs["mypy"]):
        raise BenchmarkError(f"{corpus.name}: proxy-* errors without the plugin; "
                             "the baseline config is not plugin-free")
    return CommandCounts(corpus.name, mode, totals["mypy"], totals["mypy + plugin"],
                         totals["check"], proxy_reports(outputs["mypy + plugin"]),
                         proxy_reports(outputs["check"]))


def start(prefix: list[str], command: list[str], corpus: Corpus, log: Path,
          environment: dict[str, str]) -> subprocess.Popen[bytes]:
    with log.open("w", encoding="utf-8") as output:
        return subprocess.Popen([*prefix, *command], cwd=corpus.directory, env=environment,
                                stdout=output, stderr=subprocess.STDOUT)


def finish(process: subprocess.Popen[bytes], corpus: Corpus, command: str, log: Path) -> str:
    """The output of a finished run; a BenchmarkError naming its last line if it failed."""
    status = process.wait()
    text = log.read_text(encoding="utf-8", errors="replace")
    if status not in (0, 1):  # 1: type errors found, which is normal here
        raise BenchmarkError(f"{command} on {corpus.name} exited {status}: "
                             f"{last_line(text) or 'no output'}")
    return text


def format_rows(counts: list[CommandCounts]) -> list[list[str]]:
    """Rows of the table (header first)."""
    rows = [["corpus", "cache", "mypy", "mypy + plugin", "check", "plugin / mypy",
             "check / (mypy + plugin)", "check / mypy"]]
    for c in counts:
        rows.append([c.corpus, c.mode, f"{c.mypy / 1e9:.3f} G", f"{c.plugin / 1e9:.3f} G",
                     f"{c.check / 1e9:.3f} G", f"{c.plugin_ratio():.3f}x",
                     f"{c.check_ratio():.3f}x", f"{c.check_over_mypy():.3f}x"])
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the table (or JSON) for one corpus; exit 2 with one line if it cannot run."""
    parser = corpus_tool_parser(__doc__)
    parser.set_defaults(corpus="examples")
    parser.add_argument("--modes", default="cold,warm", help="cold, warm or cold,warm (default)")
    arguments = parser.parse_args(argv)
    try:
        modes = parse_modes(arguments.modes)
    except ValueError as error:
        parser.error(str(error))

    def measure() -> list[CommandCounts]:
        return [count(corpus, arguments.workdir, mode)
                for corpus in corpora([arguments.corpus], arguments.workdir) for mode in modes]

    return run_corpus_tool("bench_commands", arguments.json, measure,
                           lambda counts: [asdict(c) for c in counts], table_text)


def table_text(counts: list[CommandCounts]) -> str:
    rows = format_rows(counts)
    return render_table("instructions: mypy, mypy with the plugin, proxy-types check (valgrind)",
                        rows[0], rows[1:])


if __name__ == "__main__":
    sys.exit(main())
