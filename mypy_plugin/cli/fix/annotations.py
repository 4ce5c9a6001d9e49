"""Parameter annotations that must accept dynamic numbers, for ``proxy-types fix``.

mypy reports ``arg-type`` at the argument when a dynamic number is passed where
a parameter is annotated with a static number type, and the plugin records the
same call as data (``findings.PassedArgument``, joined to the finding as
``Finding.passed``).  This module turns such a finding into a rewrite of the
callee's parameter annotation into ``NumberLike``: the argument is located at the
finding's position, the callee is resolved among the checked files (same module,
imported by name, or a method of the class mypy names), and the parameter is
found by position or keyword.  Anything ambiguous is listed with its reason
instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst
from libcst.metadata import (
    Assignment,
    CodeRange,
    MetadataWrapper,
    ParentNodeProvider,
    PositionProvider,
    Scope,
    ScopeProvider,
)

from proxy_types import _table

from ..check import ARG_TYPE_CODE, Finding
from .model import KIND_ANNOTATION, Build, Plan

NUMBER_LIKE = "NumberLike"
STATIC_BUILTINS = frozenset({"int", "float", "complex"})
STATIC_ABCS = frozenset(name.rpartition(".")[2] for name in _table.STATIC_ABC_TYPES)
# mypy does not count these as NumberLike: the stubs do not import torch.
FOREIGN_DYNAMIC = {t.name: t.fullname for t in _table.FOREIGN_DYNAMIC_TYPES}
TRANSPARENT_DECORATORS = frozenset({"staticmethod", "classmethod"})

ReadSource = Callable[[str], str]


@dataclass
class AnnotationFinding(Finding):
    """An ``arg-type`` finding moved to the annotation it rewrites, or left with a reason.

    Resolved: ``file``/``line``/``column`` are the annotation's, ``calls`` the
    findings of the calls that passed dynamic numbers.  Unresolved: the
    position is the call's and ``reason`` says why.
    """

    reason: str | None = None
    calls: tuple[Finding, ...] = ()  # the call-site findings, as mypy reported them
    parameter: str = ""

    @property
    def call_files(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(call.file for call in self.calls))


@dataclass(frozen=True)
class ArgTypeMessage:
    """What mypy's ``arg-type`` error is about, from the plugin's record of the call."""

    keyword: str | None
    number: int | None
    function: str
    cls: str | None
    dynamic: tuple[str, ...]  # the dynamic classes among the passed type's parts


def passed_dynamic_number(finding: Finding) -> ArgTypeMessage | None:
    """The call an ``arg-type`` error is about, if it passes a dynamic number to a static
    parameter (the plugin recorded it as ``finding.passed``)."""
    passed = finding.passed
    if finding.code != ARG_TYPE_CODE or finding.severity != "error" or passed is None:
        return None
    return ArgTypeMessage(passed.keyword, None if passed.keyword else passed.number,
                          passed.function, passed.cls, passed.dynamic)


# -- parsed files --------------------------------------------------------------


@dataclass
class ParsedFile:
    path: str
    module: cst.Module
    positions: dict[cst.CSTNode, CodeRange]
    parents: dict[cst.CSTNode, cst.CSTNode]
    scopes: dict[cst.CSTNode, Scope | None]
    by_start: dict[tuple[int, int], list[cst.CSTNode]] = field(default_factory=dict)

    def span(self, node: cst.CSTNode) -> tuple[int, int, int, int]:
        start, end = self.positions[node].start, self.positions[node].end
        return (start.line, start.column, end.line, end.column)


class Resolver:
    """Resolves call sites to parameter annotations among the checked files."""

    def __init__(self, checked_files: Iterable[str], read: ReadSource) -> None:
        self.checked = sorted({Path(p).as_posix() for p in checked_files})
        self.read = read
        self.parsed: dict[str, ParsedFile | None] = {}

    def parse(self, path: str) -> ParsedFile | None:
        if path not in self.parsed:
            try:
                module = cst.parse_module(self.read(path))
            except Exception:  # unreadable or a syntax error: nothing resolves there
                self.parsed[path] = None
                return None
            wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
            positions = dict(wrapper.resolve(PositionProvider))
            parsed = ParsedFile(path, module, positions,
                                dict(wrapper.resolve(ParentNodeProvider)),
                                dict(wrapper.resolve(ScopeProvider)))
            for node, where in positions.items():
                parsed.by_start.setdefault(
                    (where.start.line, where.start.column), []).append(node)
            self.parsed[path] = parsed
        return self.parsed[path]

    def module_file(self, dotted: str, importer: str, level: int) -> str | None:
        """The checked file of module ``dotted`` (relative to ``importer`` if ``level``)."""
        if level:
            base = Path(importer).parent
            for _ in range(level - 1):
                base = base.parent
            stem = base.joinpath(*dotted.split(".")) if dotted else base
            wanted = {stem.with_suffix(".py").as_posix(), (stem / "__init__.py").as_posix()}
            found = [p for p in self.checked if Path(p).as_posix() in wanted]
        else:
            found = [p for p in self.checked if module_matches(p, dotted)]
        return found[0] if len(found) == 1 else None

    # -- resolving one finding -----------------------------------------------

    def resolve(self, finding: Finding, message: ArgTypeMessage) -> AnnotationFinding:
        """The annotation to rewrite for ``finding``, or the finding with a reason."""
        try:
            return self._resolve(finding, message)
        except Unresolved as problem:
            return unresolved(finding, str(problem))
        except Exception as error:  # a bug of ours: list the finding, fix the others
            return unresolved(finding, f"internal error while resolving the callee "
                                       f"({type(error).__name__}: {' '.join(str(error).split())})")

    def _resolve(self, finding: Finding, message: ArgTypeMessage) -> AnnotationFinding:
        foreign = [FOREIGN_DYNAMIC[name] for name in message.dynamic if name in FOREIGN_DYNAMIC]
        if foreign:
            raise Unresolved(
                f'mypy does not count "{foreign[0]}" as NumberLike (the stubs do not import '
                f"torch); annotate the parameter by hand, e.g. int | {foreign[0]}"
            )
        caller = self.parse(finding.file)
        if caller is None:
            raise Unresolved("the calling file could not be parsed")
        call, argument = find_argument(caller, finding)
        position = check_argument(call, argument, message)
        target_file, function, bound = self.callee(caller, call, message)
        parameter = find_parameter(function, position, argument, bound)
        annotation = parameter.annotation
        if annotation is None:
            raise Unresolved(f'parameter "{parameter_name(parameter)}" has no annotation')
        target = self.parse(target_file)
        assert target is not None
        problem = static_annotation_problem(annotation.annotation, number_abc_names(target.module))
        if problem:
            raise Unresolved(f'parameter "{parameter_name(parameter)}": {problem}')
        line, column, end_line, end_column = target.span(annotation.annotation)
        return AnnotationFinding(
            file=target_file, line=line, column=column + 1, end_line=end_line,
            end_column=end_column + 1, severity="error", code=ARG_TYPE_CODE,
            message=finding.message, calls=(finding,),
            parameter=parameter_name(parameter),
        )

    def callee(self, caller: ParsedFile, call: cst.Call, message: ArgTypeMessage
               ) -> tuple[str, cst.FunctionDef, bool]:
        """(file, definition, whether the first parameter is bound) of the called function."""
        func = call.func
        if isinstance(func, cst.Name):
            path, definition = self.lookup(caller, func, func.value)
            if isinstance(definition, cst.ClassDef):
                if message.function != definition.name.value or message.cls is not None:
                    raise Unresolved("mypy names another callee than the source")
                init = method_of(definition, "__init__")
                if init.decorators:
                    raise Unresolved("__init__ is decorated; its signature may differ")
                return path, init, True
            return path, self.checked_function(definition, message, None), False
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            owner = func.value.value
            if owner in ("self", "cls"):
                cls = enclosing_class(caller, call)
                if cls is None or message.cls is None:
                    raise Unresolved("the method's class could not be found")
                if cls.name.value != message.cls:  # inherited: mypy names the base class
                    return self.method_by_class(caller, func.attr.value, message)
                method = method_of(cls, func.attr.value)
                bound = not any(is_decorator(d, "staticmethod") for d in method.decorators)
                return caller.path, self.checked_function(method, message, message.cls), bound
            try:
                path, definition = self.lookup(caller, func.value, owner)
            except Unresolved:
                if message.cls is None:
                    raise
                return self.method_by_class(caller, func.attr.value, message)  # obj.method()
            if isinstance(definition, cst.Module):  # module.function(...)
                found = module_level(definition, func.attr.value)
                if not isinstance(found, cst.FunctionDef):
                    raise Unresolved(f'"{owner}.{func.attr.value}" is not a function there')
                return path, self.checked_function(found, message, None), False
            if isinstance(definition, cst.ClassDef) and definition.name.value == message.cls:
                method = method_of(definition, func.attr.value)  # Class.method(...)
                bound = any(is_decorator(d, "classmethod") for d in method.decorators)
                return path, self.checked_function(method, message, message.cls), bound
        if message.cls is not None and isinstance(func, cst.Attribute):
            return self.method_by_class(caller, func.attr.value, message)
        raise Unresolved("the callee is not a name, a method or a module function")

    def method_by_class(self, caller: ParsedFile, name: str, message: ArgTypeMessage
                        ) -> tuple[str, cst.FunctionDef, bool]:
        """``obj.method(...)``: the class mypy names, defined in or imported into the caller."""
        assert message.cls is not None
        found = module_level(caller.module, message.cls)
        path = caller.path
        if isinstance(found, cst.ImportFrom):
            path, found = self.imported(caller, found, message.cls)
        if not isinstance(found, cst.ClassDef):
            raise Unresolved(
                f'class "{message.cls}" is neither defined in nor imported by name into '
                "this module; cannot tell which one mypy means"
            )
        method = method_of(found, name)
        bound = not any(is_decorator(d, "staticmethod") for d in method.decorators)
        return path, self.checked_function(method, message, message.cls), bound

    def checked_function(self, definition: cst.CSTNode, message: ArgTypeMessage,
                         cls: str | None) -> cst.FunctionDef:
        if not isinstance(definition, cst.FunctionDef):
            raise Unresolved("the callee is not a function defined in the checked files")
        if definition.name.value != message.function:
            raise Unresolved("mypy names another callee than the source")
        for decorator in definition.decorators:
            if not any(is_decorator(decorator, name) for name in TRANSPARENT_DECORATORS):
                raise Unresolved("the callee is decorated; its signature may differ")
        return definition

    def lookup(self, parsed: ParsedFile, node: cst.CSTNode, name: str
               ) -> tuple[str, cst.CSTNode]:
        """The definition ``name`` refers to at ``node``: a def, a class or a module."""
        scope = parsed.scopes.get(node)
        assignments = list(scope[name]) if scope is not None and name in scope else []
        if len(assignments) != 1 or not isinstance(assignments[0], Assignment):
            raise Unresolved(f'"{name}" is bound {len(assignments)} times here; ambiguous')
        bound = assignments[0].node
        if isinstance(bound, (cst.FunctionDef, cst.ClassDef)):
            return parsed.path, bound
        if isinstance(bound, cst.ImportFrom):
            return self.imported(parsed, bound, name)
        if isinstance(bound, cst.Import):
            for alias in bound.names:
                dotted = cst.helpers.get_full_name_for_node(alias.name) or ""
                if (alias.asname is None and dotted == name) or (
                        alias.asname is not None
                        and isinstance(alias.asname.name, cst.Name)
                        and alias.asname.name.value == name):
                    path = self.module_file(dotted, parsed.path, 0)
                    target = self.parse(path) if path else None
                    if path is None or target is None:
                        raise Unresolved(f'module "{dotted}" is not among the checked files')
                    return path, target.module
        raise Unresolved(f'"{name}" is not a function or class defined in the checked files')

    def imported(self, parsed: ParsedFile, statement: cst.ImportFrom, name: str
                 ) -> tuple[str, cst.CSTNode]:
        """Follow ``from module import original as name`` into the checked file."""
        if isinstance(statement.names, cst.ImportStar):
            raise Unresolved(f'"{name}" comes from a star import')
        original = name
        for alias in statement.names:
            shown = alias.asname.name if alias.asname else alias.name
            if isinstance(shown, cst.Name) and shown.value == name:
                original = cst.helpers.get_full_name_for_node(alias.name) or name
        dotted = cst.helpers.get_full_name_for_node(statement.module) if statement.module else ""
        path = self.module_file(dotted or "", parsed.path, len(statement.relative))
        target = self.parse(path) if path else None
        if path is None or target is None:
            raise Unresolved(f'"{name}" is imported from a module that is not checked here')
        found = module_level(target.module, original)
        if found is None:
            raise Unresolved(f'"{original}" is not defined once at module level in {path}')
        if isinstance(found, cst.ImportFrom):
            raise Unresolved(f'"{original}" is re-exported by {path}; fix its definition by hand')
        return path, found


class Unresolved(Exception):
    """Why a finding's annotation cannot be rewritten (internal to this module)."""


