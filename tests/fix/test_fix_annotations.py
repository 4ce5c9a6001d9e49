"""``proxy-types fix`` on ``arg-type`` findings: callee annotations become ``NumberLike``."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest

from mypy_plugin.cli.check import Finding
from mypy_plugin.cli.fix.annotations import (
    number_like_annotation,
    static_annotation_problem,
)

REPO = Path(__file__).resolve().parents[2]

RunCli = Callable[..., subprocess.CompletedProcess[str]]
MakeProject = Callable[[Path, list[str]], Path]
Expected = Callable[[str, str], str]
Fixed = tuple[Path, subprocess.CompletedProcess[str]]

CASES = ["annotated", "annotated_lib", "annotated_grid"]
KIND = "annotation -> NumberLike"
NUMBERS_IMPORTED = frozenset({"Real"})


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory, make_project: MakeProject,
          run_cli: RunCli) -> Fixed:
    """The caller and the callee modules after one ``proxy-types fix .``."""
    pytest.importorskip("torch")
    project = make_project(tmp_path_factory.mktemp("annotated"), CASES)
    return project, run_cli("fix", ".", cwd=project)


def unfixed(stdout: str) -> dict[tuple[str, int], str]:
    return {
        (match["file"], int(match["line"])): match["reason"]
        for match in re.finditer(
            r"^  (?P<file>\S+\.py):(?P<line>\d+):\d+: \[arg-type\] (?P<reason>.*)$",
            stdout, re.MULTILINE,
        )
    }


@pytest.mark.parametrize("name", CASES)
def test_annotations_are_rewritten_as_expected(fixed: Fixed, expected: Expected,
                                               name: str) -> None:
    project, result = fixed
    assert "Traceback" not in result.stderr, result.stderr
    assert (project / f"{name}.py").read_text(encoding="utf-8") == expected(name, "guards")


def test_summary_counts_parameters_and_lists_what_is_left(fixed: Fixed) -> None:
    _, result = fixed
    assert result.returncode == 1, result.stderr
    assert result.stdout.startswith("proxy-types fix: 2 files changed\n")
    # scale x2, pad, shift, Emitter.__init__, Emitter.emit and clamp x2 (two calls each)
    assert re.search(rf"^  {re.escape(KIND)}\s+8$", result.stdout, re.MULTILINE), result.stdout
    left = unfixed(result.stdout)
    # Listed where a following check reports them: at the calls.
    assert set(left) == {
        ("annotated.py", 60), ("annotated.py", 61), ("annotated.py", 62), ("annotated.py", 63),
    }
    assert "bound 2 times" in left[("annotated.py", 61)]
    assert 'does not count "torch.SymInt" as NumberLike' in left[("annotated.py", 62)]
    # ratio() divides its parameter; Grid stores it in an attribute that area() multiplies
    assert left[("annotated.py", 60)].startswith("undone:")
    assert left[("annotated.py", 63)].startswith("undone:")
    # Lines of the rewritten text mypy saw (the imports around changed with it).
    assert re.search(r'annotated_lib\.py:\d+:12: Unsupported operand types for / '
                     r'\("DynamicNumber"', result.stdout), result.stdout
    assert re.search(r"annotated_grid\.py:\d+:12: Unsupported left operand type for \*",
                     result.stdout), result.stdout


def test_check_afterwards_reports_only_the_unfixed_calls(fixed: Fixed, run_cli: RunCli) -> None:
    project, _ = fixed
    check = run_cli("check", "--format", "json", ".", cwd=project)
    errors = [f for f in json.loads(check.stdout)["findings"] if f["severity"] == "error"]
    assert {(f["file"], f["line"], f["code"]) for f in errors} == {
        ("annotated.py", 60, "arg-type"),  # ratio(): its rewrite was undone
        ("annotated.py", 61, "arg-type"),  # step(): two definitions
        ("annotated.py", 62, "arg-type"),  # a SymInt
        ("annotated.py", 63, "arg-type"),  # Grid(): its rewrite was undone
    }


def test_second_run_changes_nothing(fixed: Fixed, run_cli: RunCli) -> None:
    project, _ = fixed
    texts = {path.name: path.read_text(encoding="utf-8") for path in project.glob("*.py")}
    again = run_cli("fix", ".", cwd=project)
    assert again.stdout.startswith("proxy-types fix: 0 files changed\n"), again.stdout
    assert re.search(rf"^  {re.escape(KIND)}\s+0$", again.stdout, re.MULTILINE)
    assert {path.name: path.read_text(encoding="utf-8") for path in project.glob("*.py")} == texts


# -- the pieces, without mypy ---------------------------------------------------


@pytest.mark.parametrize(("before", "after"), [
    ("float", "NumberLike"),
    ("numbers.Integral", "NumberLike"),
    ("Real | str", "NumberLike | str"),
    ("int | float | None", "NumberLike | None"),
    ("str | float | int", "str | NumberLike"),
    ("Optional[float]", "Optional[NumberLike]"),
    ("Union[int, float]", "NumberLike"),
    ("typing.Union[int, str, None]", "typing.Union[NumberLike, str, None]"),
    ("Optional[Union[int, str]]", "Optional[Union[NumberLike, str]]"),
])
def test_static_number_members_become_one_number_like(before: str, after: str) -> None:
    expression = cst.parse_expression(before)
    assert static_annotation_problem(expression, NUMBERS_IMPORTED) is None
    rewritten = number_like_annotation(expression, NUMBERS_IMPORTED)
    assert cst.Module([]).code_for_node(rewritten) == after


@pytest.mark.parametrize(("annotation", "problem"), [
    ('"float"', "string annotation"),
    ("str", "not a static number type"),
    ("list[float]", "not a static number type"),
    ("bool", "not a static number type"),
    ("Integral", "not a static number type"),  # not imported from numbers here
    ("NumberLike | None", "already NumberLike"),
])
def test_other_annotations_are_not_rewritten(annotation: str, problem: str) -> None:
    reason = static_annotation_problem(cst.parse_expression(annotation), NUMBERS_IMPORTED)
    assert reason is not None and problem in reason


RECORDED_CALLS = """\
from typing import Optional

