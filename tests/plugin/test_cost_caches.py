"""The shortcuts that keep the plugin's cost down give the answers of the long way.

Each speed trick of issue #13's last round is checked on real mypy objects: a
real in-process build (its analyzer, checker and trees), compared with the
question asked the long way, and shown to notice the change that must undo it.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any
from pathlib import Path

import pytest
from mypy import build
from mypy.modulefinder import BuildSource
from mypy.nodes import FuncDef, MypyFile, TypeInfo
from mypy.options import Options
from mypy.plugin import AnalyzeTypeContext, MethodContext, Plugin
from mypy.types import Type

from mypy_plugin.analysis.dynamic import DynamicClasses
from mypy_plugin.analysis.imports import MissingModules
from mypy_plugin.analysis.walk import StatementLines, line_range
from mypy_plugin.analysis.severity import flows_may_be_reported
from mypy_plugin.constants import TRUTH_TEST_OPERATION
from mypy_plugin.main import ProxyTypesPlugin
from mypy_plugin.runner import Part
from tests.plugin.trees import analyzed_tree

REPO = Path(__file__).resolve().parents[2]

# -- type-analysis lookups in modules that get no reports ------------------------------

CHECKED = "import silenced\n\ndef f(a: int, b: int) -> int:\n    return a + b\n"
SILENCED = "def g(a: int, b: int, c: int, d: int) -> int:\n    return a\n"


class WhereTypeLookupsRun(ProxyTypesPlugin):
    """The real plugin, noting in which module each type-analysis lookup handed out a hook."""

    def __init__(self, options: Options) -> None:
        self.lookups: Counter[str] = Counter()
        super().__init__(options)

    def get_type_analyze_hook(
        self, fullname: str
    ) -> Callable[[AnalyzeTypeContext], Type] | None:
        hook = super().get_type_analyze_hook(fullname)
        if fullname == "builtins.int" and self.gate.analyzer is not None and hook is not None:
            self.lookups[self.gate.analyzer.cur_mod_id] += 1
        return hook


@pytest.mark.parametrize("follow_imports", ["silent", "normal"])
def test_type_hooks_are_handed_out_only_where_reports_are_wanted(
    tmp_path: Path, follow_imports: str, build_in_process: Callable[..., None]
) -> None:
    (tmp_path / "checked.py").write_text(CHECKED)
    (tmp_path / "silenced.py").write_text(SILENCED)
    options = Options()
    options.follow_imports = follow_imports
    plugin = WhereTypeLookupsRun(options)
    build_in_process(tmp_path, "checked", plugin, options)
    assert plugin.lookups["checked"] >= 3
    # Silenced: mypy drops its errors, so the analyzer's gate hides it and no lookup
    # there hands out a hook.  Followed normally, each of the five annotations gets one.
    if follow_imports == "silent":
        assert plugin.lookups["silenced"] == 0
    else:
        assert plugin.lookups["silenced"] >= 5


CAST_OF_A_PROXY = """\
from typing import cast

from proxy_types import IntegerProxy


def h(p: IntegerProxy, a: int, b: int, c: int, d: int) -> int:
    return cast(int, p)
"""


def _configured_options(tmp_path: Path, settings: str) -> Options:
    """Options read from a ``mypy.ini`` holding ``settings`` (per-module sections too),
    with this repository and its stubs on mypy's path."""
    from mypy.config_parser import parse_config_file

    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\n{settings}")
    options = Options()
    options.config_file = str(config)
    options.cache_dir = str(tmp_path / "cache")
    options.incremental = False
    options.mypy_path = [str(REPO / "stubs"), str(REPO)]
    parse_config_file(options, lambda: None, str(config), stdout=sys.stdout, stderr=sys.stderr)
    return options


def _build(tmp_path: Path, modules: list[str], options: Options,
           plugin: ProxyTypesPlugin) -> build.BuildResult:
    """A build of ``tmp_path``'s ``modules`` (named on the command line) with ``plugin``."""
    sources = [BuildSource(str(tmp_path / f"{module}.py"), module, None, str(tmp_path))
               for module in modules]
    return build.build(sources, options, extra_plugins=[plugin])


@pytest.mark.parametrize("how", ["ignore_errors setting", "inline comment", "followed"])
def test_the_analyzer_gate_hides_the_files_whose_errors_mypy_drops(
    tmp_path: Path, how: str
) -> None:
    (tmp_path / "checked.py").write_text("import other\n")
    (tmp_path / "other.py").write_text(
        ("# mypy: ignore-errors\n" if how == "inline comment" else "") + CAST_OF_A_PROXY)
    section = "[mypy-other]\nignore_errors = True\n" if how == "ignore_errors setting" else ""
    options = _configured_options(tmp_path, section)
    plugin = WhereTypeLookupsRun(options)
    result = _build(tmp_path, ["checked"], options, plugin)
    casts = [error for error in result.errors if "[proxy-cast]" in error]
    if how == "followed":
        assert plugin.lookups["other"] >= 5
        assert len(casts) == 1 and "other.py:7:" in casts[0], result.errors
    else:
        assert plugin.lookups["other"] <= 1
        assert casts == []


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
    return analyzed_tree(tmp_path_factory.mktemp("lines"), PROGRAM)


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