def unresolved(finding: Finding, reason: str) -> AnnotationFinding:
    return AnnotationFinding(
        file=finding.file, line=finding.line, column=finding.column,
        end_line=finding.end_line, end_column=finding.end_column, severity=finding.severity,
        code=finding.code, message=finding.message, hint=finding.hint, reason=reason,
    )


def module_matches(path: str, dotted: str) -> bool:
    parts = list(Path(path).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    name = ".".join(parts)
    return name == dotted or name.endswith("." + dotted)


def module_level(module: cst.Module, name: str) -> cst.CSTNode | None:
    """The one module-level def, class or from-import binding ``name``; None if not one."""
    found: list[cst.CSTNode] = []
    for statement in module.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) and statement.name.value == name:
            found.append(statement)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        shown = alias.asname.name if alias.asname else alias.name
                        if isinstance(shown, cst.Name) and shown.value == name:
                            found.append(small)
                elif isinstance(small, (cst.Assign, cst.AnnAssign)) and name in {
                    t.value for t in assigned_names(small)}:
                    found.append(small)
    return found[0] if len(found) == 1 else None


def assigned_names(statement: cst.Assign | cst.AnnAssign) -> list[cst.Name]:
    targets = [t.target for t in statement.targets] if isinstance(statement, cst.Assign) \
        else [statement.target]
    return [t for t in targets if isinstance(t, cst.Name)]


