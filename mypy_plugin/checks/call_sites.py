"""A maybe-dynamic argument passed to a parameter that reaches a sink in the callee.

Reported at the call, in the caller's module, with the path from the argument to
the sink: ``torch.nn.LayerNorm(n)`` with ``n`` a ``torch.SymInt`` reaches
``isinstance(normalized_shape, numbers.Integral)`` in torch's code, which mypy
never reports (an installed library) and the user cannot change.  The callee's
summary (:mod:`..analysis.summaries`) says which parameters reach which sinks.

A value that is dynamic by its declared type is reported wherever the call is,
except where the callee, or the function holding the sink, declares the parameter
a type that may hold a dynamic number in code that gets reports: the plugin then
reports it there, at the line to change, and a report at every call would
repeat it.
A value that is dynamic only by a flow (a tensor size under ``symbolic_shapes``,
a traced function's parameter) is reported only in code a compiler runs: reached
from an entry point (:mod:`..analysis.entry_points`) or named by
``traced_functions``.  A constructor's ``x.shape[-1]`` is then left alone.
"""

from __future__ import annotations

from collections.abc import Mapping

from typing import Optional

from mypy.nodes import (
    ARG_NAMED,
    ARG_OPT,
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    ArgKind,
    CallExpr,
    Decorator,
    Expression,
    FuncDef,
    IndexExpr,
    IntExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    SliceExpr,
    TypeInfo,
    UnaryExpr,
)
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.types import CallableType, Instance, get_proper_type

from .. import _mypy_compat as compat
from .. import errors
from ..analysis.classes import isinstance_functions
from ..analysis.cross_call import (
    TRACED_ONLY_SOURCES,
    call_site_env,
    in_python_source,
    in_traced_code,
)
from ..analysis.dynamic import DynamicClasses, dynamic_in_expression, dynamic_items
from ..analysis.kinds import Dynamic
from ..analysis.legacy import may_hide_legacy_proxy
from ..analysis.severity import reported_outcome, value_read_outcome
from ..analysis.shown_paths import location_path, shown_path
from ..analysis.sources_sinks import ISINSTANCE, SINK_KINDS
from ..analysis.returns import function_node, positional_names
from ..analysis.summaries import SinkPath, Target, module_of, target_of
from ..analysis.tracers import failing_tracers
from ..codes import PROXY_ISINSTANCE
from ..constants import HASH_OPERATION
from ..config import is_installed_library
from ..gate import Verdict
from ..hooks import FUNCTION, METHOD, Env, Hook

def target_for(fullname: str, modules: Mapping[str, MypyFile] | None) -> Target | None:
    """The function with Python source that a hook's ``fullname`` calls, or None.

    ``fullname`` is a function, a class (its constructor) or ``Class.method`` as
    the receiver's type names it (the method may be inherited).
    """
    if not modules:
        return None
    module = module_of(fullname, modules)
    if module is None:
        return None
    parts = fullname[len(module) + 1:].split(".")
    symbol = modules[module].names.get(parts[0])
    node: object = symbol.node if symbol is not None else None
    for part in parts[1:]:
        if not isinstance(node, TypeInfo):
            return None
        node = node.get_method(part) if part not in node.names else node.names[part].node
    return target_of(node, modules)


def _targets(env: Env) -> dict[str, Target | None]:
    """The callee of each hooked name, worked out at its lookup (once per name)."""
    return {}


def _calls_python_source(env: Env) -> bool:
    """True for a call of a function with Python source (builtins and stubs have none),
    unless the settings name it as a helper the plugin checks as such; and for
    ``functools.partial`` and its calls, where mypy knows the function."""
    fullname = env.fullname
    if fullname in compat.PARTIAL_NAMES:
        return compat.mypy_own_hook(fullname) is not None
    modules = env.shared.build_modules()
    if not in_python_source(fullname, modules) or fullname in env.config.concretizing_functions \
            or fullname in isinstance_functions(env.config):
        return False
    target = env.state(_targets)[fullname] = target_for(fullname, modules)
    return target is not None


def _every_call(fullname: str) -> bool:
    return True


#: Calls of functions and methods with Python source, decided one name at a time.
HOOKS = (
    Hook(FUNCTION, matches=_every_call, wanted=_calls_python_source),
    Hook(METHOD, matches=_every_call, wanted=_calls_python_source),
)