def test_statements_out_of_source_order_are_all_asked(program: MypyFile) -> None:
    shuffled = [program.defs[3], program.defs[0], program.defs[1]]
    lines = StatementLines(shuffled)
    assert not lines.sorted
    for line in range(0, 25):
        assert lines.holding(line) == _by_scanning(lines.ranges, line)
    assert lines.holding(16) == [0]  # inside Holder, listed first


def test_truth_tested_spans_are_found_again_for_a_new_statement_list(program: MypyFile) -> None:
    from mypy.nodes import ReturnStmt

    from mypy_plugin.checks.comparisons import BooleanContexts

    contexts = BooleanContexts()
    first = program.defs[1]
    assert isinstance(first, FuncDef)
    returned = first.body.body[-1]
    assert isinstance(returned, ReturnStmt) and returned.expr is not None
    assert not contexts.is_tested(program, returned.expr)
    # A daemon's merge keeps the tree but brings a new list: here the same statements,
    # so the answer stays; the module is walked again (a new index object).
    before = contexts._cache["program"]
    original = program.defs
    program.defs = list(original)
    try:
        assert not contexts.is_tested(program, returned.expr)
        assert contexts._cache["program"] is not before
    finally:
        program.defs = original


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
    # A daemon's build changes in place: one module gone, another added (same size).
    del other_build["pkg"]
    other_build["app"] = program
    assert missing.missing("pkg.sub", other_build) == "pkg"
    # A module under the package is in the build: mypy found it, only left its tree out.
    del other_build["app"]
    other_build["pkg.sub"] = program
    assert missing.missing("pkg.sub", other_build) is None


def _missing_by_every_prefix(missing: MissingModules, module: str,
                             modules: dict[str, MypyFile]) -> str | None:
    """The answer worked out the long way: the first prefix of ``module`` neither in the
    build nor holding a module of the build (then mypy found the package and only left
    its tree out), if it defines dynamic classes."""
    parts = module.split(".")
    for end in range(1, len(parts) + 1):
        prefix = ".".join(parts[:end])
        if prefix not in modules and not any(name.startswith(prefix + ".") for name in modules):
            return prefix if prefix in missing.classes_under else None
    return None


def test_missing_module_answers_match_every_prefix_asked_the_long_way(
        program: MypyFile) -> None:
    missing = MissingModules(frozenset({"torch.SymInt", "pkg.sub.deep.Proxy", "lib.Proxy"}),
                             Options())
    asked = ["torch", "torch.nn.functional", "pkg", "pkg.sub", "pkg.sub.deep", "pkg.other.x",
             "pkg.sub.deep.inner", "lib.a.b", "numpy.linalg"]
    builds = [
        {},
        {"torch": program, "torch.nn": program},
        {"pkg": program, "pkg.sub.deep": program},  # pkg.sub: a namespace package
        {"pkg": program, "pkg.sub": program, "pkg.sub.deep": program, "torch": program},
        {"pkg": program, "pkg.sub": program, "pkg.sub.deep": program, "lib": program},
        {"pkg": program, "torch": program},  # pkg.sub missing
    ]
    answers = set()
    for build in builds:
        for module in asked:
            answer = missing.missing(module, build)
            assert answer == _missing_by_every_prefix(missing, module, build), (module, build)
            answers.add(answer)
    # pkg.sub.deep built: pkg.sub was found; only the last build leaves pkg.sub missing
    assert answers == {None, "torch", "pkg", "pkg.sub", "lib"}
    assert missing.incomplete_packages(builds[0]) == {"torch", "pkg", "lib"}
    assert missing.incomplete_packages(builds[2]) == {"torch", "pkg", "lib"}
    assert missing.incomplete_packages(builds[3]) == {"lib"}
    assert missing.incomplete_packages(builds[4]) == {"torch"}


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
    options = _configured_options(tmp_path, f"[mypy.plugins.proxy_types]\n{settings}\n")
    plugin = RecordingFlowQuestion(options)
    result = _build(tmp_path, ["compared"], options, plugin)
    assert plugin.answers and set(plugin.answers) == {expected}
    # Where flows are followed, `if n == 3` is the finding; where not, nothing is lost.
    reported = [error for error in result.errors if "compared.py:3:" in error]
    assert bool(reported) == expected, result.errors