from proxy_types import FloatProxy, IntegerProxy


class Grid:
    def __init__(self, size: int) -> None:
        self.size = size

    def pad(self, width: int, fill: Optional[float] = None) -> None:
        pass


def f(x: int, y: float) -> None:
    pass


def g(xs: list[int]) -> None:
    pass


def calls(p: IntegerProxy, q: Optional[FloatProxy], grid: Grid) -> None:
    grid.pad(1, fill=q)
    f(1, p)
    Grid(p)
    f("text", 1.0)
    g(p)
"""


def test_the_plugin_records_dynamic_numbers_passed_to_static_parameters(tmp_path: Path) -> None:
    from mypy import api

    from mypy_plugin import collectors

    (tmp_path / "calls.py").write_text(RECORDED_CALLS)
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n")
    with collectors.collecting_arguments() as records:
        stdout, _, _ = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir",
                                str(tmp_path / "cache"), "--show-column-numbers",
                                str(tmp_path / "calls.py")])
    recorded = sorted((record.line, record.column + 1, record.function, record.cls,
                       record.number, record.keyword, record.dynamic) for record in records.passed)
    assert records.checked_files == {str(tmp_path / "calls.py")}
    assert all(record.unsupported is None for record in records.passed)
    lines = RECORDED_CALLS.splitlines()

    def at(call: str, argument: str) -> tuple[int, int]:
        line = lines.index(f"    {call}") + 1
        return line, lines[line - 1].index(argument) + 1

    assert recorded == [
        (*at("grid.pad(1, fill=q)", "q)"), "pad", "Grid", 2, "fill", ("FloatProxy",)),
        (*at("f(1, p)", "p)"), "f", None, 2, None, ("IntegerProxy",)),
        (*at("Grid(p)", "p)"), "Grid", None, 1, None, ("IntegerProxy",)),
    ], stdout
    # Each record sits where mypy reports its arg-type error; the others have none.
    arg_type_places = sorted(
        (int(line.split(":")[1]), int(line.split(":")[2]))
        for line in stdout.splitlines() if line.endswith("[arg-type]"))
    recorded_places = [(line, column) for line, column, *_ in recorded]
    assert set(recorded_places) < set(arg_type_places), stdout
    # mypy's own errors about other types: no record.
    assert {at('f("text", 1.0)', '"text"'), at("g(p)", "p)")} == (
        set(arg_type_places) - set(recorded_places)), stdout


def test_rewrite_that_leaves_the_call_reported_is_undone(tmp_path: Path, run_cli: RunCli) -> None:
    """A legacy proxy (migrate_classes) is no DynamicNumber to mypy: NumberLike fixes nothing."""
    (tmp_path / "mypy.ini").write_text(
        "[mypy]\nplugins = mypy_plugin\ncheck_untyped_defs = True\n\n"
        "[mypy.plugins.proxy_types]\nmigrate_classes = legacy.NumberProxy\n",
        encoding="utf-8",
    )
    source = (
        "class NumberProxy:\n    pass\n\n\n"
        "class FloatProxy(NumberProxy, float):\n    pass\n\n\n"
        "def scale(x: float) -> str:\n    return repr(x)\n\n\n"
        "def use(p: FloatProxy) -> str:\n    return scale(p)\n"
    )
    (tmp_path / "legacy.py").write_text(source, encoding="utf-8")
    result = run_cli("fix", ".", cwd=tmp_path)
    assert (tmp_path / "legacy.py").read_text(encoding="utf-8") == source
    reason = unfixed(result.stdout)[("legacy.py", 14)]  # at the call check reports
    assert reason.startswith("undone:") and "still reported the call" in reason
    diff = run_cli("fix", "--diff", ".", cwd=tmp_path)  # the candidate the run tried
    assert "+def scale(x: NumberLike) -> str:\n" in diff.stdout, diff.stdout + diff.stderr


def test_classmethods_and_staticmethods_are_rewritten_a_variable_listed(
        tmp_path: Path, make_project: MakeProject, run_cli: RunCli, expected: Expected) -> None:
    pytest.importorskip("torch")
    project = make_project(tmp_path, ["annotated_methods"])
    result = run_cli("fix", ".", cwd=project)
    assert "Traceback" not in result.stderr, result.stderr
    assert (project / "annotated_methods.py").read_text(encoding="utf-8") == expected(
        "annotated_methods", "guards"), result.stdout
    call = expected("annotated_methods", "guards").splitlines().index("    handler(p)") + 1
    left = unfixed(result.stdout)
    assert set(left) == {("annotated_methods.py", call)}, result.stdout
    assert "not a plain function or method" in left[("annotated_methods.py", call)]
