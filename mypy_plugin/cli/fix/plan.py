"""Plan the rewrite of each file: one outcome per finding, then one libcst pass.

Each finding goes to the module of its kind (``isinstance``, ``conversions``,
``annotations``), which answers with the node to replace and how, or with the
reason it is left; the imports follow (``imports``).  Only findings of a real
mypy run are acted on, with the plugin's report as the data of each.
"""

from __future__ import annotations

import ast
import difflib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar, cast

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from ... import findings
from ..check import CheckResult, Finding
from ..common import EXIT_USAGE, one_line
from .annotations import AnnotationFinding, annotation_findings, number_abc_names, plan_annotation
from .conversions import plan_conversion
from .imports import ImportStyle, add_imports, module_level_names, remove_unused
from .isinstance import ISINSTANCE_KINDS, plan_isinstance
from .model import (
    CONFIGURED,
    LEGACY,
    RUNTIME_MODULE,
    TABLE_CLASSES,
    UNKNOWN,
    Build,
    FilePlan,
    FixError,
    Options,
    Outcome,
    Plan,
    Position,
    end_of,
    read_source,
    start_of,
)

CSTNodeT = TypeVar("CSTNodeT", bound=cst.CSTNode)
REGISTER = "register_dynamic_type"
BUILTIN_NUMBER_NAMES = ("bool", "int", "float", "complex")
# Kinds of report without an automatic rewrite, with what to do instead.
LEFT_FOR_A_HUMAN = {
    findings.CAST: "cast() hides a dynamic number: use to_static() or cast to NumberLike by hand",
    findings.ITEMS_TRUTH: "a condition needs a decision for each item: check(...) to record "
                          "it, or to_static(...) to specialize on it",
    findings.CONCRETIZING_CALL: "a concretizing_functions helper reads the value: keep it "
                                "dynamic, or convert it with to_static() by hand",
    findings.HASHING: "a dynamic number as a key or set member: key by something static, or "
                      "use to_static() by hand",
    findings.FORMAT_SPEC: "a format spec needs the value: format to_static(x) by hand, or drop "
                          "the spec to show the name",
    findings.FORMAT_TEXT: "text of a torch dynamic number in traced code: build it outside, "
                          "or only on failure (an assert message, a raise)",
    findings.TYPE_COMPARISON: "a type() comparison: use is_static_number() / "
                              "is_dynamic_number() by hand",
    findings.STATIC_AND_DYNAMIC_BASES: "a class definition: drop the static base and use "
                                       "register_dynamic_type() by hand",
    findings.LEGACY_STATIC_BASE: "a legacy proxy class: remove its builtin base to finish "
                                 "the migration",
    findings.ABC_REGISTER: "replace the ABC registration with register_dynamic_type() by hand",
    findings.CONFIG_NOT_A_CLASS: "a configuration entry: correct it in the config file",
    findings.CONFIG_NO_SUCH_CLASS: "a configuration entry: correct it in the config file",
    findings.UNRESOLVED_MODULE: "mypy cannot find a module that defines dynamic classes: "
                                "install it (not editable) or put it on MYPYPATH",
    findings.CALL_REACHES_SINK: "an argument reaches a sink inside the callee: pass a static "
                                "number, or change the callee to accept dynamic numbers",
    findings.INTERNAL_ERROR: "a check of the plugin failed here: rerun with "
                             "PROXY_TYPES_DEBUG=1 and report the traceback",
    findings.TENSOR_CONDITION: "tensor data as a condition: rewrite it with torch.where or "
                               "torch.cond, or decide it outside the traced code",
    findings.RANDOM_CALL: "Python's random in traced code: draw with torch.rand / "
                          "torch.randint instead",
    findings.STATIC_SCHEMA_ARGUMENT: "a dynamic number for an operator's static parameter: "
                                     "get the result without this argument",
    findings.FLOW_TOO_LARGE: "a function too large to follow: split it, or leave it out of "
                             "traced_functions",
}


def fixable(finding: Finding) -> bool:
    """A plugin finding: rewritten if its report's kind has a rewrite, else listed."""
    return finding.is_plugin_finding


@dataclass
class Registration:
    """``register_dynamic_type(name, python_type)`` to add after a class definition."""

    name: str
    python_type: str


