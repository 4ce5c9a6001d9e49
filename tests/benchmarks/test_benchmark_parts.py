"""The pieces the benchmark tables rest on: fair configs, right guard answers, profile labels."""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks import bench_guards  # noqa: E402
from benchmarks.common import BenchmarkError, paired_change, render_table  # noqa: E402
from benchmarks.bench_plugin import write_configs  # noqa: E402
from benchmarks.corpora.torch_settings import TORCH_MODULES, TORCH_TRACED  # noqa: E402
from benchmarks.corpus import (  # noqa: E402
    PLUGINS_LINE,
    Corpus,
    project_corpus,
    torch_refs_corpus,
    torch_traced_corpus,
    with_plugin,
)
from benchmarks.count_instructions import InstructionCount, format_rows  # noqa: E402
from benchmarks.profile_plugin import plugin_costs  # noqa: E402


def test_configs_differ_only_in_the_plugins_line(tmp_path: Path) -> None:
    corpus = project_corpus(tmp_path)
    paths = write_configs(corpus, tmp_path)
    without = paths["without"].read_text().splitlines()
    with_ = paths["with"].read_text().splitlines()
    assert [line for line in with_ if line not in without] == [PLUGINS_LINE]
    assert [line for line in without if line not in with_] == []
    assert without == (ROOT / "mypy.ini").read_text().splitlines()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ("[mypy]\nplugins = other_plugin\n", "already name plugins"),
        ("[tool.mypy]\nstrict = true\n", r"no \[mypy\] section"),
    ],
)
def test_with_plugin_refuses_unfair_baselines(settings: str, message: str) -> None:
    with pytest.raises(BenchmarkError, match=message):
        with_plugin(settings)


def test_traced_torch_corpus_checks_the_ground_truth_modules_with_the_recommended_settings(
    tmp_path: Path,
) -> None:
    pytest.importorskip("torch")
    traced = torch_traced_corpus(tmp_path)
    plugin_section = traced.settings.partition("[mypy.plugins.proxy_types]\n")[2]
    assert plugin_section == TORCH_TRACED
    # Every module of the ground truth, under its own name (torch/...), is checked.
    assert [target.removesuffix(".py").replace("/", ".") for target in traced.targets] == list(
        TORCH_MODULES)
    assert all((traced.directory / target).exists() for target in traced.targets)
    assert (traced.directory / "torch" / "__init__.py").is_symlink()
    defaults = torch_refs_corpus(tmp_path)
    assert [traced.ratio_limit(mode) for mode in ("cold", "warm")] == [1.05, 1.05]
    assert [defaults.ratio_limit(mode) for mode in ("cold", "warm")] == [1.02, 1.02]


def test_instruction_verdict_uses_the_corpus_limit() -> None:
    counts = [InstructionCount("a", "cold", 100, 104, 0, limit=1.05),
              InstructionCount("b", "cold", 100, 104, 0, limit=1.03),
              InstructionCount("c", "warm", 100, 102, 0, limit=1.02)]
    verdicts = [row[5] for row in format_rows(counts)[1:]]
    assert verdicts == ["<=+5% ok", "<=+3% over", "<=+2% ok"]


