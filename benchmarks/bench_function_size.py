"""Instructions of mypy on one long traced function, without and with the plugin.

Run ``python -m benchmarks.bench_function_size --sizes 1000,2000,4000,8000``.
Generated code has such functions (unrolled loops, exported graphs), and the flow
analysis must stay linear in their size: issue #29 measured the plugin's extra
instructions growing as N^1.8 (2.65x mypy's at 8,000 statements).  The target is
<= 1.2x mypy's instructions at 8,000 statements.

The module holds one function of N statements, traced (``traced_functions``), made
of four kinds in turn: a new local computed from the parameter, a reassignment of
a shared local, an ``if`` on a local that rebinds the shared one in both branches,
and a dict key from a local (a sink that follows a flow).  Each run is counted
once by valgrind (callgrind, no cache simulation; the same binary, input and hash
seed give nearly the same count), with mypy parsing on one thread
(``bench_plugin.ONE_PARSE_THREAD``).  Both variants of one size run at once, one per core.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_plugin import (  # noqa: E402
    checkout_environment,
    compile_bytecode,
    mypy_command,
)
from benchmarks.common import BenchmarkError, render_table  # noqa: E402

VALGRIND = ("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null")
_TOTAL = re.compile(r"^==\d+== Collected\s*:\s*(\d+)\s*$", re.MULTILINE)
HASH_SEED = "0"
TARGET = 1.2
MODULE = "generated"


def function_source(statements: int) -> str:
    """A module with one function of ``statements`` statements (an ``if`` counts as one)."""
    lines = [f"def {MODULE}_function(n: int, d: dict[int, int]) -> int:", "    shared = n"]
    for index in range(statements):
        kind = index % 4
        if kind == 0:
            lines.append(f"    value{index} = n + {index}")
        elif kind == 1:
            lines.append(f"    shared = value{index - 1} * 2")
        elif kind == 2:
            lines += [f"    if value{index - 2} > {index}:", f"        shared = value{index - 2}",
                      "    else:", f"        shared = {index}"]
        else:
            lines.append(f"    d[value{index - 3} - 1] = {index}")
    lines += ["    return shared", ""]
    return "\n".join(lines)


def write_project(directory: Path, statements: int) -> dict[str, Path]:
    """The module and one config per variant; returns the configs."""
    (directory / f"{MODULE}.py").write_text(function_source(statements), encoding="utf-8")
    configs = {"without": directory / "without.ini", "with": directory / "with.ini"}
    configs["without"].write_text("[mypy]\n", encoding="utf-8")
    configs["with"].write_text(
        "[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
        f"traced_functions = {MODULE}.*\n", encoding="utf-8")
    return configs


def count(statements: int, workdir: Path) -> tuple[int, int, int]:
    """(instructions without, with the plugin, proxy reports) for one size."""
    directory = workdir / f"size-{statements}"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    configs = write_project(directory, statements)
    environment = dict(checkout_environment(), PYTHONHASHSEED=HASH_SEED)
    started = {}
    logs = {variant: directory / f"{variant}.log" for variant in configs}
    try:
        for variant, config in configs.items():
            command = [*VALGRIND, *mypy_command(one_parse_thread=True), "--config-file",
                       str(config), "--cache-dir", str(directory / f"cache-{variant}"),
                       f"{MODULE}.py"]
            with logs[variant].open("w", encoding="utf-8") as output:
                started[variant] = subprocess.Popen(command, cwd=directory, env=environment,
                                                    stdout=output, stderr=subprocess.STDOUT)
        statuses = {variant: process.wait() for variant, process in started.items()}
    finally:
        for process in started.values():
            if process.poll() is None:
                process.kill()
                process.wait()
    totals = {}
    for variant, log in logs.items():
        text = log.read_text(encoding="utf-8", errors="replace")
        found = _TOTAL.findall(text)
        if statuses[variant] not in (0, 1) or not found:
            last = text.strip().splitlines()[-1] if text.strip() else "no output"
            raise BenchmarkError(f"{statements} statements ({variant} plugin): exit "
                                 f"{statuses[variant]}, last line: {last}")
        totals[variant] = int(found[-1])
    reports = logs["with"].read_text(encoding="utf-8").count("[proxy-")
    if "[proxy-internal]" in logs["with"].read_text(encoding="utf-8"):
        raise BenchmarkError(f"{statements} statements: the plugin reported proxy-internal")
    return totals["without"], totals["with"], reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,2000,4000,8000",
                        help="statements per function, comma-separated")
    arguments = parser.parse_args(argv)
    try:
        sizes = [int(size) for size in arguments.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes: not a list of numbers: {arguments.sizes!r}")
    if shutil.which(VALGRIND[0]) is None:
        print("bench_function_size: valgrind is not installed (Debian package valgrind)",
              file=sys.stderr)
        return 2
    compile_bytecode()
    rows = []
    try:
        with tempfile.TemporaryDirectory(prefix="function-size-") as workdir:
            for size in sizes:
                without, with_plugin, reports = count(size, Path(workdir))
                ratio = with_plugin / without
                rows.append([str(size), f"{without / 1e9:.3f} G", f"{with_plugin / 1e9:.3f} G",
                             f"{ratio:.4f}x", "ok" if ratio <= TARGET else "over", str(reports)])
    except BenchmarkError as error:
        print(f"bench_function_size: {error}", file=sys.stderr)
        return 2
    print(render_table(f"instructions: one traced function of N statements (target <= "
                       f"{TARGET}x)", ["statements", "without", "with", "ratio", "target",
                                       "proxy reports"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
