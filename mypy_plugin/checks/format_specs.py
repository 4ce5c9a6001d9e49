"""A dynamic number formatted: with a format spec (``f"{p:.2f}"``, ``"{:d}".format(p)``)
or, for torch's Sym types, without one (``f"{n}"``, ``"{}".format(n)``).

A spec makes ``__format__`` produce the value's digits, which every kind of
dynamic class refuses or bakes in; an empty spec (``f"{p}"``) only names the
proxy, and names a SymInt's symbol under some tracers, while others specialize on that
text (``proxy_types/_table.py``; the report names those).  No hook sees an f-string:
mypy's parser turns each replacement field into ``"{:{}}".format(value, spec)``
(``"{!r:{}}"`` with a conversion), so this check reads every literal
``str.format`` call, and tells an f-string by that template.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from string import Formatter
from typing import NamedTuple, Optional, Union

from mypy.nodes import ARG_NAMED, ARG_POS, CallExpr, Expression, ListExpr, MemberExpr, StrExpr
from mypy.plugin import MethodContext

from .. import errors
from ..analysis.branches import built_only_on_failure
from ..analysis.dynamic import Asked, DynamicClasses, dynamic_in_expression
from ..config import ProxyTypesConfig
from ..constants import (
    F_STRING_OPERATION,
    FORMAT_OPERATION,
    STR_FORMAT_METHOD,
    STR_FORMAT_OPERATION,
)
from ..number_table import table as _table
from ..analysis.severity import flows_may_be_reported, may_be_reported, reported_outcome
from ..analysis.tracers import failing_tracers
from ..hooks import METHOD, Env, Hook

#: A field's argument: its position or keyword name.
ArgumentRef = Union[int, str]
#: How a spec part that is not a string literal (``f"{p:{width}}"``) is shown.
UNKNOWN_SPEC = "{...}"


class SpecPart(NamedTuple):
    """Literal text of a format spec, or a field nested in it (``{}`` in ``{:{}}``)."""

    text: str = ""
    argument: Optional[ArgumentRef] = None
    nested: bool = False  # False: literal text; True: a nested field (argument None: unknown)


class Field(NamedTuple):
    """A replacement field that formats an argument itself (no ``.attr``, ``[i]``)."""

    argument: ArgumentRef
    spec: tuple[SpecPart, ...]
    converted: bool = False  # ``!r``/``!s``/``!a``: the text of the argument is formatted


#: The templates of mypy's translation of an f-string's fields.
F_STRING_TEMPLATES = frozenset({"{:{}}", "{!r:{}}", "{!s:{}}", "{!a:{}}"})


def formatted_fields(template: str) -> tuple[Field, ...]:
    """The fields of ``template`` that format an argument (its ``__format__``, or its
    text with a conversion, ``converted``).

    Automatic numbering counts every field, nested ones after their outer one,
    as ``str.format`` does.  A template ``str.format`` rejects gives no fields.
    """
    counter = iter(range(len(template) + 1))
    found: list[Field] = []
    try:
        for _, name, spec, conversion in Formatter().parse(template):
            if name is None:
                continue
            argument = _argument(name, counter)
            parts = tuple(_spec_parts(spec or "", counter))
            if argument is not None:
                found.append(Field(argument, parts, conversion is not None))
    except ValueError:
        return ()
    return tuple(found)


def _argument(name: str, counter: Iterator[int]) -> ArgumentRef | None:
    """The argument ``name`` refers to; None when it formats a part of one (``0.real``)."""
    first = name.split(".", 1)[0].split("[", 1)[0]
    argument: ArgumentRef = next(counter) if first == "" else (
        int(first) if first.isdigit() else first)
    return None if first != name else argument


def _spec_parts(spec: str, counter: Iterator[int]) -> Iterator[SpecPart]:
    for literal, name, _, _ in Formatter().parse(spec):
        if literal:
            yield SpecPart(literal)
        if name is not None:
            yield SpecPart(argument=_argument(name, counter), nested=True)


def spec_text(
    parts: tuple[SpecPart, ...], lookup: Callable[[ArgumentRef], Expression | None]
) -> str:
    """The spec as it will be: nested string literals filled in, anything else ``{...}``."""
    text = ""
    for part in parts:
        if not part.nested:
            text += part.text
            continue
        expr = lookup(part.argument) if part.argument is not None else None
        text += literal_text(expr) if expr is not None else UNKNOWN_SPEC
    return text


def literal_text(expr: Expression) -> str:
    """The text ``expr`` evaluates to, as far as it is written out; else ``{...}``.

    An f-string spec reaches ``format`` as mypy's translation of a nested
    f-string: ``f"{x:>{w}}"`` passes ``"".join([">", "{:{}}".format(w, "")])``.
    """
    if isinstance(expr, StrExpr):
        return expr.value
    if not (isinstance(expr, CallExpr) and isinstance(expr.callee, MemberExpr)
            and isinstance(expr.callee.expr, StrExpr)):
        return UNKNOWN_SPEC
    template, method = expr.callee.expr.value, expr.callee.name
    if method == "join" and template == "" and len(expr.args) == 1 and isinstance(
            expr.args[0], ListExpr):
        return "".join(literal_text(item) for item in expr.args[0].items)
    if method == "format" and all(kind == ARG_POS and isinstance(arg, StrExpr)
                                  for arg, kind in zip(expr.args, expr.arg_kinds)):
        try:
            return template.format(*(arg.value for arg in expr.args if isinstance(arg, StrExpr)))
        except (ValueError, IndexError, KeyError):
            return UNKNOWN_SPEC
    return UNKNOWN_SPEC


def _only_empty_specs(call: CallExpr, fields: list[Field]) -> bool:
    """The common f-string field ``f"{x}"``: ``"{:{}}".format(x, "")``."""
    for field in fields:
        if len(field.spec) != 1 or not isinstance(field.spec[0].argument, int):
            return False
        position = field.spec[0].argument
        spec = call.args[position] if position < len(call.args) else None
        if not (isinstance(spec, StrExpr) and spec.value == ""):
            return False
    return True


def check_str_format(ctx: MethodContext, config: ProxyTypesConfig, dynamic: DynamicClasses) -> None:
    """Report arguments of a literal ``"...".format(...)`` formatted with a spec, and
    torch dynamic numbers formatted without one."""
    call = ctx.context
    if not (isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr)
            and isinstance(call.callee.expr, StrExpr)):
        return
    template = call.callee.expr.value
    text_operation = F_STRING_OPERATION if template in F_STRING_TEMPLATES else STR_FORMAT_OPERATION
    as_text = may_be_reported(ctx.api, text_operation)
    fields = [field for field in formatted_fields(template)
              if (field.spec and not field.converted) or as_text]
    if not fields or (not as_text and _only_empty_specs(call, fields)):
        return
    positional: list[Expression] = []
    keywords: dict[str, Expression] = {}
    after_star = False  # positions after *args are unknown
    for arg, kind, name in zip(call.args, call.arg_kinds, call.arg_names):
        if kind == ARG_POS and not after_star:
            positional.append(arg)
        elif kind == ARG_NAMED and name is not None:
            keywords[name] = arg
        else:
            after_star = True

    def lookup(ref: ArgumentRef) -> Expression | None:
        if isinstance(ref, int):
            return positional[ref] if ref < len(positional) else None
        return keywords.get(ref)

    for field in fields:
        value = lookup(field.argument)
        spec = spec_text(field.spec, lookup)
        if value is None:
            continue
        if spec == "" or field.converted:  # the name of a proxy, the symbol of a SymInt
            _check_text(ctx, call, value, text_operation, config, dynamic)
            continue
        found = dynamic_in_expression(ctx.api, value, dynamic)
        if found is None:
            continue
        outcome = reported_outcome(ctx.api, value, found, FORMAT_OPERATION, dynamic,
                                   format_spec=True)
        if outcome is not None:
            errors.format_spec(ctx.api, value, spec, found.name, outcome=outcome,
                               reason=found.reason)


def _check_text(ctx: MethodContext, call: CallExpr, value: Expression, operation: str,
                config: ProxyTypesConfig, dynamic: DynamicClasses) -> None:
    """Report ``value`` formatted without a spec where its kind specializes on the text."""
    follow_flows = flows_may_be_reported(ctx.api, operation, dynamic)
    found = dynamic_in_expression(ctx.api, value, dynamic, Asked(
        follow_flows=follow_flows, presumes_number=False))  # any object has text
    if found is None:
        return
    outcome = reported_outcome(ctx.api, value, found, operation, dynamic)
    if outcome is None or errors.shown_code(ctx.api, outcome) is None \
            or built_only_on_failure(ctx.api, call):
        return
    errors.formatted_text(ctx.api, value, _table.operation_spelling(operation), found.name,
                          outcome=outcome, reason=found.reason,
                          tracers=failing_tracers(operation, found, config))


#: mypy also checks every f-string replacement field as a call of ``str.format``.
HOOKS = (Hook(METHOD, names={STR_FORMAT_METHOD}),)


def check(ctx: MethodContext, env: Env) -> None:
    check_str_format(ctx, env.config, env.dynamic)
