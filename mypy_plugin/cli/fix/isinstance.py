"""``proxy-isinstance`` rewrites: a check against static classes becomes a guard.

Checks that cover every real number (``Number``, ``(int, float)``) ask "is it a
constant?" and become ``is_static_number(x)``; checks for one kind
(``numbers.Integral``, ``int``) ask "is it a number of this kind?" and become
``external_isinstance(x, ...)``, which counts a ``SymInt`` as an ``int``.  In
migration mode every check keeps accepting the legacy proxies.

What the check is about comes from the plugin's report (its kind, the
function, the classes, the dynamic class), never from its message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import libcst as cst

from proxy_types import _table

from ... import findings
from ..check import Finding
from .model import (
    KIND_EXTERNAL,
    KIND_NUMBER_CLASSES,
    KIND_NUMBER_GUARD,
    KIND_STATIC_GUARD,
    LEGACY,
    UNTYPED,
    Build,
    DynamicClass,
    Options,
    Plan,
)

BUILTIN_KINDS = ("int", "float", "complex")
ISINSTANCE_KINDS = (findings.ISINSTANCE, findings.ISINSTANCE_LEGACY_BASE,
                    findings.ISINSTANCE_MAYBE_LEGACY)
# Reports about a value that is (or may be) a legacy proxy, whatever its shown class.
LEGACY_KINDS = (findings.ISINSTANCE_LEGACY_BASE, findings.ISINSTANCE_MAYBE_LEGACY)


def covered_kinds(static_names: Iterable[str]) -> set[str]:
    """The builtin number types every instance of which passes the check."""
    names = set(static_names)
    return {kind for kind, classes in _table.STATIC_CLASSES_OF.items() if names & set(classes)}


def wants_static_only(static_names: Sequence[str], legacy: bool, options: Options) -> bool:
    """True if the check asks "is this a constant?" rather than "is this a number?".

    A check that lets every real number through (``Number``, ``Real``,
    ``(int, float)``) separates numbers known now from everything else: the
    baked-constant question.  A check for one kind (``Integral``, ``int``) sorts
    values by shape, as LayerNorm does, and a dynamic integer is still an integer.
    """
    if options.intent != "auto":
        return options.intent == "static"
    if legacy or options.migration:
        return False  # legacy proxies pass such checks at runtime; keep accepting them
    return {"int", "float"} <= covered_kinds(static_names)


def plan_isinstance(finding: Finding, candidates: Sequence[cst.CSTNode],
                    dynamic: DynamicClass, options: Options) -> Plan | str:
    """The rewrite of a reported isinstance call, or why there is none."""
    report = finding.report
    assert report is not None and report.kind in ISINSTANCE_KINDS
    call = next((n for n in candidates if isinstance(n, cst.Call)), None)
    if call is None or len(call.args) != 2 or any(
        a.star or a.keyword is not None for a in call.args
    ):
        return "the reported call could not be matched in the source"
    function = report.operation
    if not (isinstance(call.func, cst.Name) and call.func.value == function
            and function in ("isinstance", "issubclass")):
        return "an isinstance wrapper: add DynamicNumber to its classes by hand"
    if function == "issubclass":
        return "issubclass() has no guard form; add DynamicNumber by hand"
    legacy = report.kind in LEGACY_KINDS or dynamic.kind == LEGACY
    static_only = wants_static_only(report.classes, legacy, options)
    refusal = runtime_refusal(dynamic, legacy, static_only)
    if refusal is not None:
        return refusal
    build = isinstance_rewrite(call, report.classes, static_only, options.style)
    return build if isinstance(build, str) else (call, build)


def runtime_refusal(dynamic: DynamicClass, legacy: bool, static_only: bool) -> str | None:
    """Why no rewrite is correct at run time for this dynamic class, or None.

    The guards know a dynamic number by proxy_types' classes, torch's Sym types
    and registered classes.  An unregistered legacy proxy subclasses ``float``:
    ``is_static_number`` calls it static, so a static-only rewrite keeps the
    misclassification (a number-or-dynamic rewrite accepts it, as the check did).
    An unregistered configured class is no number to the guards at all.
    """
    if dynamic.known_at_run_time:
        return None
    if legacy and not static_only:
        return None
    if dynamic.name in UNTYPED:
        return (f'the value is typed "{dynamic.name}" (strict_isinstance): '
                f"{dynamic.registration_step()}")
    what = "a legacy proxy (it subclasses a builtin number)" if legacy else (
        "not known to proxy_types at run time")
    return (f'"{dynamic.name}" is {what}, so the guard would misclassify it as the check '
            f"does; {dynamic.registration_step()}")


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


def has_side_effects(node: cst.CSTNode) -> bool:
    """True if evaluating ``node`` twice could differ from evaluating it once."""
    pending: list[cst.CSTNode] = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, (cst.Call, cst.Await, cst.Yield, cst.NamedExpr, cst.Lambda)):
            return True
        pending.extend(current.children)
    return False


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
        result = cst.BooleanOperation(result, op, grouped(part))
    return result


def isinstance_rewrite(node: cst.Call, static_names: Sequence[str], static_only: bool,
                       style: str) -> Build | str:
    """The replacement of one reported isinstance call, or why there is none."""
    subject = node.args[0].value
    split = split_classes(node.args[1].value, static_names)
    full = set(BUILTIN_KINDS) <= covered_kinds(static_names)
    if not static_only and not full:
        # One kind (Integral, int): a dynamic number of another kind must not pass,
        # and only external_isinstance() knows the kind a dynamic number stands for.
        return Build(KIND_EXTERNAL, ("external_isinstance",), rename_call("external_isinstance"))
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
        return Build(KIND_STATIC_GUARD, ("is_static_number",), build)
    return Build(KIND_NUMBER_GUARD, ("is_static_number", "is_dynamic_number"), build)


def rename_call(name: str) -> Callable[[cst.CSTNode], cst.CSTNode]:
    def build(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Call)
        return updated.with_changes(func=cst.Name(name))

    return build


def classes_rewrite(
    split: tuple[list[cst.BaseExpression], list[cst.BaseExpression]] | None
) -> Build:
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

    return Build(KIND_NUMBER_CLASSES, (added,), build)