def method_of(cls: cst.ClassDef, name: str) -> cst.FunctionDef:
    """The one method ``name`` defined in the body of ``cls`` (not inherited)."""
    found = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
    if len(found) != 1:
        what = "not defined in" if not found else "defined more than once in"
        raise Unresolved(f'"{name}" is {what} class "{cls.name.value}" itself')
    return found[0]


def is_decorator(decorator: cst.Decorator, name: str) -> bool:
    return isinstance(decorator.decorator, cst.Name) and decorator.decorator.value == name


def enclosing_class(parsed: ParsedFile, node: cst.CSTNode) -> cst.ClassDef | None:
    """The class whose method contains ``node``."""
    current = parsed.parents.get(node)
    while current is not None and not isinstance(current, cst.FunctionDef):
        current = parsed.parents.get(current)
    while current is not None and not isinstance(current, cst.ClassDef):
        current = parsed.parents.get(current)
    return current


def find_argument(parsed: ParsedFile, finding: Finding) -> tuple[cst.Call, cst.Arg]:
    """The call and argument at the finding's position."""
    start = (finding.line, finding.column - 1)
    for node in parsed.by_start.get(start, []):
        parent = parsed.parents.get(node)
        if isinstance(parent, cst.Arg) and parent.value is node:
            call = parsed.parents.get(parent)
            if isinstance(call, cst.Call):
                return call, parent
    raise Unresolved("the reported argument could not be matched in the source")


