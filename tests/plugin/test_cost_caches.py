"""The shortcuts that keep the plugin's cost down give the answers of the long way.

Each speed trick of issue #13's last round is checked on real mypy objects: a
real in-process build (its analyzer, checker and trees), compared with the
question asked the long way, and shown to notice the change that must undo it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from mypy import build
from mypy.modulefinder import BuildSource
from mypy.nodes import MypyFile, TypeInfo
from mypy.options import Options
from mypy.plugin import AnalyzeTypeContext, MethodContext
from mypy.types import Type

from mypy_plugin.analysis.dynamic import DynamicClasses
from mypy_plugin.analysis.imports import MissingModules
from mypy_plugin.analysis.walk import StatementLines, line_range
from mypy_plugin.checks.severity import flows_may_be_reported
from mypy_plugin.constants import TRUTH_TEST_OPERATION
from mypy_plugin.main import ProxyTypesPlugin

# -- type-analysis lookups in modules that get no reports ------------------------------

CHECKED = "import silenced\n\ndef f(a: int, b: int) -> int:\n    return a + b\n"
SILENCED = "def g(a: int, b: int, c: int, d: int) -> int:\n    return a\n"


class WhereTypeLookupsRun(ProxyTypesPlugin):
    """The real plugin, noting in which module each type-analysis lookup ran."""

    def __init__(self, options: Options) -> None:
        self.lookups: Counter[str] = Counter()
        super().__init__(options)

    def get_type_analyze_hook(
        self, fullname: str
    ) -> Callable[[AnalyzeTypeContext], Type] | None:
        if fullname == "builtins.int" and self.gate.analyzer is not None:
            self.lookups[self.gate.analyzer.cur_mod_id] += 1
        return super().get_type_analyze_hook(fullname)


@pytest.mark.parametrize("follow_imports", ["silent", "normal"])
def test_type_lookups_run_only_where_reports_are_wanted(
    tmp_path: Path, follow_imports: str, build_in_process: Callable[..., None]
) -> None:
    (tmp_path / "checked.py").write_text(CHECKED)
    (tmp_path / "silenced.py").write_text(SILENCED)
    options = Options()
    options.follow_imports = follow_imports
    plugin = WhereTypeLookupsRun(options)
    build_in_process(tmp_path, "checked", plugin, options)
    assert plugin.lookups["checked"] >= 3
    # Silenced: mypy drops its errors, so the analyzer's gate hides it; once the gate
    # has decided that (the module's first int), the lookup is answered (None) without
    # running.  Followed normally, it runs for each of the five annotations.
    if follow_imports == "silent":
        assert plugin.lookups["silenced"] <= 1
    else:
        assert plugin.lookups["silenced"] >= 5


# -- top-level statements holding a line -------------------------------------------------

PROGRAM = '''\
import math


def first(x: int) -> int:
    y = x + 1
    return y


@staticmethod
def decorated() -> None:
    pass


class Holder:
    def method(self) -> int:
        return 1

VALUE = [
    1,
    2,
]
'''


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> MypyFile:
    directory = tmp_path_factory.mktemp("lines")
    path = directory / "program.py"
    path.write_text(PROGRAM, encoding="utf-8")
    options = Options()
    options.incremental = False
    options.cache_dir = str(directory / "cache")
    options.preserve_asts = True
    result = build.build([BuildSource(str(path), "program", None)], options)
    tree = result.graph["program"].tree
    assert tree is not None
    return tree


def _by_scanning(ranges: list[tuple[int, int]], line: int) -> list[int]:
    return [index for index, (first, last) in enumerate(ranges) if first <= line <= last]


def test_statements_holding_a_line_match_a_scan_of_every_statement(program: MypyFile) -> None:
    lines = StatementLines(program.defs)
    assert lines.ranges == [line_range(statement) for statement in program.defs]
    assert lines.sorted
    answers = {line: lines.holding(line) for line in range(0, len(PROGRAM.splitlines()) + 3)}
    assert answers == {line: _by_scanning(lines.ranges, line) for line in answers}
    assert answers[5] == [1]  # inside first()
    assert answers[9] == [2]  # the decorator line belongs to the decorated function
    assert answers[3] == []  # a blank line between statements


def test_a_statement_without_an_end_holds_every_later_line(program: MypyFile) -> None:
    decorated = program.defs[2]
    end = decorated.end_line
    decorated.end_line = None  # as mypy leaves some statements: taken to run to the end
    try:
        lines = StatementLines(program.defs)
        assert lines.holding(21) == _by_scanning(lines.ranges, 21) == [2, 4]
        assert lines.holding(1) == [0]
    finally:
        decorated.end_line = end


# -- dynamic classes, answered per MRO -----------------------------------------------------


def _class(tree: MypyFile, name: str) -> TypeInfo:
    node = tree.names[name].node
    assert isinstance(node, TypeInfo)
    return node


def test_dynamic_class_answers_follow_a_new_mro(program: MypyFile) -> None:
    holder = _class(program, "Holder")
    dynamic = DynamicClasses(frozenset({"program.Holder"}))
    original = holder.mro
    assert dynamic.is_dynamic_class(holder)
    # mypy works an MRO out again into a new list: the answer is worked out again.
    holder.mro = [original[-1]]  # builtins.object only
    try:
        assert not dynamic.is_dynamic_class(holder)
    finally:
        holder.mro = original
    assert dynamic.is_dynamic_class(holder)
    assert not DynamicClasses(frozenset({"torch.SymInt"})).is_dynamic_class(holder)


# -- modules mypy cannot find, answered per build --------------------------------------


def test_missing_module_answers_are_forgotten_when_the_build_changes(program: MypyFile) -> None:
    missing = MissingModules(frozenset({"torch.SymInt", "pkg.sub.Proxy"}), Options())
    modules: dict[str, MypyFile] = {"program": program}
    assert missing.missing("torch.nn", modules) == "torch"
    assert missing.unresolved_for_name("program.torch.SymInt", modules) == "torch"
    assert missing.unresolved_for_name("builtins.int", modules) is None
    modules["torch"] = program  # the build now has torch (a daemon's next run)
    assert missing.missing("torch.nn", modules) is None
    assert missing.unresolved_for_name("program.torch.SymInt", modules) is None
    assert missing.missing("pkg.sub", modules) == "pkg"
    other_build = {"program": program, "pkg": program}
    assert missing.missing("pkg.sub", other_build) == "pkg.sub"


# -- checks that leave the flow source out where all it finds is dropped ---------------

COMPARED = '''\
{inline}
def traced(n: int) -> int:
    if n == 3:
        return 1
    return 0
'''


class RecordingFlowQuestion(ProxyTypesPlugin):
    """The real plugin, noting the answer to "may a flow be reported?" at comparisons."""

    def __init__(self, options: Options) -> None:
        self.answers: list[bool] = []
        super().__init__(options)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        hook = super().get_method_hook(fullname)
        if fullname != "builtins.int.__eq__" or hook is None:
            return hook
        real_hook = hook

        def record(ctx: MethodContext) -> Type:
            self.answers.append(flows_may_be_reported(ctx.api, TRUTH_TEST_OPERATION,
                                                      self.dynamic))
            return real_hook(ctx)

        return record


@pytest.mark.parametrize(
    ("settings", "inline", "expected"),
    [
        # torch's numbers only specialize in a condition: proxy-specialize, off by default
        ("traced_functions = compared.*", "", False),
        ("traced_functions = compared.*",
         '# mypy: enable-error-code="proxy-specialize"', True),
        # a configured class returns its trace-time value: proxy-concretize, always shown
        ("traced_functions = compared.*\ndynamic_number_classes = compared.Traced", "", True),
        ("", "", False),  # no flow source at all
    ],
)
def test_flows_are_followed_only_where_their_reports_are_shown(
    tmp_path: Path, settings: str, inline: str, expected: bool,
) -> None:
    source = COMPARED.format(inline=inline)
    if "compared.Traced" in settings:
        source += "\nclass Traced:\n    pass\n"
    (tmp_path / "compared.py").write_text(source)
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\n[mypy.plugins.proxy_types]\n{settings}\n")
    options = Options()
    options.config_file = str(config)
    options.cache_dir = str(tmp_path / "cache")
    options.incremental = False
    plugin = RecordingFlowQuestion(options)
    result = build.build([BuildSource(str(tmp_path / "compared.py"), "compared", None,
                                      str(tmp_path))], options, extra_plugins=[plugin])
    assert plugin.answers and set(plugin.answers) == {expected}
    # Where flows are followed, `if n == 3` is the finding; where not, nothing is lost.
    reported = [error for error in result.errors if "compared.py:3:" in error]
    assert bool(reported) == expected, result.errors


def test_program_has_the_statements_the_tests_above_name(program: MypyFile) -> None:
    names = [getattr(statement, "name", type(statement).__name__) for statement in program.defs]
    assert names == ["Import", "first", "decorated", "Holder", "AssignmentStmt"]