#: A parameter's name and what the call passes to it: the arguments, their kinds
#: and the names they are passed by (as ``FunctionContext`` groups them).
_Group = tuple[Optional[str], list[Expression], list[ArgKind], list[Optional[str]]]


def check(ctx: FunctionContext | MethodContext, env: Env) -> None:
    """Report each maybe-dynamic argument whose parameter reaches a sink in the callee."""
    api = ctx.api
    if not isinstance(ctx.context, CallExpr):
        return
    groups: list[_Group]
    if env.fullname in compat.PARTIAL_NAMES:
        target, groups = _through_partial(ctx, ctx.context, env)
    else:
        target = env.state(_targets).get(env.fullname)
        groups = list(zip(ctx.callee_arg_names, ctx.args, ctx.arg_kinds, ctx.arg_names))
    if target is None:
        return
    sites = env.state(call_site_env)
    modules = compat.checker_modules(api)
    summary = sites.summaries.summary(target, modules)
    if not summary:
        return
    chain = compat.enclosing_functions(api)
    if chain and sites.entry_points.untraced_at(chain[-1], ctx.context.line):
        return  # eager-only code: `if not torch.compiler.is_compiling():`
    traced: bool | None = None  # worked out at the first flow-sourced argument
    source_names: list[str] | None = None  # read at the first positional-only parameter
    spread: set[int] = set()  # f(*x.shape): one report for every parameter it fills
    spread_from: dict[int, int] = {}  # f(*x.shape): the first parameter it fills
    for index, (name, actuals, kinds, keywords) in enumerate(groups):
        if name is None and env.fullname not in compat.PARTIAL_NAMES:
            # mypy names no positional-only parameter (``def f(value, /)``): the
            # callee's source does, at the same position.
            if source_names is None:
                source_names = positional_names(sites.summaries, target, modules)
            name = source_names[index] if index < len(source_names) else None
        if name is None:
            continue
        for position, actual in enumerate(actuals):
            kind = kinds[position]
            first = spread_from.setdefault(id(actual), index) if kind == ARG_STAR else index
            path = summary.get(name)
            forwarded = path is None
            if forwarded and kind == ARG_POS:
                path = summary.get(f"*{name}[{position}]")  # passed on by f(*args)
            elif forwarded and kind == ARG_NAMED:
                path = summary.get(f"**{name}[{keywords[position]}]")
            elif forwarded and kind == ARG_STAR:
                # f(*x.shape) into f(*args): which item lands where is not known
                path = next((found for key, found in summary.items()
                             if key.startswith(f"*{name}[")), None)
            if kind == ARG_STAR and not forwarded:
                # mypy gives f(*x.shape) every positional parameter from here on; a
                # slice fills only as many as it has (nn.Linear(*x.shape[-2:]) leaves
                # bias=True), a whole shape of unknown rank may fill them all
                length = _spread_length(actual)
                if length is not None and index - first >= length:
                    continue
            if path is None or any(
                    _reported_where_it_is(function, parameter, modules, sites.dynamic, env,
                                          path.kind == ISINSTANCE)
                    for function, parameter in ((target.fullname, name),
                                                (path.function, path.parameter))):
                continue  # no sink, or the callee or the sink's function reports it itself
            if kind == ARG_STAR and id(actual) in spread:
                continue
            found = dynamic_items(api, actual, sites.dynamic) if kind == ARG_STAR \
                else dynamic_in_expression(api, actual, sites.dynamic)
            if found is None:
                continue
            if found.reason.source in TRACED_ONLY_SOURCES:
                if traced is None:
                    traced = in_traced_code(ctx, sites)
                if not traced:
                    continue
            code = _code_at_sink(api, actual, found, path.kind, sites.dynamic)
            if code is None:
                continue
            shown = f"*{_spelled(actual) or '...'}" if kind == ARG_STAR \
                else _argument_shown(actual, name)
            operation = SINK_KINDS[path.kind].table_operation
            errors.call_reaches_sink(api, actual, _callee_shown(target), shown, found.name, code,
                                     _path_data(path, modules), reason=found.reason,
                                     tracers=failing_tracers(operation, found, env.config))
            if kind == ARG_STAR:
                spread.add(id(actual))
            if not forwarded:
                break  # one report per parameter