def check_argument(call: cst.Call, argument: cst.Arg, message: ArgTypeMessage) -> int | None:
    """The argument's position (None for a keyword), checked against mypy's message."""
    if argument.star:
        raise Unresolved("the argument is unpacked with * or **")
    if argument.keyword is not None:
        if message.keyword != argument.keyword.value:
            raise Unresolved("mypy names another argument than the source")
        return None
    before = call.args[: call.args.index(argument)]
    if any(a.star for a in before):
        raise Unresolved("an unpacked argument comes first; cannot tell the parameter")
    if message.number != len(before) + 1:
        raise Unresolved("mypy names another argument than the source")
    return len(before)


def find_parameter(function: cst.FunctionDef, position: int | None, argument: cst.Arg,
                   bound: bool) -> cst.Param:
    """The parameter receiving ``argument`` (``bound``: the first one is self or cls)."""
    params = function.params
    positional = [*params.posonly_params, *params.params]
    if bound:
        positional = positional[1:]
    if position is not None:
        if position < len(positional):
            return positional[position]
        if isinstance(params.star_arg, cst.Param):
            return params.star_arg
        raise Unresolved("no parameter takes this argument")
    assert argument.keyword is not None
    name = argument.keyword.value
    for param in [*params.params, *params.kwonly_params]:
        if param.name.value == name:
            return param
    if params.star_kwarg is not None:
        return params.star_kwarg
    raise Unresolved(f'no parameter "{name}"')