def fix_file(path: str, source: str, findings_here: Sequence[Finding], options: Options,
             skip: frozenset[Position] = frozenset(), style: ImportStyle | None = None,
             registrations: Sequence[Registration] = ()) -> FilePlan:
    """Plan the rewrites of one file; ``skip`` lists finding starts to leave alone."""
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as error:
        raise FixError(
            f"{path}:{error.raw_line}:{error.raw_column + 1}: cannot fix: syntax error "
            f"({one_line(error.message)}); the file was left unchanged"
        ) from None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(PositionProvider)
    parents = wrapper.resolve(ParentNodeProvider)
    by_start: dict[Position, list[cst.CSTNode]] = {}
    for node, where in positions.items():
        by_start.setdefault((where.start.line, where.start.column), []).append(node)

    rewriter = Rewriter(options, module_level_names(module), number_abc_names(module), parents,
                        imported_from(module))
    outcomes: list[Outcome] = []
    seen: set[tuple[Position, str, str]] = set()
    for finding in findings_here:
        key = (start_of(finding), finding.code or "", finding.message)
        if key in seen:
            continue  # the same site twice (a deferred function is checked twice)
        seen.add(key)
        outcome = Outcome(finding, source)
        outcomes.append(outcome)
        if start_of(finding) in skip:
            outcome.reason = (
                "undone: after the rewrite mypy reported a new error in the function or "
                "at a call, or still reported the call"
                if isinstance(finding, AnnotationFinding) else
                "undone: mypy reported a new error in the same function after the rewrite"
            )
            continue
        candidates = by_start.get(start_of(finding), [])
        end = end_of(finding)
        exact = [n for n in candidates if end is None or
                 (positions[n].end.line, positions[n].end.column) == end]
        rewriter.plan(finding, exact or candidates, outcome)
    if not rewriter.replacements and not registrations:
        return FilePlan(path, source, source, outcomes)
    updated = module.visit(rewriter)
    assert isinstance(updated, cst.Module)
    imports = set(rewriter.imports)
    if registrations:
        updated = with_registrations(updated, registrations)
        imports.add(REGISTER)
    updated = remove_unused(updated, rewriter.replaced_names - imports)
    updated = add_imports(updated, sorted(imports), style or ImportStyle())
    plan = FilePlan(path, source, updated.code, outcomes)
    plan.registrations = [r.name for r in registrations]
    return plan


class Rewriter(cst.CSTTransformer):
    """Plans replacements per finding, then applies them in one pass."""

    def __init__(self, options: Options, module_names: dict[str, bool],
                 abc_names: frozenset[str], parents: Mapping[cst.CSTNode, cst.CSTNode],
                 origins: Mapping[str, str]) -> None:
        super().__init__()
        self.origins = origins  # imported name -> fully qualified name
        self.options = options
        self.module_names = module_names
        self.abc_names = abc_names  # names imported from numbers, for annotations
        self.parents = parents
        self.replacements: dict[cst.CSTNode, tuple[Build, cst.CSTNode | None]] = {}
        self.imports: set[str] = set()
        self.replaced_names: set[str] = set()  # names the replaced code used

    def plan(self, finding: Finding, candidates: list[cst.CSTNode], outcome: Outcome) -> None:
        planned = self.planned(finding, candidates)
        if isinstance(planned, str):
            outcome.reason = planned
            return
        node, build = planned
        clash = self.clash(build.imports)
        if clash is not None:
            outcome.reason = clash
            return
        self.replacements[node] = (build, self.parents.get(node))
        self.imports.update(build.imports)
        self.replaced_names.update(names_in(node))
        outcome.kind = build.kind

    def planned(self, finding: Finding, candidates: list[cst.CSTNode]) -> Plan | str:
        if isinstance(finding, AnnotationFinding):
            return plan_annotation(finding, candidates, self.parents, self.abc_names)
        report = finding.report
        if report is None:
            return ("mypy gave this finding without the plugin's report; run "
                    "proxy-types fix again (or with a fresh --cache-dir)")
        dynamic = self.options.dynamic_class(report.dynamic, self.origins)
        if report.kind in ISINSTANCE_KINDS:
            return plan_isinstance(finding, candidates, dynamic, self.options)
        if report.kind in (findings.CONVERSION, findings.CONDITION, findings.BOOL_CONDITION):
            return plan_conversion(finding, candidates, self.parents, dynamic)
        return LEFT_FOR_A_HUMAN.get(
            report.kind, f"no automatic fix for {finding.code}; see proxy-types explain")

    def clash(self, names: Iterable[str]) -> str | None:
        for name in names:
            if name in self.module_names and not self.module_names[name]:
                return (f'"{name}" already names something else in this module; '
                        f"import it from {RUNTIME_MODULE} under that name by hand")
        return None

    def on_leave(
        self, original_node: CSTNodeT, updated_node: CSTNodeT
    ) -> CSTNodeT | cst.RemovalSentinel | cst.FlattenSentinel[CSTNodeT]:
        planned = self.replacements.get(original_node)
        if planned is None:
            return super().on_leave(original_node, updated_node)
        build, parent = planned
        made = build.builder(updated_node)
        if isinstance(made, cst.BooleanOperation) and needs_parentheses(made, parent):
            made = made.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        # A replacement may be another node type (a Call for a Name); libcst allows it.
        return cast(CSTNodeT, made)