def _code_at_sink(api: CheckerPluginInterface, actual: Expression, found: Dynamic, kind: str,
                  dynamic: DynamicClasses) -> str | None:
    """The report's code: what the sink's operation does to the argument's kind."""
    if kind == ISINSTANCE:
        return PROXY_ISINSTANCE.code
    operation = SINK_KINDS[kind].table_operation
    if operation == HASH_OPERATION:  # the table knows hashing per number type
        outcome = reported_outcome(api, actual, found, operation, dynamic)
        return errors.code_of(outcome) if outcome is not None else None
    return errors.code_of(value_read_outcome(found))


def _through_partial(ctx: FunctionContext | MethodContext, call: CallExpr,
                     env: Env) -> tuple[Target | None, list[_Group]]:
    """The function ``functools.partial(f, ...)`` binds, or the one a partial object
    called runs (as mypy's own partial plugin recorded it), and the arguments of this
    call by that function's parameter names."""
    modules = compat.checker_modules(ctx.api)
    arguments = list(zip(call.args, call.arg_kinds, call.arg_names))
    if env.fullname == compat.PARTIAL_NAMES[0]:
        if not arguments or not isinstance(call.args[0], RefExpr):
            return None, []
        target = target_of(call.args[0].node, modules)
        if target is None:
            return None, []
        names = positional_names(env.state(call_site_env).summaries, target, modules)
        definition = function_node(target, modules)
        kinds, every_name = (definition.arg_kinds, definition.arg_names) \
            if definition is not None else ([], [])
        arguments = arguments[1:]
    else:
        receiver = get_proper_type(ctx.type) if isinstance(ctx, MethodContext) else None
        attributes = receiver.extra_attrs if isinstance(receiver, Instance) else None
        bound = get_proper_type(attributes.attrs.get("__mypy_partial")) \
            if attributes is not None else None
        if not isinstance(bound, CallableType) or bound.definition is None:
            return None, []
        target = target_of(bound.definition, modules)
        names = [name or "" for name, kind in zip(bound.arg_names, bound.arg_kinds)
                 if kind in (ARG_POS, ARG_OPT)]
        kinds, every_name = bound.arg_kinds, bound.arg_names
    star = next((name for name, kind in zip(every_name, kinds) if kind == ARG_STAR), None)
    double_star = next((name for name, kind in zip(every_name, kinds) if kind == ARG_STAR2),
                       None)
    groups: list[_Group] = []
    extra: _Group = (star, [], [], [])  # positional arguments past the named parameters
    extra_named: _Group = (double_star, [], [], [])  # keywords no parameter is named by
    position = 0
    for argument, kind, keyword in arguments:
        group: _Group
        if kind == ARG_POS:
            group = (names[position], [], [], []) if position < len(names) else extra
            position += 1
        elif kind == ARG_NAMED:
            group = (keyword, [], [], []) if keyword in every_name else extra_named
        else:
            break  # *args, **kwargs: which parameter gets what is not known
        group[1].append(argument)
        group[2].append(kind)
        group[3].append(keyword)
        if group is not extra and group is not extra_named:
            groups.append(group)
    return target, groups + [extra, extra_named]


def _reported_where_it_is(fullname: str, parameter: str,
                          modules: Mapping[str, MypyFile] | None, dynamic: DynamicClasses,
                          env: Env, isinstance_sink: bool) -> bool:
    """Whether function ``fullname`` is in a module that gets reports and declares
    ``parameter`` a type that may hold a dynamic number (a dynamic class, a base of
    one, or in migration mode a static number class a legacy proxy subclasses, for
    an ``isinstance``): then the plugin reports its uses there, where the fix goes,
    and a report at every call would repeat it."""
    gate = env.gate
    module = module_of(fullname, modules) if modules else None
    if module is None or modules is None:
        return False
    hidden = is_installed_library(modules[module].path)  # mypy shows no errors there
    if gate.decide(module, hidden=hidden) != Verdict.REPORTED:
        return False
    node: object = modules[module]
    for part in fullname[len(module) + 1:].split("."):
        names = node.names if isinstance(node, (MypyFile, TypeInfo)) else None
        symbol = names.get(part) if names is not None else None
        node = symbol.node if symbol is not None else None
        if isinstance(node, Decorator):
            node = node.func
    if not isinstance(node, FuncDef) or not isinstance(node.type, CallableType):
        return False
    # The definition's names: the type and FuncDef.arg_names have None for
    # positional-only parameters.  A function loaded from mypy's cache has no
    # ``arguments`` (compiled mypy raises AttributeError): its arg_names are all there is.
    try:
        arguments = node.arguments
    except AttributeError:
        arguments = None  # loaded from mypy's cache
    declared: list[str | None] = (
        list(node.arg_names) if arguments is None
        else [argument.variable.name for argument in arguments])
    if None in declared:  # positional-only, from the cache: the source names them
        target = target_of(node, modules)
        source = env.state(call_site_env).summaries.parameter_names(target, modules) \
            if target is not None else []
        if len(source) == len(declared):
            declared = list(source)
    if parameter not in declared or len(declared) != len(node.type.arg_types):
        return False
    formal = node.type.arg_types[declared.index(parameter)]
    config = env.config
    legacy_reported = isinstance_sink and bool(config.migrate_classes) \
        and config.strict_isinstance and may_hide_legacy_proxy(formal) is not None
    return (legacy_reported or dynamic.describe(formal) is not None
            or dynamic.describe_base(formal, modules, None) is not None)


