"""``proxy-types fix``: rewrite the places the plugin reported, keeping the formatting.

Only findings of a real mypy run are acted on (their file, line and column), and
every rewrite goes through libcst, so comments and layout stay as they were.
What each finding becomes is described in ``docs/fix.md``; in short:

* ``isinstance(x, <static number classes>)`` becomes a guard or a class check.
  Checks that cover every real number (``Number``, ``(int, float)``) ask "is it
  a constant?" and become ``is_static_number(x)``; checks for one kind
  (``numbers.Integral``, ``int``) ask "is it a number of this kind?" and become
  ``external_isinstance(x, ...)``, which counts a ``SymInt`` as an ``int``.
  In migration mode every check keeps accepting the legacy proxies.
* ``float(p)``, ``math.sqrt(p)``, ``xs[p]`` get ``to_static(p)`` as argument or index.
* Conditions (``if n >= 0:``) are left alone: they need a human decision.
* A dynamic number passed to a parameter annotated ``float`` (mypy's
  ``arg-type``) turns that annotation into ``NumberLike`` (``fix_annotations``).

When files are written, mypy runs again; a rewrite that causes a new mypy error
is undone and reported.
"""

from __future__ import annotations

import ast
import difflib
import functools
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar, cast

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider, ScopeProvider

from ..check import CheckResult, Finding, run_check
from ..common import EXIT_USAGE, CommandLineError, one_line
from .annotations import (
    ARG_TYPE_CODE,
    NUMBER_LIKE,
    AnnotationFinding,
    annotation_findings,
    number_abc_names,
    number_like_annotation,
    static_annotation_problem,
)
from proxy_types import _table

ISINSTANCE_CODE = "proxy-isinstance"
CONCRETIZE_CODE = "proxy-concretize"
FIXED_CODES = (ISINSTANCE_CODE, CONCRETIZE_CODE)
PLUGIN_CODE_PREFIX = "proxy-"
RUNTIME_MODULE = "proxy_types"

# What a rewrite produced, as counted in the summary.
KIND_STATIC_GUARD = "isinstance -> is_static_number()"
KIND_NUMBER_GUARD = "isinstance -> static or dynamic guard"
KIND_NUMBER_CLASSES = "isinstance -> classes with DynamicNumber"
KIND_EXTERNAL = "isinstance -> external_isinstance()"
KIND_CONVERSION = "conversion -> to_static()"
KIND_INDEX = "index -> to_static()"
KIND_ANNOTATION = "annotation -> NumberLike"
ALL_KINDS = (KIND_STATIC_GUARD, KIND_NUMBER_GUARD, KIND_NUMBER_CLASSES, KIND_EXTERNAL,
             KIND_CONVERSION, KIND_INDEX, KIND_ANNOTATION)

# Dynamic classes to_static() accepts, by the short name the plugin's messages use.
TO_STATIC_ACCEPTS = frozenset(
    t.name for t in _table.DYNAMIC_NUMBER_TYPES if t.python_type != "number"
)
BUILTIN_KINDS = ("int", "float", "complex")
ISINSTANCE_MESSAGE = re.compile(
    r"^(?P<function>[A-Za-z_][A-Za-z0-9_.]*)\(\) against static number classes "
    r"\((?P<classes>[^)]*)\) [^\"]*\"(?P<dynamic>[^\"]+)\""
)
CONVERSION_MESSAGE = re.compile(r"^(?P<operation>.+?) turns dynamic number \"(?P<dynamic>[^\"]+)\"")
# Migration mode reports checks that are True only through a legacy builtin base;
# there the check accepted the proxies at runtime, so the fix keeps accepting them.
LEGACY_MARKER = "legacy"


class FixError(CommandLineError):
    """A file that cannot be fixed (syntax error, unwritable); shown as one line."""


# -- plans ---------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """How to rewrite: the form of isinstance fixes and which intent to assume."""

    style: str = "guards"
    intent: str = "auto"
    migration: bool = False  # the config sets migrate_classes
    dynamic_names: tuple[str, ...] = ()  # configured dynamic classes, by short name


@dataclass
class Outcome:
    """What happened to one finding: the kind of rewrite, or why it was left."""

    finding: Finding
    source: str  # the text the finding's position refers to
    kind: str | None = None
    reason: str | None = None


@dataclass
class FilePlan:
    """The rewritten text of one file and the outcome of each of its findings."""

    path: str
    original: str
    rewritten: str
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.rewritten != self.original


# -- reading findings ----------------------------------------------------------


@dataclass(frozen=True)
class IsinstanceFinding:
    function: str
    static_names: tuple[str, ...]  # fully qualified
    dynamic: str
    legacy: bool


def parse_isinstance_message(message: str) -> IsinstanceFinding | None:
    match = ISINSTANCE_MESSAGE.match(message)
    if match is None:
        return None
    names = []
    for shown in match["classes"].split(","):
        shown = shown.strip()
        names.append(shown if "." in shown else f"builtins.{shown}")
    return IsinstanceFinding(
        match["function"], tuple(names), match["dynamic"], LEGACY_MARKER in message
    )


def covered_kinds(static_names: Iterable[str]) -> set[str]:
    """The builtin number types every instance of which passes the check."""
    names = set(static_names)
    return {kind for kind, classes in _table.STATIC_CLASSES_OF.items() if names & set(classes)}


