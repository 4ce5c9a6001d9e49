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

import os

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
    TypeInfo,
    UnaryExpr,
)
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import CallableType, Instance, get_proper_type

from .. import _mypy_compat as compat
from .. import errors
from ..analysis.classes import isinstance_functions
from ..analysis.cross_call import call_site_env, in_python_source, in_traced_code
from ..analysis.dynamic import CHECKED, DynamicClasses, dynamic_in_expression
from ..analysis.legacy import may_hide_legacy_proxy
from ..analysis.severity import value_read_outcome
from ..analysis.sources_sinks import ISINSTANCE, SINK_KINDS
from ..analysis.returns import function_node, positional_names
from ..analysis.summaries import SinkPath, Target, module_of, target_of
from ..codes import PROXY_ISINSTANCE
from ..config import is_installed_library
from ..gate import Verdict
from ..hooks import FUNCTION, METHOD, Env, Hook

#: Flow sources that make a value dynamic only where a compiler traces the code.
_TRACED_ONLY_SOURCES = frozenset({"flow", "shape"})


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
    for name, actuals, kinds, keywords in groups:
        if name is None:
            continue
        for position, actual in enumerate(actuals):
            path = summary.get(name)
            forwarded = path is None
            if forwarded and kinds[position] == ARG_POS:
                path = summary.get(f"*{name}[{position}]")  # passed on by f(*args)
            elif forwarded and kinds[position] == ARG_NAMED:
                path = summary.get(f"**{name}[{keywords[position]}]")
            if path is None or any(
                    _reported_where_it_is(function, parameter, modules, sites.dynamic, env,
                                          path.kind == ISINSTANCE)
                    for function, parameter in ((target.fullname, name),
                                                (path.function, path.parameter))):
                continue  # no sink, or the callee or the sink's function reports it itself
            found = dynamic_in_expression(api, actual, sites.dynamic, CHECKED)
            if found is None:
                continue
            if found.reason.source in _TRACED_ONLY_SOURCES:
                if traced is None:
                    traced = in_traced_code(ctx, sites)
                if not traced:
                    continue
            code = PROXY_ISINSTANCE.code if path.kind == ISINSTANCE \
                else errors.code_of(value_read_outcome(found))
            if code is None:
                continue
            errors.call_reaches_sink(api, actual, _callee_shown(target),
                                     _argument_shown(actual, name), found.name, code,
                                     _path_data(path, modules), reason=found.reason)
            if not forwarded:
                break  # one report per parameter


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
        index = _literal_index(expr.index)
        return f"{base}[{index}]" if base is not None and index is not None else None
    return None


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
    where = f"{_short_path(last.file, module)}:{last.line}"
    steps = tuple(f"{step.file}:{step.line}: {step.note}" for step in path.steps)
    return (path.sink, path.function, where, " -> ".join(path.via),
            SINK_KINDS[path.kind].effect, *steps)


def _short_path(path: str, module: str | None = None) -> str:
    """The sink's file as shown, the same on every machine: ``torch/nn/modules/normalization.py``
    for a file of an installed package, a path relative to the current directory for
    one inside it, else the path from the root of ``module`` (``pkg/sub/mod.py``)."""
    normalized = path.replace("\\", "/")
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in normalized:
            return normalized.split(marker, 1)[1]
    if not os.path.isabs(path):
        return normalized
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        relative = os.pardir
    if not relative.startswith(os.pardir):
        return relative.replace("\\", "/")
    if module is None:
        return normalized
    parts = normalized.split("/")
    depth = module.count(".") + 1 + (parts[-1] == "__init__.py")
    return "/".join(parts[-depth:])
