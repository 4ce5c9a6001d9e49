"""Which functions of a module a tracing compiler runs: entry points and what they call.

A function is traced because the compiler runs it, not because of where it lives.
Entry points found in the checked code itself:

* ``forward`` of every ``torch.nn.Module`` subclass (``torch.compile(model)``,
  ``torch.export.export(model, ...)`` and ``make_fx(model)`` all run it);
* functions passed to ``torch.compile``, ``torch.export.export``, ``make_fx``,
  ``torch.jit.trace``, ``thunder.jit`` or ``jax.jit``/``vmap``/``grad``, and
  functions decorated with ``@torch.compile`` (with or without arguments).

Every function they call, when mypy resolves the call to a function of a checked
(not installed) module, is traced too, transitively.  Constructors, config code
and helpers only they call are not.  Worked out once per module tree, from the
trees mypy has; a module loaded from mypy's cache adds no callees (its bodies
are not kept), which leaves out functions rather than adding any.
"""

from __future__ import annotations

from collections.abc import Mapping

from mypy.nodes import (
    CallExpr,
    Decorator,
    FakeInfo,
    FuncDef,
    MemberExpr,
    MypyFile,
    NameExpr,
    RefExpr,
    Statement,
    SuperExpr,
    TypeInfo,
)

from ..config import is_installed_library
from .branches import lines_where
from .sources_sinks import COMPILING_TESTS, SCRIPTING_TESTS
from .walk import everywhere, walk

#: Classes whose ``forward`` a compiler runs.
MODULE_CLASSES = frozenset({"torch.nn.modules.module.Module"})
#: Calls whose first argument a compiler traces (fully qualified, as mypy resolves them).
TRACING_CALLS = frozenset({
    "torch.compile",
    "torch.export.export",
    "torch.export.exported_program.export",
    "torch.fx.experimental.proxy_tensor.make_fx",
    "torch.jit.trace",
    "torch.jit._trace.trace",
    "thunder.jit",
    "thunder.__init__.jit",
    "jax.jit",
    "jax.vmap",
    "jax.grad",
    "jax._src.api.jit",
    "jax._src.api.vmap",
    "jax._src.api.grad",
})
#: Decorators that make the decorated function an entry point (bare or called).
TRACING_DECORATORS = frozenset({"torch.compile", "thunder.jit", "jax.jit"})


def _function_of(node: object) -> FuncDef | None:
    if isinstance(node, Decorator):
        return node.func
    return node if isinstance(node, FuncDef) else None


class _Calls:
    """The functions a body calls, and the functions it hands to a tracing compiler."""

    def __init__(self, root: object, method_of: TypeInfo | None) -> None:
        self.method_of = method_of
        self.called: list[FuncDef] = []
        self.traced: list[FuncDef] = []
        for node in walk(root, everywhere):
            if isinstance(node, CallExpr):
                self._call(node)

    def _call(self, call: CallExpr) -> None:
        callee = call.callee
        if isinstance(callee, RefExpr) and callee.fullname in TRACING_CALLS and call.args:
            passed = call.args[0]
            if isinstance(passed, RefExpr):
                function = _function_of(passed.node)
                if function is not None:
                    self.traced.append(function)
        if isinstance(callee, SuperExpr) and callee.info is not None:
            # super().m(...): the next class of the MRO that defines m
            for base in callee.info.mro[1:]:
                if callee.name in base.names:
                    function = _function_of(base.names[callee.name].node)
                    if function is not None:
                        self.called.append(function)
                    break
        elif isinstance(callee, MemberExpr) and isinstance(callee.expr, NameExpr) \
                and callee.expr.name == "self" and self.method_of is not None:
            function = _function_of(self.method_of.get_method(callee.name))
            if function is not None:
                self.called.append(function)
        elif isinstance(callee, RefExpr):
            function = _function_of(callee.node)
            if function is None and isinstance(callee.node, TypeInfo):
                function = _function_of(callee.node.get_method("__init__"))
            if function is not None:
                self.called.append(function)