def wants_static_only(finding: IsinstanceFinding, options: Options) -> bool:
    """True if the check asks "is this a constant?" rather than "is this a number?".

    A check that lets every real number through (``Number``, ``Real``,
    ``(int, float)``) separates numbers known now from everything else: the
    baked-constant question.  A check for one kind (``Integral``, ``int``) sorts
    values by shape, as LayerNorm does, and a dynamic integer is still an integer.
    """
    if options.intent != "auto":
        return options.intent == "static"
    if finding.legacy or options.migration:
        return False  # legacy proxies pass such checks at runtime; keep accepting them
    return {"int", "float"} <= covered_kinds(finding.static_names)


# -- locating nodes ------------------------------------------------------------

Position = tuple[int, int]  # 1-based line, 0-based column, as libcst counts
Parents = Mapping[cst.CSTNode, cst.CSTNode]
CSTNodeT = TypeVar("CSTNodeT", bound=cst.CSTNode)


def start_of(finding: Finding) -> Position:
    return (finding.line, finding.column - 1)


def end_of(finding: Finding) -> Position | None:
    if finding.end_line is None or finding.end_column is None:
        return None
    return (finding.end_line, finding.end_column - 1)


def has_side_effects(node: cst.CSTNode) -> bool:
    """True if evaluating ``node`` twice could differ from evaluating it once."""
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, (cst.Call, cst.Await, cst.Yield, cst.NamedExpr, cst.Lambda)):
            return True
        pending.extend(current.children)
    return False


def fix_file(path: str, source: str, findings: Sequence[Finding], options: Options,
             skip: frozenset[Position] = frozenset()) -> FilePlan:
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
    module_names = module_level_names(module)

    rewriter = _Rewriter(options, module_names, number_abc_names(module))
    outcomes: list[Outcome] = []
    seen: set[tuple[Position, str]] = set()
    for finding in findings:
        key = (start_of(finding), finding.code or "")
        if key in seen:
            continue  # mypy reports a site once per type-checking pass
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
        rewriter.plan(finding, exact or candidates, parents, outcome)
    if not rewriter.replacements:
        return FilePlan(path, source, source, outcomes)
    updated = module.visit(rewriter)
    assert isinstance(updated, cst.Module)
    updated = add_imports(updated, sorted(rewriter.imports))
    return FilePlan(path, source, updated.code, outcomes)


def module_level_names(module: cst.Module) -> dict[str, bool]:
    """Names bound at module level, mapped to True if imported from proxy_types."""
    scopes = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    scope = scopes.get(module)
    found: dict[str, bool] = {}
    if scope is None:
        return found
    for assignment in scope.assignments:
        node = getattr(assignment, "node", None)
        from_runtime = (
            isinstance(node, cst.ImportFrom) and isinstance(node.module, cst.Name)
            and node.module.value == RUNTIME_MODULE and not node.relative
            and imports_unaliased(node, assignment.name)
        )
        found[assignment.name] = found.get(assignment.name, True) and from_runtime
    return found


def imports_unaliased(node: cst.ImportFrom, name: str) -> bool:
    if isinstance(node.names, cst.ImportStar):
        return False
    return any(
        isinstance(alias.name, cst.Name) and alias.name.value == name and alias.asname is None
        for alias in node.names
    )


@dataclass(frozen=True)
class _Build:
    """A planned replacement: its summary kind, the names it imports, its builder."""

    kind: str
    imports: tuple[str, ...]
    builder: Callable[[cst.CSTNode], cst.CSTNode]
    parent: cst.CSTNode | None = None

    def with_parent(self, parent: cst.CSTNode | None) -> _Build:
        return _Build(self.kind, self.imports, self.builder, parent)

    def make(self, updated: cst.CSTNode) -> cst.CSTNode:
        made = self.builder(updated)
        if isinstance(made, cst.BooleanOperation) and needs_parentheses(made, self.parent):
            made = made.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return made




