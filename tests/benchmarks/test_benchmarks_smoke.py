"""The benchmarks run end to end in quick mode and print well-formed tables.

Speed is never asserted: only that each table has its rows and its numbers parse.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.bench

ROOT = Path(__file__).resolve().parents[2]
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
needs_valgrind = pytest.mark.skipif(shutil.which("valgrind") is None,
                                    reason="valgrind is not installed")


def run_benchmarks(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=ROOT,
                          capture_output=True, text=True, check=False)


def tables(stdout: str) -> dict[str, list[list[str]]]:
    """{title: rows (header first, rule dropped)}, cells split on runs of 2+ spaces."""
    found: dict[str, list[list[str]]] = {}
    for block in stdout.strip().split("\n\n"):
        lines = block.splitlines()
        assert lines[0].startswith("== ") and lines[0].endswith(" =="), block
        assert set(lines[2]) == {"-"}, block
        title = lines[0][3:-3].split(":")[0]
        found[title] = [re.split(r"\s{2,}", line.strip()) for line in [lines[1], *lines[3:]]]
    return found


def number(cell: str, unit: str) -> float:
    """The number in a cell such as ``0.812 s``, ``1.004x`` or ``12.5 ns (0.98x)``."""
    value = cell.split(" (")[0].removesuffix(unit).strip()
    assert NUMBER.match(value), f"{cell!r} is not a number in {unit!r}"
    return float(value)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, list[list[str]]], dict[str, object]]:
    workdir = tmp_path_factory.mktemp("bench")
    results = workdir / "results.json"
    completed = run_benchmarks("--quick", "--workdir", str(workdir), "--json", str(results))
    assert completed.returncode == 0, completed.stderr[-2000:]
    return tables(completed.stdout), json.loads(results.read_text())


def test_quick_run_prints_every_table(quick_run: tuple[dict[str, list[list[str]]], dict[str, object]]) -> None:
    found, _ = quick_run
    counted = ["instructions"] if shutil.which("valgrind") else []
    assert list(found) == ["machine", "plugin overhead", "memory", *counted,
                           "plugin profile", "guards", "operations", "audit overhead"]
    facts = dict(found["machine"][1:])
    assert {"cpu", "nproc", "memory", "python", "mypy", "torch"} <= set(facts)
    assert facts["nproc"].isdigit()


def test_overhead_rows_compare_both_cache_modes(
    quick_run: tuple[dict[str, list[list[str]]], dict[str, object]]
) -> None:
    header, *rows = quick_run[0]["plugin overhead"]
    assert header[:4] == ["corpus", "lines", "cache", "runs"]
    assert [row[2] for row in rows] == ["cold", "warm"]
    for row in rows:
        cells = dict(zip(header, row))
        assert cells["runs"] == "1x2"
        for column in ("wall without", "wall with", "cpu without", "cpu with"):
            number(cells[column], " s")
        number(cells["wall ratio"], "x")
        number(cells["cpu ratio"], "x")
        # One pair gives no interval, so no verdict either way.
        assert re.match(r"^[+-]\d+\.\d\d% \(1 pair\)$", cells["cpu change (95%)"])
        assert re.match(r"^<=\+[23]% unclear$", cells["cpu target"])
        # The examples hold deliberate mistakes: reports prove the plugin was loaded.
        assert int(cells["proxy reports"]) > 0


@needs_valgrind
def test_instruction_rows_count_both_cache_modes(
    quick_run: tuple[dict[str, list[list[str]]], dict[str, object]]
) -> None:
    header, *rows = quick_run[0]["instructions"]
    assert [row[1] for row in rows] == ["cold", "warm"]
    for row in rows:
        cells = dict(zip(header, row))
        assert number(cells["instructions without"], " G") > 0.1
        assert number(cells["instructions with"], " G") > 0.1
        number(cells["ratio"], "x")
        assert re.match(r"^<=\+[23]% (ok|over)$", cells["target"])
        assert int(cells["proxy reports"]) > 0


def test_memory_row_has_both_peaks(quick_run: tuple[dict[str, list[list[str]]], dict[str, object]]) -> None:
    header, *rows = quick_run[0]["memory"]
    assert len(rows) == 1 and rows[0][0].startswith("quick")
    cells = dict(zip(header, rows[0]))
    assert number(cells["peak RSS without"], " MiB") > 10
    assert number(cells["peak RSS with"], " MiB") > 10


def test_profile_counts_hook_calls(quick_run: tuple[dict[str, list[list[str]]], dict[str, object]]) -> None:
    found, results = quick_run
    header, *rows = found["plugin profile"]
    total = rows[-1]
    assert total[0].startswith("all plugin code")
    assert int(total[1]) > 0  # hook calls, a count
    number(total[2], " s")
    assert all(int(row[1]) > 0 for row in rows)
    profile = results["profile"]
    assert isinstance(profile, dict)
    functions = {entry["function"] for entry in profile["entries"]}
    # Lookups of names not seen before run the plugin's lookup methods through these.
    assert {"registry.HooksByName.__missing__", "registry.TypeHooksByName.__missing__"} <= functions
    assert "__init__.plugin" in functions  # the import of the plugin is counted too
    assert isinstance(profile["plugin_seconds"], float)
    assert isinstance(profile["run_seconds"], float)


def test_guard_and_operation_rows(quick_run: tuple[dict[str, list[list[str]]], dict[str, object]]) -> None:
    found, results = quick_run
    header, *rows = found["guards"]
    assert header[:5] == ["subject", "empty call", "is_static_number", "is_dynamic_number",
                          "numbers.Number"]
    assert header[5:] == ["static/empty (<=1.3x)", "dynamic/empty (<=1.3x)",
                          "Number/static (>=2x)", "Number/dynamic (>=2x)"]
    subjects = [row[0] for row in rows]
    assert subjects[:4] == ["int", "float", "IntegerProxy", "FloatProxy"]
    for row in rows:
        assert all(number(cell, " ns") > 0 for cell in row[1:5])
        assert all(re.match(r"^\d+\.\d\dx (ok|over)$", cell) for cell in row[5:7]), row
        assert all(re.match(r"^\d+\.\d\dx (ok|under)$", cell) for cell in row[7:9]), row
    guards = results["guards"]
    assert isinstance(guards, dict) and guards["implementation"] in ("compiled", "pure Python")
    assert list(guards["subjects"]) == subjects
    operations = [row[0] for row in found["operations"][1:]]
    assert "IntegerProxy inside trace" in operations and "IntegerProxy outside trace" in operations
    if "torch" in sys.modules or _torch_installed():
        assert "SymInt" in subjects and "SymInt backed" in operations
    assert set(results) >= {"machine", "plugin", "profile", "guards", "operations"}
    plugin = results["plugin"]
    assert isinstance(plugin, list)
    assert [entry["cpu_change"]["pairs"] for entry in plugin] == [1, 1]


def _torch_installed() -> bool:
    from importlib.util import find_spec

    return find_spec("torch") is not None


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--sections", "plugin,speed"], 'unknown section "speed"'),
        (["--corpora", "numpy"], 'unknown corpus "numpy"'),
        (["--cold-pairs", "0"], "--cold-pairs must be at least 1, got 0"),
    ],
)
def test_bad_arguments_give_one_line(args: list[str], expected: str) -> None:
    completed = run_benchmarks(*args)
    assert completed.returncode == 2
    assert expected in completed.stderr
    assert "Traceback" not in completed.stderr


def test_hook_timing_runs_the_real_plugin_on_the_quick_corpus(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.time_hooks", "--corpus", "quick", "--json",
         "--workdir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr[-2000:]
    times = json.loads(completed.stdout)
    families = {item["family"]: item for item in times["families"]}
    # The examples hold isinstance checks and comparisons: their hooks ran and were timed.
    for family in ("isinstance checks (function hook)", "comparisons, register (method hook)"):
        assert families[family]["calls"] > 0 and families[family]["seconds"] > 0
    lookups = times["families"][-1]
    assert lookups["family"] == "hook lookups that ran Python"
    assert lookups["calls"] > 0
    assert 0 < sum(item["seconds"] for item in times["families"]) < times["run_seconds"]


def test_hook_timing_rejects_an_unknown_corpus(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.time_hooks", "--corpus", "nope",
         "--workdir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 2
    assert completed.stderr.strip().count("\n") == 0 and "nope" in completed.stderr


@needs_valgrind
def test_instruction_count_runs_both_variants_under_valgrind(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.count_instructions", "--corpus", "quick",
         "--modes", "warm", "--json", "--workdir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr[-2000:]
    (counted,) = json.loads(completed.stdout)
    assert counted["mode"] == "warm" and counted["corpus"].startswith("quick")
    # A warm mypy run executes hundreds of millions of instructions, not a parse error's few.
    assert counted["without"] > 10**8 and counted["with_plugin"] > 10**8
    assert counted["plugin_reports"] > 0  # the plugin was loaded and reported


def test_instruction_count_rejects_a_bad_mode(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.count_instructions", "--modes", "hot",
         "--workdir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 2
    assert '--modes: expected cold, warm or cold,warm, got "hot"' in completed.stderr
    assert "Traceback" not in completed.stderr


def test_profile_prints_both_tables_with_self_times(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.profile_plugin", "--corpus", "quick", "--self-times",
         "--workdir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr[-2000:]
    titles = [line for line in completed.stdout.splitlines() if line.startswith("== ")]
    assert titles == ["== plugin profile: quick (examples) ==", "== own time =="]


def _bytecodes(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "benchmarks.count_bytecodes", *args,
                           "--workdir", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_bytecode_count_is_exact_and_repeats(tmp_path: Path) -> None:
    runs = [_bytecodes(tmp_path, "--corpus", "quick", "--json") for _ in range(2)]
    for completed in runs:
        assert completed.returncode == 0, completed.stderr[-2000:]
    first, second = (json.loads(completed.stdout) for completed in runs)
    assert first["total"] > 0 and first["total"] == second["total"]
    assert first["total"] == sum(function["bytecodes"] for function in first["functions"])
    wrapper = [f for f in first["functions"] if f["function"].endswith("checker_hook.<locals>.hook")]
    assert wrapper and wrapper[0]["calls"] > 0  # the examples' hooks ran through it
    assert all(f["function"].startswith("mypy_plugin/") for f in first["functions"])
    text = _bytecodes(tmp_path, "--corpus", "quick", "--limit", "3")
    assert text.stdout.splitlines()[0] == "== bytecodes in plugin code: quick (examples) =="
    assert len(text.stdout.splitlines()) == 3 + 3 + 1  # title, header, rule; 3 rows; total
    bad = _bytecodes(tmp_path, "--corpus", "nope")
    assert bad.returncode == 2 and bad.stderr.strip().count("\n") == 0


@needs_valgrind
def test_command_counts_run_every_command_under_valgrind(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_commands", "--corpus", "quick",
         "--modes", "warm", "--json", "--workdir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr[-2000:]
    (counted,) = json.loads(completed.stdout)
    assert counted["mode"] == "warm" and counted["corpus"].startswith("quick")
    # A warm mypy run executes hundreds of millions of instructions, not a parse error's few.
    assert min(counted["mypy"], counted["plugin"], counted["check"]) > 10**8
    # The plugin was loaded and reported, and check printed the same findings.
    assert counted["plugin_reports"] > 0
    assert counted["check_reports"] == counted["plugin_reports"]