def _is_module_class(info: TypeInfo) -> bool:
    return any(base.fullname in MODULE_CLASSES for base in info.mro)


def _decorated_as_entry(decorator: Decorator) -> bool:
    for expr in decorator.decorators:
        if isinstance(expr, CallExpr):
            expr = expr.callee
        if isinstance(expr, RefExpr) and expr.fullname in TRACING_DECORATORS:
            return True
    return False


class EntryPoints:
    """The traced functions of each checked module, worked out once per module tree."""

    def __init__(self, modules_forward: bool = True) -> None:
        #: ``forward`` of ``torch.nn.Module`` subclasses counts as an entry point.
        self.modules_forward = modules_forward
        self._traced: dict[str, tuple[MypyFile, frozenset[FuncDef]]] = {}
        self._untraced_lines: dict[FuncDef, tuple[object, list[tuple[int, int]]]] = {}

    def untraced_at(self, function: FuncDef, line: int) -> bool:
        """True if ``line`` of ``function`` is in a branch no compiler traces: under
        ``if not torch.compiler.is_compiling():`` (and the like) or TorchScript only."""
        known = self._untraced_lines.get(function)
        if known is None or known[0] is not function.body:
            known = self._untraced_lines[function] = (function.body, lines_where(
                function, true=SCRIPTING_TESTS, false=COMPILING_TESTS))
        return any(start <= line <= end for start, end in known[1])

    def traced(self, tree: MypyFile, modules: Mapping[str, MypyFile]) -> frozenset[FuncDef]:
        """Functions a compiler runs from the entry points of ``tree`` (any module's)."""
        known = self._traced.get(tree.fullname)
        if known is not None and known[0] is tree:
            return known[1]
        entries = self._entries(tree)
        reached: set[FuncDef] = set()
        pending = list(entries)
        while pending:
            function = pending.pop()
            if function in reached:
                continue
            reached.add(function)
            calls = _Calls(function.body,
                           None if isinstance(function.info, FakeInfo) else function.info)
            for callee in calls.called + calls.traced:
                if callee not in reached and self._checked(callee, modules):
                    pending.append(callee)
        found = frozenset(reached)
        self._traced[tree.fullname] = (tree, found)
        return found

    def _entries(self, tree: MypyFile) -> list[FuncDef]:
        entries: list[FuncDef] = []
        module_level = _Calls(tree.defs, None)  # calls anywhere, nested ones included
        entries += module_level.traced
        for symbol in tree.names.values():
            node = symbol.node
            if isinstance(node, Decorator) and _decorated_as_entry(node):
                entries.append(node.func)
        for node in _classes(tree):
            for symbol in node.names.values():
                member = symbol.node
                if isinstance(member, Decorator) and _decorated_as_entry(member):
                    entries.append(member.func)
            if self.modules_forward and _is_module_class(node):
                forward = _function_of(node.names["forward"].node) \
                    if "forward" in node.names else None
                if forward is not None:
                    entries.append(forward)
        return entries

    @staticmethod
    def _checked(function: FuncDef, modules: Mapping[str, MypyFile]) -> bool:
        """True for a function of a module mypy checks (not an installed library)."""
        name = function.fullname
        for end in range(1, name.count(".") + 1):  # the longest prefix first
            module = modules.get(name.rsplit(".", end)[0])
            if module is not None:
                return not is_installed_library(module.path) and not module.is_stub
        return False


def _classes(tree: MypyFile) -> list[TypeInfo]:
    """Classes defined in ``tree``, nested ones included."""
    found: list[TypeInfo] = []
    pending = [symbol.node for symbol in tree.names.values()
               if isinstance(symbol.node, TypeInfo) and symbol.node.module_name == tree.fullname]
    while pending:
        info = pending.pop()
        if info in found:
            continue
        found.append(info)
        pending += [symbol.node for symbol in info.names.values()
                    if isinstance(symbol.node, TypeInfo)]
    return found