def test_program_has_the_statements_the_tests_above_name(program: MypyFile) -> None:
    names = [getattr(statement, "name", type(statement).__name__) for statement in program.defs]
    assert names == ["Import", "first", "decorated", "Holder", "AssignmentStmt"]


EVERY_SINK = """\
{inline}
import math


def traced(n: int, x: float, sizes: list[int]) -> str:
    if n == 3:
        pass
    if n > 1 and x != 2.5:
        pass
    m = int(n) + int(x) + round(x) + math.floor(x)
    k = sizes[n] + len(range(n))
    total = float(n) + bool(m) + k
    return f"{{n:3}} {{x:.2f}} {{total}} {{n}}"
"""


@pytest.mark.parametrize(
    ("settings", "inline"),
    [
        ("traced_functions = compared.*", ""),
        ("traced_functions = compared.*", '# mypy: enable-error-code="proxy-specialize"'),
        ("traced_functions = compared.*\ndynamic_number_classes = compared.Traced", ""),
        ("traced_functions = compared.*\ndynamic_number_classes = compared.Traced\n"
         "guarded_number_classes = compared.Traced", ""),
    ],
)
def test_leaving_flows_out_loses_no_report(
    tmp_path: Path, settings: str, inline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same reports with the shortcut as with flows always followed."""
    from mypy_plugin.checks import comparisons, conversions

    source = EVERY_SINK.format(inline=inline) + "\n\nclass Traced:\n    pass\n"
    (tmp_path / "compared.py").write_text(source)
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\n[mypy.plugins.proxy_types]\n{settings}\n")

    def errors(run: str) -> list[str]:
        options = Options()
        options.config_file = str(config)
        options.cache_dir = str(tmp_path / f"cache-{run}")
        options.incremental = False
        result = build.build([BuildSource(str(tmp_path / "compared.py"), "compared", None,
                                          str(tmp_path))], options,
                             extra_plugins=[ProxyTypesPlugin(options)])
        return sorted(error for error in result.errors if "[proxy-" in error)

    shortcut = errors("shortcut")
    for module in (comparisons, conversions):
        monkeypatch.setattr(module, "flows_may_be_reported", lambda *args, **kwargs: True)
    assert errors("always") == shortcut
    assert shortcut  # every setting finds something here (isinstance-free sinks only)


# -- a module whose errors mypy drops, in a cycle with a checked one ---------------------------

#: Two modules of one import cycle (one SCC: mypy checks them one after the other
#: before it finishes either).  ``other`` is silenced by the settings.
#: At module level: mypy skips the function bodies of such modules altogether.
CYCLE_CHECKED = """\
import other
from proxy_types import IntegerProxy

P: IntegerProxy
""" + "isinstance(P, int)\n" * 4
CYCLE_OTHER = CYCLE_CHECKED.replace("import other", "import checked")


class WhereCheckerHooksRun(ProxyTypesPlugin):
    """The real plugin, noting in which module each checker hook ran."""

    def __init__(self, options: Options) -> None:
        self.hook_calls: Counter[str] = Counter()
        super().__init__(options)

    def _checker_hook(self, parts: list[Part], default: Callable[[Any], Any]
                      ) -> Callable[[Any], Any]:
        hook = super()._checker_hook(parts, default)

        def counted(ctx: Any) -> Any:
            self.hook_calls[ctx.api.tree.fullname] += 1
            return hook(ctx)

        return counted


SILENCED_OTHER = "[mypy-other]\nignore_errors = True\n"


@pytest.mark.parametrize(
    ("settings", "other_calls", "other_reports"),
    [
        (SILENCED_OTHER, 4, 0),  # every call asked about, none reported
        ("", 4, 4),  # reported: every call is checked
        (SILENCED_OTHER + "[mypy.plugins.proxy_types]\nmigrate_classes = checked.Legacy\n",
         4, 0),
    ],
)
def test_a_module_whose_errors_mypy_drops_gets_no_reports_beside_a_checked_one(
    tmp_path: Path, settings: str, other_calls: int, other_reports: int
) -> None:
    (tmp_path / "checked.py").write_text(CYCLE_CHECKED + "\n\nclass Legacy:\n    pass\n")
    (tmp_path / "other.py").write_text(CYCLE_OTHER)
    options = _configured_options(tmp_path, settings)
    plugin = WhereCheckerHooksRun(options)
    result = _build(tmp_path, ["checked", "other"], options, plugin)
    assert plugin.hook_calls["other"] == other_calls
    # The module checked beside it, in the same cycle, keeps every hook and report.
    assert plugin.hook_calls["checked"] == 4
    reports = [error for error in result.errors if "[proxy-isinstance]" in error]
    assert sum("checked.py:" in report for report in reports) == 4, result.errors
    assert sum("other.py:" in report for report in reports) == other_reports, result.errors