def test_corpus_lines_count_python_and_stubs(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("x = 1\ny = 2\n")
    (tmp_path / "pkg" / "b.pyi").write_text("z: int\n")
    (tmp_path / "pkg" / "notes.txt").write_text("not counted\n")
    assert Corpus("t", tmp_path, ("pkg",), "[mypy]\n").python_lines() == 3
    assert Corpus("t", tmp_path, (), "[mypy]\nfiles = pkg/a.py\n").python_lines() == 2


def test_guard_answers_are_checked_before_timing() -> None:
    subjects = bench_guards.subjects(with_torch=False)
    assert list(subjects) == ["int", "float", "IntegerProxy", "FloatProxy"]
    assert bench_guards.wrong_answers(subjects) == []
    lying = dict(subjects, int=bench_guards.Subject(12345, static=False, dynamic=True))
    assert bench_guards.wrong_answers(lying) == ["int"]


def test_symint_subjects_are_dynamic() -> None:
    pytest.importorskip("torch")
    subjects = bench_guards.subjects(with_torch=True)
    assert type(subjects["SymInt"].value).__name__ == "SymInt"
    assert type(subjects["SymFloat"].value).__name__ == "SymFloat"
    assert bench_guards.wrong_answers(subjects) == []


def _repeats(empty: list[float], static: list[float], dynamic: list[float],
             number: list[float]) -> dict[str, list[float]]:
    return {bench_guards.EMPTY: empty, "is_static_number": static,
            "is_dynamic_number": dynamic, bench_guards.NUMBER_ABC: number}


def test_guard_ratios_are_taken_within_each_repeat() -> None:
    # The second repeat ran three times slower for every check: the ratios do not move.
    cells = bench_guards.judge(_repeats([10.0, 30.0, 10.0], [12.0, 36.0, 12.0],
                                        [14.0, 42.0, 14.0], [30.0, 90.0, 30.0]))
    static, dynamic = cells["is_static_number"], cells["is_dynamic_number"]
    assert (static.seconds, static.empty_seconds, static.number_seconds) == (12.0, 10.0, 30.0)
    assert static.vs_empty == pytest.approx(1.2) and static.empty_verdict == "ok"
    assert static.speedup_over_number == pytest.approx(2.5) and static.number_verdict == "ok"
    assert dynamic.vs_empty == pytest.approx(1.4) and dynamic.empty_verdict == "over"
    assert dynamic.speedup_over_number == pytest.approx(30 / 14)
    # A ratio of medians would call this guard 1.5x (30 / 20); paired, it is 1.2x.
    paired = bench_guards.judge(_repeats([10.0, 20.0, 40.0], [12.0, 30.0, 44.0],
                                         [12.0, 30.0, 44.0], [20.0, 50.0, 80.0]))
    assert paired["is_static_number"].vs_empty == pytest.approx(1.2)
    assert paired["is_static_number"].number_verdict == "under"  # 50 / 30 in the middle


def test_guard_targets_are_inclusive() -> None:
    cell = bench_guards.judge(_repeats([10.0], [13.0], [13.0], [26.0]))["is_static_number"]
    assert cell.vs_empty == pytest.approx(1.3) and cell.empty_verdict == "ok"
    assert cell.speedup_over_number == pytest.approx(2.0) and cell.number_verdict == "ok"


def test_guard_judge_refuses_uneven_repeats() -> None:
    with pytest.raises(ValueError, match="same, non-zero number of repeats"):
        bench_guards.judge(_repeats([10.0, 11.0], [12.0], [12.0], [30.0]))
    with pytest.raises(ValueError, match="same, non-zero number of repeats"):
        bench_guards.judge(_repeats([], [], [], []))


def test_profile_counts_only_calls_from_mypy() -> None:
    # Plugin code called from this test file is not called by mypy: nothing counted.
    from mypy_plugin.constants import is_comparison_method

    profiler = cProfile.Profile()
    profiler.enable()
    assert is_comparison_method("builtins.int.__lt__")
    profiler.disable()
    total, entries = plugin_costs(pstats.Stats(profiler))
    assert (total, entries) == (0.0, [])


def test_render_table_aligns_columns() -> None:
    text = render_table("t", ["name", "value"], [["a", "1"], ["long name", "22"]])
    assert text.splitlines() == ["== t ==", "name       value", "----------------",
                                 "a              1", "long name     22"]
    assert render_table(None, ["h"], [["x"]], rule=False).splitlines() == ["h", "x"]


def test_paired_change_is_a_t_interval_on_the_differences() -> None:
    # Differences 1, 2, 3: mean 2, sd 1, t(2 df) = 4.303; baseline mean 100.
    change = paired_change([100.0, 90.0, 110.0], [101.0, 92.0, 113.0])
    assert change.pairs == 3
    assert change.mean == pytest.approx(0.02)
    half = 4.303 / 3 ** 0.5 / 100
    assert change.low == pytest.approx(0.02 - half)
    assert change.high == pytest.approx(0.02 + half)
    assert change.describe() == "+2.00% (-0.48..+4.48)"


def test_paired_change_ignores_what_both_variants_share() -> None:
    # The machine slows down for both variants alike: the interval stays tight.
    without = [10.0, 14.0, 9.0, 12.0, 11.0]
    change = paired_change(without, [t * 1.02 for t in without])
    assert change.high - change.low < 0.01 and change.verdict(0.03) == "ok"


@pytest.mark.parametrize(
    ("without", "with_", "verdict"),
    [
        ([10.0] * 4, [10.1, 10.2, 10.1, 10.2], "ok"),  # +1.5%, interval well below 3%
        ([10.0] * 4, [10.5, 10.6, 10.5, 10.6], "over"),  # +5.5%, interval well above
        ([10.0] * 4, [9.5, 10.8, 9.9, 11.0], "unclear"),  # straddles 3%
        ([10.0], [10.1], "unclear"),  # one pair: no interval
    ],
)
def test_verdict_is_judged_on_the_whole_interval(without: list[float], with_: list[float],
                                                 verdict: str) -> None:
    assert paired_change(without, with_).verdict(0.03) == verdict


def test_paired_change_refuses_unpaired_lists() -> None:
    with pytest.raises(ValueError, match="equally long"):
        paired_change([1.0, 2.0], [1.0])
    one = paired_change([1.0], [1.1])
    assert one.describe() == "+10.00% (1 pair)"
    assert one.as_json() == {"mean": pytest.approx(0.1), "low": None, "high": None, "pairs": 1}


def test_paired_change_between_table_rows_uses_the_wider_interval() -> None:
    # 36 pairs: 35 degrees of freedom, not in the table; the value for 30 (2.042) is used.
    without = [100.0] * 36
    with_ = [100.0 + (2.0 if index % 2 else 0.0) for index in range(36)]
    change = paired_change(without, with_)
    half = 2.042 * (36 / 35) ** 0.5 / 6 / 100
    assert change.mean == pytest.approx(0.01)
    assert change.high == pytest.approx(0.01 + half)
    many = paired_change([100.0] * 500, [100.0 + (2.0 if i % 2 else 0.0) for i in range(500)])
    assert many.high - many.mean == pytest.approx(1.980 * (500 / 499) ** 0.5 / 500 ** 0.5 / 100)


def test_paired_change_without_a_positive_baseline_is_unknown() -> None:
    change = paired_change([0.0, 0.0], [1.0, 2.0])
    assert change.describe() == "n/a" and change.verdict(0.03) == "unclear"


def test_instruction_total_is_read_from_cachegrind_output(tmp_path: Path) -> None:
    from benchmarks.count_instructions import total_instructions

    corpus = Corpus("t", tmp_path, (), "[mypy]\n")
    output = ("Success: no issues found in 1 source file\n==4242== \n"
              "==4242== I   refs:      1,234,567,890\n")
    assert total_instructions(output, corpus, "with") == 1_234_567_890
    with pytest.raises(BenchmarkError, match=r"t \(with plugin\): no instruction total"):
        total_instructions("Success: no issues found\n", corpus, "with")


def test_failed_run_names_mypy_line_not_valgrind_line(tmp_path: Path) -> None:
    from benchmarks.bench_plugin import checked_output

    log = tmp_path / "run.log"
    log.write_text("mypy: error: cannot read file 'nope.py'\n==77== \n"
                   "==77== I   refs:      12,345\n")
    corpus = Corpus("t", tmp_path, (), "[mypy]\n")
    with pytest.raises(BenchmarkError) as raised:
        checked_output(corpus, tmp_path / "with.ini", 2, log)
    assert str(raised.value) == ("mypy on t with with.ini exited 2: "
                                 "mypy: error: cannot read file 'nope.py'")
    assert checked_output(corpus, tmp_path / "with.ini", 1, log).startswith("mypy: error")


def test_corpus_tools_print_json_or_text_and_fail_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks.common import run_corpus_tool

    assert run_corpus_tool("t", True, lambda: [1, 2], lambda r: {"n": r}, str) == 0
    assert capsys.readouterr().out == '{"n": [1, 2]}\n'
    assert run_corpus_tool("t", False, lambda: [1, 2], lambda r: {"n": r}, str) == 0
    assert capsys.readouterr().out == "[1, 2]\n"

    def broken() -> list[int]:
        raise BenchmarkError("corpus gone")

    assert run_corpus_tool("t", False, broken, list, str) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", "t: error: corpus gone\n")


COUNTED_MODULE = '''\
def loop(n):
    total = 0
    for i in range(n):
        total += i
    return total


def call_outside(other):
    return other(3)
'''


def test_bytecode_tracer_counts_only_the_frames_under_its_directory(tmp_path: Path) -> None:
    import importlib.util

    from benchmarks.count_bytecodes import BytecodeCount, FunctionCount, _Tracer
    from benchmarks.count_bytecodes import format_rows as bytecode_rows

    inside, outside = tmp_path / "inside", tmp_path / "outside"
    for directory, name in ((inside, "counted"), (outside, "uncounted")):
        directory.mkdir()
        (directory / f"{name}.py").write_text(COUNTED_MODULE)
    modules = []
    for path in (inside / "counted.py", outside / "uncounted.py"):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module)
    counted, uncounted = modules
    tracer = _Tracer(str(inside))
    with tracer.tracing():
        counted.loop(10)
        counted.call_outside(uncounted.loop)  # the callee's frames are not counted
        uncounted.loop(1000)
    by_name = {code.co_name: (count, tracer.calls[code]) for code, count in tracer.bytecodes.items()}
    assert set(by_name) == {"loop", "call_outside"}
    assert by_name["loop"][1] == 1
    with tracer.tracing():
        counted.loop(20)  # twice the iterations: more bytecodes, every one counted
    assert tracer.bytecodes[counted.loop.__code__] > 2 * by_name["loop"][0]
    assert tracer.calls[counted.loop.__code__] == 2
    rows = bytecode_rows(BytecodeCount("c", 30, [FunctionCount("f", 20, 4),
                                                 FunctionCount("g", 10, 1)]))
    assert rows[1] == ["f", "20", "4", "5"]
    assert rows[-1] == ["all plugin functions (c)", "30", "5", ""]