class _Rewriter(cst.CSTTransformer):
    """Plans replacements per finding, then applies them in one pass."""

    def __init__(self, options: Options, module_names: dict[str, bool],
                 abc_names: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.options = options
        self.module_names = module_names
        self.abc_names = abc_names  # names imported from numbers, for annotations
        self.replacements: dict[cst.CSTNode, _Build] = {}
        self.imports: set[str] = set()

    # -- planning -----------------------------------------------------

    def plan(self, finding: Finding, candidates: list[cst.CSTNode],
             parents: Parents, outcome: Outcome) -> None:
        if finding.code == ISINSTANCE_CODE:
            self._plan_isinstance(finding, candidates, parents, outcome)
        elif finding.code == CONCRETIZE_CODE:
            self._plan_concretize(finding, candidates, parents, outcome)
        elif isinstance(finding, AnnotationFinding):
            self._plan_annotation(finding, candidates, parents, outcome)
        else:
            outcome.reason = f"no automatic fix for {finding.code}; see proxy-types explain"

    def _usable(self, names: Iterable[str], outcome: Outcome) -> bool:
        for name in names:
            if name in self.module_names and not self.module_names[name]:
                outcome.reason = (
                    f'"{name}" already names something else in this module; '
                    f"import it from {RUNTIME_MODULE} under that name by hand"
                )
                return False
        return True

    def _plan_isinstance(self, finding: Finding, candidates: list[cst.CSTNode],
                         parents: Parents, outcome: Outcome) -> None:
        parsed = parse_isinstance_message(finding.message)
        call = next((n for n in candidates if isinstance(n, cst.Call)), None)
        if parsed is None or call is None or len(call.args) != 2 or any(
            a.star or a.keyword is not None for a in call.args
        ):
            outcome.reason = "the reported call could not be matched in the source"
            return
        if not (isinstance(call.func, cst.Name) and call.func.value == parsed.function
                and parsed.function in ("isinstance", "issubclass")):
            outcome.reason = (
                "an isinstance wrapper: add DynamicNumber to its classes by hand"
            )
            return
        if parsed.function == "issubclass":
            outcome.reason = "issubclass() has no guard form; add DynamicNumber by hand"
            return
        static_only = wants_static_only(parsed, self.options)
        build = isinstance_rewrite(call, parsed, static_only, self.options.style)
        if isinstance(build, str):
            outcome.reason = build
            return
        if not self._usable(build.imports, outcome):
            return
        self._add(call, build, parents)
        outcome.kind = build.kind

    def _plan_concretize(self, finding: Finding, candidates: list[cst.CSTNode],
                         parents: Parents, outcome: Outcome) -> None:
        match = CONVERSION_MESSAGE.match(finding.message)
        if match is None:
            outcome.reason = (
                "a condition needs a decision: check(cond) to record it, "
                "or to_static(cond) to specialize on it"
            )
            return
        if match["dynamic"] not in TO_STATIC_ACCEPTS:
            outcome.reason = (
                f'to_static() takes proxy_types proxies and torch Sym types, '
                f'not "{match["dynamic"]}"'
            )
            return
        if not self._usable(["to_static"], outcome):
            return
        if match["operation"].startswith("indexing"):
            subscript = next((n for n in candidates if isinstance(n, cst.Subscript)), None)
            build = index_rewrite(subscript) if subscript is not None else None
            if subscript is None or build is None:
                outcome.reason = "the reported index could not be matched in the source"
                return
            self._add(subscript, build, parents)
            outcome.kind = KIND_INDEX
            return
        argument = next(
            (n for n in candidates if isinstance(n, cst.BaseExpression)
             and is_plain_argument(parents.get(n))),
            None,
        )
        if argument is None:
            outcome.reason = "the reported argument could not be matched in the source"
            return
        self._add(argument, _Build(KIND_CONVERSION, ("to_static",), wrap_to_static), parents)
        outcome.kind = KIND_CONVERSION

    def _plan_annotation(self, finding: AnnotationFinding, candidates: list[cst.CSTNode],
                         parents: Parents, outcome: Outcome) -> None:
        if finding.reason is not None:
            outcome.reason = finding.reason
            return
        annotation = next((n for n in candidates if isinstance(n, cst.BaseExpression)
                           and isinstance(parents.get(n), cst.Annotation)), None)
        if annotation is None:
            outcome.reason = "the parameter's annotation could not be matched in the source"
            return
        assert isinstance(annotation, cst.BaseExpression)
        problem = static_annotation_problem(annotation, self.abc_names)
        if problem is not None:
            outcome.reason = f'parameter "{finding.parameter}": {problem}'
            return
        if not self._usable([NUMBER_LIKE], outcome):
            return
        abc_names = self.abc_names

        def build(updated: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(updated, cst.BaseExpression)
            return number_like_annotation(updated, abc_names)

        self._add(annotation, _Build(KIND_ANNOTATION, (NUMBER_LIKE,), build), parents)
        outcome.kind = KIND_ANNOTATION

    def _add(self, node: cst.CSTNode, build: _Build, parents: Parents) -> None:
        parent = parents.get(node)
        self.replacements[node] = build.with_parent(parent)
        self.imports.update(build.imports)

    # -- applying -----------------------------------------------------

    def on_leave(
        self, original_node: CSTNodeT, updated_node: CSTNodeT
    ) -> CSTNodeT | cst.RemovalSentinel | cst.FlattenSentinel[CSTNodeT]:
        build = self.replacements.get(original_node)
        if build is None:
            return super().on_leave(original_node, updated_node)
        # A replacement may be another node type (a Call for a Name); libcst allows it.
        return cast(CSTNodeT, build.make(updated_node))



def is_plain_argument(parent: cst.CSTNode | None) -> bool:
    return isinstance(parent, cst.Arg) and not parent.star


def needs_parentheses(made: cst.BooleanOperation, parent: cst.CSTNode | None) -> bool:
    """False where an ``or``/``and`` expression may stand bare."""
    if isinstance(parent, (cst.If, cst.While, cst.Assert, cst.Return, cst.Assign,
                           cst.AnnAssign, cst.Arg, cst.Element, cst.IfExp)):
        # An IfExp's branches bind tighter than `or`; only its test may be bare.
        return isinstance(parent, cst.IfExp) and parent.test is not made
    if isinstance(parent, cst.BooleanOperation):
        return not (isinstance(parent.operator, cst.Or) or isinstance(made.operator, cst.And))
    return True


# -- isinstance rewrites ---------------------------------------------------------


def split_classes(classes: cst.BaseExpression, static_names: Sequence[str]
                  ) -> tuple[list[cst.BaseExpression], list[cst.BaseExpression]] | None:
    """Split a tuple of classes into (static number classes, others); None if opaque."""
    short_names = {name.rpartition(".")[2] for name in static_names}
    elements = (
        [e.value for e in classes.elements] if isinstance(classes, cst.Tuple)
        and all(isinstance(e, cst.Element) for e in classes.elements) else [classes]
    )
    static: list[cst.BaseExpression] = []
    others: list[cst.BaseExpression] = []
    for element in elements:
        name = (element.value if isinstance(element, cst.Name) else
                element.attr.value if isinstance(element, cst.Attribute) else None)
        (static if name in short_names else others).append(element)
    if not static:
        return None  # the static classes come through an alias we cannot see into
    return static, others


def call(name: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(cst.Name(name), [cst.Arg(arg.deep_clone()) for arg in args])


def classes_expression(classes: Sequence[cst.BaseExpression]) -> cst.BaseExpression:
    if len(classes) == 1:
        return classes[0].deep_clone()
    return cst.Tuple([cst.Element(c.deep_clone()) for c in classes])


def any_of(*parts: cst.BaseExpression, operator: str = "or") -> cst.BaseExpression:
    def grouped(part: cst.BaseExpression) -> cst.BaseExpression:
        # `a and b or c` reads better as `(a and b) or c`
        if isinstance(part, cst.BooleanOperation) and not part.lpar:
            return part.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        return part

    result = grouped(parts[0]) if len(parts) > 1 else parts[0]
    for part in parts[1:]:
        op: cst.BaseBooleanOp = cst.Or() if operator == "or" else cst.And()
        part = grouped(part)
        result = cst.BooleanOperation(result, op, part)
    return result


def isinstance_rewrite(node: cst.Call, parsed: IsinstanceFinding, static_only: bool,
                       style: str) -> _Build | str:
    """The replacement of one reported isinstance call, or why there is none."""
    subject = node.args[0].value
    split = split_classes(node.args[1].value, parsed.static_names)
    full = set(BUILTIN_KINDS) <= covered_kinds(parsed.static_names)
    if not static_only and not full:
        # One kind (Integral, int): a dynamic number of another kind must not pass,
        # and only external_isinstance() knows the kind a dynamic number stands for.
        return _Build(KIND_EXTERNAL, ("external_isinstance",), rename_call("external_isinstance"))
    if not static_only and (style == "classes" or split is None):
        return classes_rewrite(split)
    if split is None:
        return "the classes come through a name; cannot tell its number classes from the rest"
    static, others = split
    if (not full or others or not static_only) and has_side_effects(subject):
        return "the checked value has side effects and would be evaluated twice"
    def build(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Call)
        value = updated.args[0].value
        static_check: cst.BaseExpression = call("is_static_number", value)
        if not full:
            static_check = any_of(
                static_check, call("isinstance", value, classes_expression(static)),
                operator="and",
            )
        parts = [static_check]
        if not static_only:
            parts.append(call("is_dynamic_number", value))
        if others:
            parts.append(call("isinstance", value, classes_expression(others)))
        return any_of(*parts)

    if static_only:
        return _Build(KIND_STATIC_GUARD, ("is_static_number",), build)
    return _Build(KIND_NUMBER_GUARD, ("is_static_number", "is_dynamic_number"), build)


def rename_call(name: str) -> Callable[[cst.CSTNode], cst.CSTNode]:
    def build(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Call)
        return updated.with_changes(func=cst.Name(name))

    return build


def classes_rewrite(
    split: tuple[list[cst.BaseExpression], list[cst.BaseExpression]] | None
) -> _Build:
    """``isinstance(x, C)`` with every number class: add DynamicNumber to ``C``."""
    exact_builtins = split is not None and not split[1] and all(
        isinstance(c, cst.Name) and c.value in BUILTIN_KINDS + ("bool",) for c in split[0]
    )
    added = "NumberClasses" if exact_builtins else "DynamicNumber"

    def build(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Call)
        old = updated.args[1].value
        if exact_builtins:
            value: cst.BaseExpression = cst.Name(added)
        elif isinstance(old, cst.Tuple) and old.elements:
            elements = list(old.elements)
            last = elements[-1]
            comma = last.comma if isinstance(last.comma, cst.Comma) else cst.Comma(
                whitespace_after=cst.SimpleWhitespace(" "))
            elements[-1] = last.with_changes(comma=comma)
            value = old.with_changes(elements=[*elements, cst.Element(cst.Name(added))])
        else:
            value = cst.Tuple([cst.Element(old), cst.Element(cst.Name(added))])
        classes = updated.args[1].with_changes(value=value)
        return updated.with_changes(args=[updated.args[0], classes])

    return _Build(KIND_NUMBER_CLASSES, (added,), build)


# -- to_static rewrites ----------------------------------------------------------


def wrap_to_static(updated: cst.CSTNode) -> cst.CSTNode:
    assert isinstance(updated, cst.BaseExpression)
    inner = updated.with_changes(lpar=[], rpar=[]) if updated.lpar else updated
    return cst.Call(cst.Name("to_static"), [cst.Arg(inner)], lpar=updated.lpar, rpar=updated.rpar)


def index_rewrite(node: cst.Subscript) -> _Build | None:
    """Wrap the non-literal index or slice bounds of ``node`` in to_static()."""
    if len(node.slice) != 1:
        return None

    def wrap(expression: cst.BaseExpression | None) -> cst.BaseExpression | None:
        if expression is None or isinstance(expression, (cst.Integer, cst.UnaryOperation)):
            return expression
        wrapped = wrap_to_static(expression)
        assert isinstance(wrapped, cst.BaseExpression)
        return wrapped

    def build(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Subscript)
        element = updated.slice[0]
        index = element.slice
        if isinstance(index, cst.Index):
            new_index: cst.BaseSlice = index.with_changes(value=wrap(index.value))
        else:
            assert isinstance(index, cst.Slice)
            new_index = index.with_changes(
                lower=wrap(index.lower), upper=wrap(index.upper), step=wrap(index.step))
        return updated.with_changes(slice=[element.with_changes(slice=new_index)])

    return _Build(KIND_INDEX, ("to_static",), build)


# -- imports -------------------------------------------------------------------


def add_imports(module: cst.Module, names: Sequence[str]) -> cst.Module:
    """Import ``names`` from proxy_types once, merged into an existing import if any."""
    existing = module_level_names(module)
    missing = [name for name in names if not existing.get(name, False)]
    if not missing:
        return module
    body = list(module.body)
    for index, statement in enumerate(body):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for position, small in enumerate(statement.body):
            if (isinstance(small, cst.ImportFrom) and not small.relative
                    and isinstance(small.module, cst.Name)
                    and small.module.value == RUNTIME_MODULE
                    and not isinstance(small.names, cst.ImportStar)):
                merged = merge_import(small, missing)
                parts = list(statement.body)
                parts[position] = merged
                body[index] = statement.with_changes(body=parts)
                return module.with_changes(body=body)
    new_line = cst.parse_statement(f"from {RUNTIME_MODULE} import {', '.join(missing)}\n")
    body.insert(import_position(body), new_line)
    return module.with_changes(body=body)


def merge_import(statement: cst.ImportFrom, missing: Sequence[str]) -> cst.ImportFrom:
    assert not isinstance(statement.names, cst.ImportStar)
    aliases = list(statement.names)
    separator = aliases[0].comma if len(aliases) > 1 and isinstance(aliases[0].comma, cst.Comma) \
        else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    trailing = aliases[-1].comma
    aliases[-1] = aliases[-1].with_changes(comma=separator)
    added = [cst.ImportAlias(cst.Name(name), comma=separator) for name in missing]
    added[-1] = added[-1].with_changes(comma=trailing)
    return statement.with_changes(names=[*aliases, *added])


def import_position(body: Sequence[cst.BaseStatement]) -> int:
    """After the last module-level import before the first definition."""
    position = 0
    for index, statement in enumerate(body):
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            break
        if isinstance(statement, cst.SimpleStatementLine):
            first = statement.body[0] if statement.body else None
            if isinstance(first, (cst.Import, cst.ImportFrom)):
                position = index + 1
            elif index == 0 and isinstance(first, cst.Expr) and isinstance(
                first.value, (cst.SimpleString, cst.ConcatenatedString)
            ):
                position = 1  # after the docstring
    return position


# -- the command ---------------------------------------------------------------


@dataclass
class FixReport:
    plans: list[FilePlan]
    failures: list[str]
    new_errors: list[str] = field(default_factory=list)


def configured_options(options: Options, result: CheckResult) -> Options:
    """``options`` with migration mode and the dynamic classes of the user's config."""
    from ...config import ProxyTypesConfig

    if result.config.source is None:
        return options
    # mypy accepted this config a moment ago, so reading it cannot fail.
    config = ProxyTypesConfig(result.config.source)
    migrate = tuple(getattr(config, "migrate_classes", ()))
    names = (*getattr(config, "dynamic_number_classes", ()), *migrate)
    return replace(options, migration=bool(migrate),
                   dynamic_names=tuple(name.rpartition(".")[2] for name in names))


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


def fixable(finding: Finding) -> bool:
    """A plugin finding: rewritten if its code is one of FIXED_CODES, else listed."""
    code = finding.code or ""
    return finding.severity == "error" and code.startswith(PLUGIN_CODE_PREFIX)


def blocking_problems(result: CheckResult) -> list[str]:
    """A syntax error stops mypy before it checks anything; nothing can be fixed then."""
    if result.exit_status != EXIT_USAGE:
        return []
    return [
        f"{f.file}:{f.line}:{f.column}: cannot fix: {one_line(f.message)}; no file was changed"
        for f in result.findings
        if f.severity == "error"
    ]


def plan_fixes(findings: Iterable[Finding], options: Options,
               skips: dict[str, frozenset[Position]] | None = None,
               checked_files: Sequence[str] = (), *, plugin: bool = True,
               annotations: bool = True) -> tuple[list[FilePlan], list[str]]:
    """Plan the rewrite of every file with a fixable finding.

    ``plugin``: the plugin's findings.  ``annotations``: ``arg-type`` findings of
    dynamic numbers, planned in the file of the annotation they resolve to among
    ``checked_files``, or listed where they are.
    """
    findings = list(findings)
    by_file: dict[str, list[Finding]] = {}
    for finding in findings:
        if plugin and fixable(finding):
            by_file.setdefault(finding.file, []).append(finding)
    if annotations:
        for finding in annotation_findings(findings, checked_files or sorted(
                {f.file for f in findings}), options.dynamic_names, read_source):
            by_file.setdefault(finding.file, []).append(finding)
    plans: list[FilePlan] = []
    failures: list[str] = []
    for path, findings in sorted(by_file.items()):
        try:
            source = read_source(path)
            plans.append(fix_file(path, source, findings, options, (skips or {}).get(path, frozenset())))
        except FixError as error:
            failures.append(str(error))
        except Exception as error:  # a bug of ours: skip the file, fix the others
            failures.append(
                f"{path}: internal error while fixing ({type(error).__name__}: "
                f"{one_line(str(error))}); the file was left unchanged"
            )
    return plans, failures


def read_source(path: str) -> str:
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise FixError(f"cannot read {path}: {one_line(str(error))}") from None


def write_source(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as error:
        reason = error.strerror or one_line(str(error))
        raise FixError(f"cannot write {path}: {reason}; the file was left unchanged") from None


def unified_diff(plan: FilePlan) -> str:
    return "".join(difflib.unified_diff(
        plan.original.splitlines(keepends=True), plan.rewritten.splitlines(keepends=True),
        fromfile=f"a/{plan.path}", tofile=f"b/{plan.path}",
    ))


LINE_NUMBER = re.compile(r"\bline \d+")
MAX_VERIFY_ROUNDS = 3


ARG_TYPE_EXPECTED = re.compile(r'; expected "[^"]*"$')


def error_key(finding: Finding) -> tuple[str, str | None, str]:
    # "already defined on line 12" moves with every added import line.
    message = LINE_NUMBER.sub("line N", finding.message)
    if finding.code == ARG_TYPE_CODE:
        # A widened annotation rewords an error it does not cause ("expected float"
        # becomes "expected int | float | complex | DynamicNumber" for a SymInt).
        message = ARG_TYPE_EXPECTED.sub("", message)
    return (finding.file, finding.code, message)


def new_errors(before: CheckResult, after: CheckResult) -> list[Finding]:
    """Errors of ``after`` unlike any of ``before`` (compared without positions).

    Compared as sets: mypy may repeat an error once more or less between a cold
    and a warm cache, which is no sign of a harmful rewrite.
    """
    old = {error_key(f) for f in before.findings if f.severity == "error"}
    return [f for f in after.findings if f.severity == "error" and error_key(f) not in old]


@functools.lru_cache(maxsize=8)
def line_changes(original: str, rewritten: str) -> tuple[tuple[str, int, int, int, int], ...]:
    """difflib's opcodes between the lines of two texts (cached: asked once per finding)."""
    matcher = difflib.SequenceMatcher(
        None, original.splitlines(), rewritten.splitlines(), autojunk=False)
    return tuple(matcher.get_opcodes())


def original_line(plan: FilePlan, line: int) -> int:
    """The line of the original text that line ``line`` of the rewrite came from."""
    for tag, old_start, old_end, new_start, new_end in line_changes(plan.original, plan.rewritten):
        if new_start < line <= new_end:
            if tag == "equal" or old_end - old_start == new_end - new_start:
                return old_start + (line - new_start)
            return old_start + 1
    return line


def rewritten_line(original: str, rewritten: str, line: int) -> int:
    """Where line ``line`` of ``original`` went in ``rewritten``."""
    if original is rewritten:
        return line
    for tag, old_start, old_end, new_start, new_end in line_changes(original, rewritten):
        if old_start < line <= old_end:
            if tag == "equal" or old_end - old_start == new_end - new_start:
                return new_start + (line - old_start)
            return new_start + 1
    return line


@functools.lru_cache(maxsize=8)
def outermost_functions(source: str) -> tuple[tuple[int, int], ...]:
    """Line spans of the functions and methods not nested in another function."""
    wrapper = MetadataWrapper(cst.parse_module(source))
    parents = wrapper.resolve(ParentNodeProvider)
    spans = []
    for node, where in wrapper.resolve(PositionProvider).items():
        if not isinstance(node, cst.FunctionDef):
            continue
        parent = parents.get(node)
        while parent is not None and not isinstance(parent, cst.FunctionDef):
            parent = parents.get(parent)
        if parent is None:
            spans.append((where.start.line, where.end.line))
    return tuple(spans)


def outermost_function(source: str, line: int) -> tuple[int, int] | None:
    """Lines of the outermost function (or method) around ``line``; None at module level."""
    return next((s for s in outermost_functions(source) if s[0] <= line <= s[1]), None)


def module_name(path: str) -> str:
    parts = list(Path(path).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.lru_cache(maxsize=64)
def imported_modules(path: str) -> frozenset[str]:
    """Modules ``path`` imports by absolute name (empty if it cannot be read)."""
    try:
        tree = ast.parse(read_source(path), filename=path)
    except (FixError, SyntaxError, ValueError):
        return frozenset()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(found)


def imports_module(importer: str, imported: str) -> bool:
    """True if file ``importer`` imports the module of file ``imported`` (by name suffix)."""
    target = module_name(imported)
    # "pkg.mod" or "pkg.mod.name" (from pkg.mod import name); the path may add a prefix.
    candidates = {c for name in imported_modules(importer) for c in (name, name.rpartition(".")[0])}
    return any(c and (target == c or target.endswith("." + c)) for c in candidates)


def rewrites_to_undo(plans: Sequence[FilePlan], harmful: Sequence[Finding]
                     ) -> dict[str, set[Position]]:
    """The rewrites a new error may come from: those in the same outermost function.

    Narrowing flows through a whole function, so an error can appear lines away
    from the rewrite that caused it.  An error outside any changed function
    undoes every rewrite of its file, or of every file if its file was not changed.
    An error in a file that calls a function whose annotation was rewritten
    undoes that rewrite; an error with no rewrite around it undoes the annotation
    rewrites of its module and of the modules it imports.
    """
    plan_of = {plan.path: plan for plan in plans if plan.changed}
    undo: dict[str, set[Position]] = {}

    def add(plan: FilePlan, span: tuple[int, int] | None) -> None:
        undo.setdefault(plan.path, set()).update(
            start_of(o.finding) for o in plan.outcomes if o.kind is not None
            and (span is None or span[0] <= o.finding.line <= span[1])
        )

    for finding in harmful:
        # A widened annotation changes what its callers may pass: an error at a
        # call site undoes the annotation rewrites that call site led to.
        for other in plan_of.values():
            undo.setdefault(other.path, set()).update(
                start_of(o.finding) for o in other.outcomes if o.kind is not None
                and isinstance(o.finding, AnnotationFinding)
                and finding.file in o.finding.call_files)
        plan = plan_of.get(finding.file)
        if plan is None:
            # An unchanged module sees the changed ones through its imports.  Only
            # direct imports count: mypy's incremental mode can word an error in an
            # untouched module differently from one run to the next on its own.
            for other in plan_of.values():
                if imports_module(finding.file, other.path):
                    add(other, None)
            continue
        span = outermost_function(plan.original, original_line(plan, finding.line))
        add(plan, span)
        if span is None or not any(o.kind is not None and span[0] <= o.finding.line <= span[1]
                                   for o in plan.outcomes):
            # Nothing rewritten around the error: a widened annotation may reach it
            # through an attribute or an override, from this module or one it imports.
            for other in plan_of.values():
                if other is plan or imports_module(finding.file, other.path):
                    undo.setdefault(other.path, set()).update(
                        start_of(o.finding) for o in other.outcomes if o.kind is not None
                        and isinstance(o.finding, AnnotationFinding))
    return undo


MAX_PASSES = 2


def run_fix(paths: Sequence[str], config: str | None, cache_dir: str | None,
            options: Options, write: bool) -> FixReport:
    """Check, rewrite, and (when writing) check again and undo harmful rewrites.

    A rewrite can make mypy see a check it skipped before (a branch that was
    unreachable), so a second pass fixes what the first one uncovered; a run
    right after this one then has nothing left to do.  Annotations come last,
    planned from the latest run and verified on their own: a widened parameter
    reaches into other modules, and undoing it must not undo unrelated rewrites.
    """
    before = run_check(paths, config, cache_dir)
    problems = blocking_problems(before)
    if problems:
        raise FixError(problems[0])
    options = configured_options(options, before)
    checked = python_files(paths)
    plans, failures = plan_fixes(before.findings, options, checked_files=checked,
                                 annotations=not write)
    report = FixReport(plans, failures)
    if not write:
        return report
    current = before
    for number in range(MAX_PASSES):
        if not write_plans(plans, failures):
            break
        plans, current = verify(paths, config, cache_dir, options, before, plans, report)
        report.plans = plans if number == 0 else merge_passes(report.plans, plans)
        plans, _ = plan_fixes(uncovered_findings(plans, current), options, annotations=False)
        plans = [plan for plan in plans if plan.changed]
    plans, more_failures = plan_fixes(current.findings, options, checked_files=checked,
                                      plugin=False)
    failures += more_failures
    if write_plans(plans, failures):
        plans, _ = verify(paths, config, cache_dir, options, current, plans, report)
    report.plans = merge_passes(report.plans, plans)
    return report


def useless_annotation_rewrites(plans: Sequence[FilePlan], after: CheckResult
                                ) -> dict[str, set[Position]]:
    """Annotation rewrites whose calls mypy still reports (it does not count the
    passed class as NumberLike, a legacy proxy for one): they fix nothing."""
    remaining = {error_key(f) for f in after.findings if f.code == ARG_TYPE_CODE}
    useless: dict[str, set[Position]] = {}
    for plan in plans:
        for outcome in plan.outcomes:
            finding = outcome.finding
            if (outcome.kind is not None and isinstance(finding, AnnotationFinding)
                    and any(error_key(call) in remaining for call in finding.calls)):
                useless.setdefault(plan.path, set()).add(start_of(finding))
    return useless


def verify(paths: Sequence[str], config: str | None, cache_dir: str | None, options: Options,
           before: CheckResult, plans: list[FilePlan], report: FixReport
           ) -> tuple[list[FilePlan], CheckResult]:
    """Undo the rewrites after which mypy reports errors it did not report before."""
    skips: dict[str, set[Position]] = {}
    for _ in range(MAX_VERIFY_ROUNDS):
        after = run_check(paths, config, cache_dir)
        harmful = new_errors(before, after)
        useless = useless_annotation_rewrites(plans, after)
        if not harmful and not any(useless.values()):
            return plans, after
        report.new_errors += [
            f"{f.file}:{f.line}:{f.column}: {f.message}  [{f.code}]" for f in harmful
        ]
        undo = rewrites_to_undo(plans, harmful)
        for path, starts in useless.items():
            undo.setdefault(path, set()).update(starts)
        if not any(undo.values()):
            return plans, after  # nothing of ours left to undo
        for path, starts in undo.items():
            skips.setdefault(path, set()).update(starts)
        redone = []
        for plan in plans:
            if undo.get(plan.path):
                findings: list[Finding] = [o.finding for o in plan.outcomes]
                plan = fix_file(plan.path, plan.original, findings, options,
                                frozenset(skips[plan.path]))
                write_source_or_record(plan, report.failures)
            redone.append(plan)
        plans = redone
    return plans, run_check(paths, config, cache_dir)


def uncovered_findings(plans: Sequence[FilePlan], after: CheckResult) -> list[Finding]:
    """Findings in functions whose rewrites were kept: checks those rewrites uncovered.

    Functions whose rewrites were undone are left out, or the next pass would
    only repeat the same rewrites and undo them again.
    """
    plan_of = {plan.path: plan for plan in plans if plan.changed}
    found = []
    for finding in after.findings:
        plan = plan_of.get(finding.file)
        if plan is None or not fixable(finding):
            continue
        kept = [o.finding.line for o in plan.outcomes if o.kind is not None]
        known = {(o.finding.line, o.finding.code, o.finding.message) for o in plan.outcomes}
        line = original_line(plan, finding.line)
        if (line, finding.code, finding.message) in known:
            continue  # seen by the first pass: fixed there or listed with its reason
        span = outermost_function(plan.original, line) or (line, line)
        if any(span[0] <= kept_line <= span[1] for kept_line in kept):
            found.append(finding)
    return found


def merge_passes(first: list[FilePlan], second: list[FilePlan]) -> list[FilePlan]:
    """One plan per file: the first original, the last text, all outcomes."""
    merged = {plan.path: plan for plan in first}
    for plan in second:
        earlier = merged.get(plan.path)
        if earlier is None or earlier is plan:
            merged[plan.path] = plan
            continue
        # The second pass saw only findings the first one uncovered.
        merged[plan.path] = FilePlan(
            plan.path, earlier.original, plan.rewritten, earlier.outcomes + plan.outcomes)
    return sorted(merged.values(), key=lambda plan: plan.path)


def write_source_or_record(plan: FilePlan, failures: list[str]) -> None:
    try:
        write_source(plan.path, plan.rewritten)
    except FixError as error:
        failures.append(str(error))


def write_plans(plans: Sequence[FilePlan], failures: list[str]) -> list[FilePlan]:
    written = []
    for plan in plans:
        if not plan.changed:
            continue
        try:
            write_source(plan.path, plan.rewritten)
        except FixError as error:
            failures.append(str(error))
            for outcome in plan.outcomes:
                if outcome.kind is not None:
                    outcome.kind, outcome.reason = None, "the file could not be written"
            plan.rewritten = plan.original
            continue
        written.append(plan)
    return written


def render_summary(report: FixReport, write: bool) -> str:
    """Files changed, rewrites per kind, and the findings left with their reason."""
    changed = [plan for plan in report.plans if plan.changed]
    counts = Counter(o.kind for plan in report.plans for o in plan.outcomes if o.kind)
    left = [(plan, o) for plan in report.plans for o in plan.outcomes if o.kind is None]
    verb = "changed" if write else "would change"
    lines = [f"proxy-types fix: {len(changed)} file{'s' * (len(changed) != 1)} {verb}"]
    width = max(len(kind) for kind in ALL_KINDS)
    lines += [f"  {kind:<{width}}  {counts.get(kind, 0)}" for kind in ALL_KINDS]
    lines.append(f"findings left unfixed: {len(left)}")
    for plan, outcome in left:
        f = outcome.finding
        # Written files show where the finding is now, not where it was.
        line = rewritten_line(outcome.source, plan.rewritten, f.line) if write else f.line
        lines.append(f"  {f.file}:{line}:{f.column}: [{f.code}] {outcome.reason}")
    if report.new_errors:
        lines.append("new mypy errors after rewriting (their rewrites were undone):")
        lines += [f"  {message}" for message in report.new_errors]
    return "\n".join(lines) + "\n"


def command_fix(paths: Sequence[str], config: str | None, cache_dir: str | None,
                style: str, intent: str, diff: bool) -> int:
    """``proxy-types fix``: 0 all fixed, 1 findings left, 2 a file could not be fixed."""
    report = run_fix(paths, config, cache_dir, Options(style, intent), write=not diff)
    if diff:
        for plan in report.plans:
            if plan.changed:
                sys.stdout.write(unified_diff(plan))
    summary = render_summary(report, write=not diff)
    (sys.stderr if diff else sys.stdout).write(summary)
    for failure in report.failures:
        print(f"proxy-types: error: {failure}", file=sys.stderr)
    if report.failures:
        return 2
    left = any(o.kind is None for plan in report.plans for o in plan.outcomes)
    return 1 if left else 0