def imported_from(module: cst.Module) -> dict[str, str]:
    """Names the module imports by ``from m import n [as a]``: a -> ``m.n``."""
    found: dict[str, str] = {}
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if (isinstance(small, cst.ImportFrom) and small.module is not None
                    and not small.relative and isinstance(small.names, Sequence)):
                source = cst.helpers.get_full_name_for_node(small.module) or ""
                for alias in small.names:
                    name = cst.helpers.get_full_name_for_node(alias.name) or ""
                    shown = alias.asname.name if alias.asname is not None else alias.name
                    if isinstance(shown, cst.Name):
                        found[shown.value] = f"{source}.{name}"
    return found


def names_in(node: cst.CSTNode) -> set[str]:
    """Every identifier in ``node``."""
    found: set[str] = set()
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, cst.Name):
            found.add(current.value)
        pending.extend(current.children)
    return found


def needs_parentheses(made: cst.BooleanOperation, parent: cst.CSTNode | None) -> bool:
    """False where an ``or``/``and`` expression may stand bare."""
    if isinstance(parent, (cst.If, cst.While, cst.Assert, cst.Return, cst.Assign,
                           cst.AnnAssign, cst.Arg, cst.Element, cst.IfExp)):
        # An IfExp's branches bind tighter than `or`; only its test may be bare.
        return isinstance(parent, cst.IfExp) and parent.test is not made
    if isinstance(parent, cst.BooleanOperation):
        return not (isinstance(parent.operator, cst.Or) or isinstance(made.operator, cst.And))
    return True


# -- registrations -------------------------------------------------------------