def parameter_name(parameter: cst.Param) -> str:
    return parameter.name.value


def number_abc_names(module: cst.Module) -> frozenset[str]:
    """Names the module imports from ``numbers`` unaliased (``from numbers import Real``)."""
    names: set[str] = set()
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if (isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name)
                        and small.module.value == "numbers" and not small.relative
                        and not isinstance(small.names, cst.ImportStar)):
                    names.update(a.name.value for a in small.names
                                 if isinstance(a.name, cst.Name) and a.asname is None)
    return frozenset(names & STATIC_ABCS)


# -- the annotation itself -------------------------------------------------------


def union_members(expression: cst.BaseExpression) -> tuple[str, list[cst.BaseExpression]] | None:
    """("|" or "Union" or "Optional", members) of a union annotation; None otherwise."""
    if isinstance(expression, cst.BinaryOperation) and isinstance(expression.operator, cst.BitOr):
        members: list[cst.BaseExpression] = []
        for side in (expression.left, expression.right):
            inner = union_members(side)
            members += inner[1] if inner and inner[0] == "|" else [side]
        return "|", members
    if isinstance(expression, cst.Subscript):
        name = cst.helpers.get_full_name_for_node(expression.value) or ""
        kind = name.rpartition(".")[2]
        indexes = [e.slice for e in expression.slice]
        if kind in ("Union", "Optional"):
            members = [i.value for i in indexes if isinstance(i, cst.Index)]
            return (kind, members) if len(members) == len(indexes) else None
    return None


def is_static_member(expression: cst.BaseExpression, abc_names: frozenset[str]) -> bool:
    if isinstance(expression, cst.Name):
        return expression.value in STATIC_BUILTINS or expression.value in abc_names
    return (isinstance(expression, cst.Attribute) and isinstance(expression.value, cst.Name)
            and expression.value.value == "numbers" and expression.attr.value in STATIC_ABCS)


def flat_members(expression: cst.BaseExpression) -> list[cst.BaseExpression]:
    union = union_members(expression)
    if union is None:
        return [expression]
    return [m for member in union[1] for m in flat_members(member)]


def static_annotation_problem(expression: cst.BaseExpression,
                              abc_names: frozenset[str]) -> str | None:
    """Why the annotation is not one of static number types (in a union); None if it is."""
    if isinstance(expression, (cst.SimpleString, cst.ConcatenatedString)):
        return "a string annotation; rewrite it by hand"
    members = flat_members(expression)
    if any(isinstance(m, cst.Name) and m.value == NUMBER_LIKE for m in members):
        return "already NumberLike; mypy's error has another cause"
    if not any(is_static_member(m, abc_names) for m in members):
        return "its annotation is not a static number type"
    return None