def _callee_shown(target: Target) -> str:
    parts = target.qualname.split(".")
    if parts[-1] == "__init__" and len(parts) > 1:
        return f"{parts[-2]}()"
    return f"{parts[-1]}()"


def _argument_shown(actual: Expression, parameter: str) -> str:
    """The argument as written when it is a name, an attribute or an index by a literal."""
    return _spelled(actual) or f"{parameter}=..."


def _spelled(expr: Expression) -> str | None:
    if isinstance(expr, NameExpr):
        return expr.name
    if isinstance(expr, MemberExpr):
        base = _spelled(expr.expr)
        return f"{base}.{expr.name}" if base is not None else None
    if isinstance(expr, IndexExpr):
        base = _spelled(expr.base)
        index = _literal_index(expr.index) if not isinstance(expr.index, SliceExpr) \
            else _literal_slice(expr.index)
        return f"{base}[{index}]" if base is not None and index is not None else None
    if isinstance(expr, CallExpr) and not expr.args and isinstance(expr.callee, MemberExpr):
        base = _spelled(expr.callee)
        return f"{base}()" if base is not None else None  # x.size()
    return None


def _spread_length(expr: Expression) -> int | None:
    """How many items ``x.shape[-2:]``, ``x.shape[1:3]``, ``x.shape[:2]`` have at most
    (slices by int literals); None for a whole shape, whose rank is not known."""
    if not isinstance(expr, IndexExpr) or not isinstance(expr.index, SliceExpr) \
            or expr.index.stride is not None:
        return None
    bounds = [_literal_index(part) if part is not None else None
              for part in (expr.index.begin_index, expr.index.end_index)]
    if any(part is None and given is not None for part, given in
           zip(bounds, (expr.index.begin_index, expr.index.end_index))):
        return None  # a bound that is no int literal
    begin, end = (int(part) if part is not None else None for part in bounds)
    if end is None:
        return -begin if begin is not None and begin < 0 else None
    start = begin if begin is not None else 0
    if (start < 0) != (end < 0):
        return None  # x.shape[1:-1]: depends on the rank
    return max(end - start, 0)


def _literal_slice(index: SliceExpr) -> str | None:
    """``1:``, ``:-1``: a slice by int literals, as written."""
    if index.stride is not None:
        return None
    parts = [_literal_index(part) if part is not None else ""
             for part in (index.begin_index, index.end_index)]
    return None if None in parts else f"{parts[0]}:{parts[1]}"


def _literal_index(index: Expression) -> str | None:
    """``0`` or ``-1``: an index by an int literal, as written."""
    if isinstance(index, IntExpr):
        return str(index.value)
    if isinstance(index, UnaryExpr) and index.op == "-" and isinstance(index.expr, IntExpr):
        return f"-{index.expr.value}"
    return None


def _path_data(path: SinkPath, modules: Mapping[str, MypyFile] | None) -> tuple[str, ...]:
    """The report's extra data: sink, function, where, via, effect, then each step."""
    last = path.steps[-1]
    module = module_of(path.function, modules) if modules else None
    where = f"{shown_path(last.file, module)}:{last.line}"
    steps = tuple(f"{location_path(step.file)}:{step.line}: {step.note}"
                  for step in path.steps)
    return (path.sink, path.function, where, " -> ".join(path.via),
            SINK_KINDS[path.kind].effect, *steps)