def registered_classes(paths: Iterable[str]) -> dict[str, str]:
    """Classes ``register_dynamic_type`` is applied to in ``paths``: short name -> type.

    ``register_dynamic_type(Name, float)``, ``proxy_types.register_dynamic_type(mod.Name,
    python_type=int)`` and the ``@register_dynamic_type(python_type=int)`` decorator.
    """
    found: dict[str, str] = {}
    for path in paths:
        try:
            tree = ast.parse(read_source(path), filename=path)
        except (FixError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and called_name(node.func) == REGISTER and node.args:
                target = called_name(node.args[0])
                if target:
                    found[target] = python_type_argument(node, 1)
            elif isinstance(node, ast.ClassDef):
                for decorator in node.decorator_list:
                    if isinstance(decorator, ast.Call) and called_name(decorator.func) == REGISTER:
                        found[node.name] = python_type_argument(decorator, 0)
    return found


def called_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def python_type_argument(call: ast.Call, position: int) -> str:
    given = call.args[position] if len(call.args) > position else next(
        (k.value for k in call.keywords if k.arg == "python_type"), None)
    name = called_name(given) if given is not None else ""
    return name if name in BUILTIN_NUMBER_NAMES else "number"


@dataclass(frozen=True)
class ClassDefinition:
    """A module-level class of a checked file, as the fix needs it."""

    path: str
    bases: tuple[str, ...]  # short names

    @property
    def builtin(self) -> str:
        """The builtin number it subclasses ("float"), or ""."""
        return next((b for b in self.bases if b in BUILTIN_NUMBER_NAMES), "")


def class_definitions(paths: Iterable[str]) -> dict[str, list[ClassDefinition]]:
    """Module-level classes of ``paths`` by short name."""
    found: dict[str, list[ClassDefinition]] = {}
    for path in paths:
        try:
            tree = ast.parse(read_source(path), filename=path)
        except (FixError, SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                bases = tuple(called_name(base) for base in node.bases)
                found.setdefault(node.name, []).append(ClassDefinition(path, bases))
    return found


def known_ancestors(definitions: Mapping[str, list[ClassDefinition]]) -> dict[str, str]:
    """Classes of the checked files derived from a class the table knows: name -> that class.

    ``class MyProxy(FloatProxy)`` is a proxy_types proxy at run time; a class
    defined twice, or through a base named like a configured class, is left out.
    """
    found: dict[str, str] = {}
    for name in definitions:
        current, seen = name, set()
        while current in definitions and current not in seen:  # a class of the project
            seen.add(current)
            places = definitions[current]
            bases = [b for b in places[0].bases if b in TABLE_CLASSES or b in definitions]
            if len(places) != 1 or len(bases) != 1:
                break
            current = bases[0]
        if current not in definitions and current in TABLE_CLASSES:
            found[name] = current
    return found


def planned_registrations(all_findings: Sequence[Finding], options: Options,
                          checked_files: Sequence[str]) -> dict[str, list[Registration]]:
    """``--register``: per file, the classes to register where they are defined.

    A class qualifies when a finding names it, proxy_types does not know it at
    run time, it is defined once at module level in a checked file, and the
    Python type it stands for is known (its builtin number base).
    """
    wanted: set[str] = set()
    for finding in all_findings:
        report = finding.report
        if report is None or not report.dynamic:
            continue
        dynamic = options.dynamic_class(report.dynamic, imported_from_file(finding.file))
        if dynamic.kind in (LEGACY, CONFIGURED, UNKNOWN) and not dynamic.registered:
            wanted.add(dynamic.name)
    definitions = class_definitions(checked_files)
    by_file: dict[str, list[Registration]] = {}
    for name in sorted(wanted):
        places = definitions.get(name, [])
        if len(places) == 1 and places[0].builtin:
            by_file.setdefault(places[0].path, []).append(Registration(name, places[0].builtin))
    return by_file


def imported_from_file(path: str) -> dict[str, str]:
    try:
        return imported_from(cst.parse_module(read_source(path)))
    except (FixError, cst.ParserSyntaxError):
        return {}


def with_registrations(module: cst.Module, registrations: Sequence[Registration]) -> cst.Module:
    """``register_dynamic_type(Name, type)`` after each named module-level class."""
    wanted = {r.name: r for r in registrations}
    body: list[cst.BaseStatement] = []
    blank = cst.EmptyLine()
    for statement in module.body:
        body.append(statement)
        if isinstance(statement, cst.ClassDef) and statement.name.value in wanted:
            registration = wanted[statement.name.value]
            line = cst.parse_statement(
                f"{REGISTER}({registration.name}, {registration.python_type})\n")
            body.append(line.with_changes(leading_lines=[blank, blank]))
    return module.with_changes(body=body)


# -- the plans of a run -----------------------------------------------------------


def configured_options(options: Options, result: CheckResult,
                       checked_files: Sequence[str]) -> Options:
    """``options`` with the classes of the user's config and of their registrations."""
    from ...config import ProxyTypesConfig

    files = checked_files or sorted({f.file for f in result.findings})
    registered = registered_classes(files)
    definitions = class_definitions(files)
    bases = {name: places[0].builtin for name, places in definitions.items()
             if len(places) == 1 and places[0].builtin}
    options = replace(options, registered=registered, builtin_bases=bases,
                      table_subclasses=known_ancestors(definitions))
    if result.config.source is None:
        return options
    # mypy accepted this config a moment ago, so reading it cannot fail.
    config = ProxyTypesConfig(result.config.source)
    return replace(options, legacy_classes=tuple(config.migrate_classes),
                   configured_classes=tuple(config.dynamic_number_classes))


def python_files(paths: Sequence[str]) -> list[str]:
    """The ``.py`` files mypy checks for ``paths`` (directories walked), as it names them."""
    found: set[str] = set()
    for path in paths:
        if Path(path).is_dir():
            found.update(p.as_posix() for p in Path(path).rglob("*.py")
                         if not any(part.startswith(".") for part in p.parts[len(Path(path).parts):]))
        else:
            found.add(Path(path).as_posix())
    return sorted(found)


def blocking_problems(result: CheckResult) -> list[str]:
    """A syntax error stops mypy before it checks anything; nothing can be fixed then."""
    if result.exit_status != EXIT_USAGE:
        return []
    return [
        f"{f.file}:{f.line}:{f.column}: cannot fix: {one_line(f.message)}; no file was changed"
        for f in result.findings
        if f.severity == "error"
    ]


@dataclass
class PlanSettings:
    """What ``plan_fixes`` needs besides the findings."""

    options: Options
    style: ImportStyle = field(default_factory=ImportStyle)
    checked_files: Sequence[str] = ()
    registrations: Mapping[str, Sequence[Registration]] = field(default_factory=dict)


def plan_fixes(all_findings: Iterable[Finding], settings: PlanSettings,
               skips: dict[str, frozenset[Position]] | None = None, *, plugin: bool = True,
               annotations: bool = True) -> tuple[list[FilePlan], list[str]]:
    """Plan the rewrite of every file with a fixable finding.

    ``plugin``: the plugin's findings.  ``annotations``: ``arg-type`` findings of
    dynamic numbers, planned in the file of the annotation they resolve to among
    ``checked_files``, or listed where they are.
    """
    all_findings = list(all_findings)
    by_file: dict[str, list[Finding]] = {path: [] for path in settings.registrations}
    for finding in all_findings:
        if plugin and fixable(finding):
            by_file.setdefault(finding.file, []).append(finding)
    if annotations:
        for finding in annotation_findings(all_findings, settings.checked_files or sorted(
                {f.file for f in all_findings}), read_source):
            by_file.setdefault(finding.file, []).append(finding)
    plans: list[FilePlan] = []
    failures: list[str] = []
    given = GivenPaths(settings.checked_files)
    for path, found in sorted(by_file.items()):
        if not given.contains(path):
            plans.append(left_outside(path, found))
            continue
        try:
            source = read_source(path)
            plans.append(fix_file(path, source, found, settings.options,
                                  (skips or {}).get(path, frozenset()), settings.style,
                                  settings.registrations.get(path, ()) if plugin else ()))
        except FixError as error:
            failures.append(str(error))
        except Exception as error:  # a bug of ours: skip the file, fix the others
            failures.append(
                f"{path}: internal error while fixing ({type(error).__name__}: "
                f"{one_line(str(error))}); the file was left unchanged"
            )
    return plans, failures


OUTSIDE_THE_PATHS = "not rewritten: outside the paths given"


class GivenPaths:
    """The files ``fix`` may rewrite: those it was given (with no paths, the current directory's).

    mypy also reports on the modules a checked file imports (``follow_imports =
    normal``, ``mypy_path``); those are listed, never rewritten.
    """

    def __init__(self, checked_files: Sequence[str]) -> None:
        self.files = {os.path.realpath(path) for path in checked_files}
        self.root = None if self.files else os.path.realpath(os.curdir)

    def contains(self, path: str) -> bool:
        real = os.path.realpath(path)
        if self.root is not None:
            return real == self.root or real.startswith(self.root.rstrip(os.sep) + os.sep)
        return real in self.files


def left_outside(path: str, found: Sequence[Finding]) -> FilePlan:
    """A plan that changes nothing and lists each finding as outside the given paths."""
    untouched = ""  # never read: the file is not ours to change
    # The same site twice (a deferred function is checked twice) is listed once.
    unique = {(f.line, f.column, f.code, f.message): f for f in found}
    return FilePlan(path, untouched, untouched,
                    [Outcome(f, untouched, reason=OUTSIDE_THE_PATHS) for f in unique.values()])


def unified_diff(plan: FilePlan) -> str:
    return "".join(difflib.unified_diff(
        plan.original.splitlines(keepends=True), plan.rewritten.splitlines(keepends=True),
        fromfile=f"a/{plan.path}", tofile=f"b/{plan.path}",
    ))