def number_like_annotation(expression: cst.BaseExpression,
                           abc_names: frozenset[str]) -> cst.BaseExpression:
    """``float`` -> ``NumberLike``; ``Optional[float]`` -> ``Optional[NumberLike]``;
    ``int | float | None`` -> ``NumberLike | None``: the first static member becomes
    NumberLike, the other static members go, everything else stays."""
    if is_static_member(expression, abc_names):
        return cst.Name(NUMBER_LIKE, lpar=expression.lpar, rpar=expression.rpar)
    union = union_members(expression)
    assert union is not None
    kind, members = union
    kept: list[cst.BaseExpression] = []
    replaced = False
    for member in members:
        inner = union_members(member)
        if inner is not None and any(is_static_member(m, abc_names) for m in flat_members(member)):
            member = number_like_annotation(member, abc_names)
        if is_static_member(member, abc_names) or (
                isinstance(member, cst.Name) and member.value == NUMBER_LIKE):
            if replaced:
                continue
            member, replaced = cst.Name(NUMBER_LIKE), True
        kept.append(member)
    if len(kept) == 1 and kind != "Optional":
        return kept[0].with_changes(lpar=expression.lpar, rpar=expression.rpar) \
            if isinstance(kept[0], cst.Name) else kept[0]
    if kind == "|":
        result = kept[0]
        for member in kept[1:]:
            result = cst.BinaryOperation(
                result, cst.BitOr(whitespace_before=cst.SimpleWhitespace(" "),
                                  whitespace_after=cst.SimpleWhitespace(" ")), member)
        return result.with_changes(lpar=expression.lpar, rpar=expression.rpar)
    assert isinstance(expression, cst.Subscript)
    elements = [
        cst.SubscriptElement(cst.Index(member), comma=cst.Comma(
            whitespace_after=cst.SimpleWhitespace(" ")) if index < len(kept) - 1
            else cst.MaybeSentinel.DEFAULT)
        for index, member in enumerate(kept)
    ]
    return expression.with_changes(slice=elements)


def plan_annotation(finding: AnnotationFinding, candidates: Sequence[cst.CSTNode],
                    parents: Mapping[cst.CSTNode, cst.CSTNode], abc_names: frozenset[str]
                    ) -> Plan | str:
    """The rewrite of a resolved annotation into NumberLike, or why there is none."""
    if finding.reason is not None:
        return finding.reason
    annotation = next((n for n in candidates if isinstance(n, cst.BaseExpression)
                       and isinstance(parents.get(n), cst.Annotation)), None)
    if annotation is None:
        return "the parameter's annotation could not be matched in the source"
    assert isinstance(annotation, cst.BaseExpression)
    problem = static_annotation_problem(annotation, abc_names)
    if problem is not None:
        return f'parameter "{finding.parameter}": {problem}'

    def build(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.BaseExpression)
        return number_like_annotation(updated, abc_names)

    return annotation, Build(KIND_ANNOTATION, (NUMBER_LIKE,), build)


def annotation_findings(findings: Sequence[Finding], checked_files: Iterable[str],
                        read: ReadSource) -> list[Finding]:
    """Every ``arg-type`` finding of a dynamic number: moved to its annotation or with a reason.

    Findings that reach the same annotation are merged into one.
    """
    resolver = Resolver(checked_files, read)
    merged: dict[tuple[str, int, int], AnnotationFinding] = {}
    result: list[Finding] = []
    for finding in findings:
        message = passed_dynamic_number(finding)
        if message is None:
            continue
        if finding.passed is not None and finding.passed.unsupported is not None:
            result.append(unresolved(finding, finding.passed.unsupported))
            continue
        resolved = resolver.resolve(finding, message)
        if resolved.reason is not None:
            result.append(resolved)
            continue
        key = (resolved.file, resolved.line, resolved.column)
        earlier = merged.get(key)
        if earlier is None:
            merged[key] = resolved
            result.append(resolved)
        else:
            earlier.calls += (finding,)
    return result

