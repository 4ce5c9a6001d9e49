"""What a function returns, as far as dynamic numbers go: return-value summaries.

``def rows(x: Tensor) -> int: return x.shape[0]`` returns a tensor size, so
``n = rows(x)`` is a size at the caller, as ``n = x.shape[0]`` is; ``def
double(n: int) -> int: return n * 2`` returns what its caller passed.  A summary
says which *origins* reach the returned value, and at which depth (0: the value,
1: the items of a returned list...):

* a tensor size read from a parameter declared a tensor (``x.shape[0]``,
  ``x.size(1)``, ``x.numel()``, ``len(x)``) or a number read from its data
  (``x.item()``, ``x.tolist()``);
* a parameter (the caller's argument then decides);
* the value another resolved function returns, summarized the same way.

Like :mod:`.summaries`, the body is read from the source file with ``ast`` (a
module from mypy's cache keeps no bodies) and names are resolved through mypy's
symbol tables; the parameters' declared types come from mypy's ``FuncDef``,
which the cache keeps.  The walk is flow-insensitive: a local name holds every
value any of its assignments gives it.  ``int(n)`` and any other call not
followed make a new value.  A function whose declared return type holds no
number (``-> Tensor``, ``-> None``) has no summary and its file is not parsed.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import NamedTuple

from mypy.nodes import Decorator, FuncDef, MypyFile, TypeInfo
from mypy.types import CallableType, Type

from .sources_sinks import DATA_DEPENDENT_METHODS, MAX_CALL_DEPTH
from .summaries import Summaries, Target, _dotted, _is_super_call, _shown, _Summarizer

#: Depth marker: every depth (a value of unknown shape: ``t.tolist()``).  A parameter's
#: depths may be negative: ``return sizes[0]`` returns the parameter's items at depth 0.
EVERY = 1 << 20
#: How deep into a parameter's items a return value is followed.
_LOWEST = -4
#: Tensor methods returning all sizes (no argument) or one (with a dimension).
_SIZE_METHODS = frozenset({"size", "stride", "sym_size", "sym_stride"})
_ONE_SIZE_METHODS = frozenset({"numel", "sym_numel", "storage_offset", "sym_storage_offset"})
#: Calls whose result holds their argument's values at the same depth, or its items.
_SAME_AS_ARGUMENT = frozenset({"builtins.abs", "builtins.list", "builtins.tuple",
                               "builtins.sorted", "builtins.reversed"})
_ITEM_OF_ARGUMENT = frozenset({"builtins.min", "builtins.max", "builtins.sum"})
_SYMBOLIC_HELPERS = frozenset({"torch.sym_max", "torch.sym_min", "torch.sym_sum",
                               "torch.sym_int", "torch.sym_float", "torch.sym_ite"})


class Origin(NamedTuple):
    """Where a returned value comes from: a ``size``/``data`` read, or a ``parameter``."""

    kind: str
    #: The parameter's name, or the read as written (``x.shape[0]``).
    name: str
    #: Where the read is, and in which function (empty for a parameter).
    file: str = ""
    line: int = 0
    function: str = ""


#: Origins of a value -> the depths at which their values are held.
Value = dict[Origin, frozenset[int]]


def _deeper(depths: frozenset[int], steps: int, lowest: int = 0) -> frozenset[int]:
    """The depths of the values ``steps`` levels down (negative: packed into containers)."""
    if EVERY in depths:
        return depths
    return frozenset(depth - steps for depth in depths if depth - steps >= lowest)


def _merge(*values: Value) -> Value:
    merged: Value = {}
    for value in values:
        for origin, depths in value.items():
            merged[origin] = merged.get(origin, frozenset()) | depths
    return merged


def _shift(value: Value, steps: int) -> Value:
    shifted = {origin: _deeper(depths, steps, _LOWEST if origin.kind == "parameter" else 0)
               for origin, depths in value.items()}
    return {origin: depths for origin, depths in shifted.items() if depths}


def function_node(target: Target, modules: Mapping[str, MypyFile]) -> FuncDef | None:
    """mypy's definition of ``target`` (its signature; the cache keeps no body)."""
    node: object = modules.get(target.module)
    for part in target.qualname.split("."):
        names = node.names if isinstance(node, (MypyFile, TypeInfo)) else None
        symbol = names.get(part) if names is not None else None
        node = symbol.node if symbol is not None else None
        if isinstance(node, Decorator):
            node = node.func
    return node if isinstance(node, FuncDef) else None


class Returns:
    """Return-value summaries worked out in this process, per function and module tree."""

    def __init__(self, summaries: Summaries, is_tensor: Callable[[Type], bool],
                 holds_numbers: Callable[[Type], bool]) -> None:
        #: Parses and finds functions (shared with the call-site summaries).
        self.summaries = summaries
        summaries.returns = self
        self._is_tensor = is_tensor
        self._holds_numbers = holds_numbers
        self._known: dict[tuple[str, str], tuple[object, Value]] = {}
        self._in_progress: set[tuple[str, str]] = set()

    def forget(self) -> None:
        """Drop every return value worked out (see :meth:`.Summaries.forget`)."""
        self._known.clear()

    def returned(self, target: Target, modules: Mapping[str, MypyFile],
                 depth: int = 0) -> Value:
        """The origins of ``target``'s return value (empty: nothing dynamic known)."""
        key = (target.module, target.qualname)
        stamp = self.summaries._stamp(target, modules)
        known = self._known.get(key)
        if known is not None and known[0] is stamp:
            return known[1]
        if key in self._in_progress or depth > MAX_CALL_DEPTH:
            return {}  # recursion, or too deep: nothing known (a fixed point from below)
        found: Value = {}
        node = function_node(target, modules)
        signature = node.type if node is not None else None
        if not isinstance(signature, CallableType):
            found = self._work_out(target, modules, None, depth)  # unannotated
        elif self._holds_numbers(signature.ret_type):
            found = self._work_out(target, modules, signature, depth)
        if depth == 0 or found:  # a cut-off answer ("too deep") is not kept as the truth
            self._known[key] = (stamp, found)
        return found

    def _work_out(self, target: Target, modules: Mapping[str, MypyFile],
                  signature: CallableType | None, depth: int) -> Value:
        summaries = self.summaries
        tree = summaries._tree(target.path, summaries._stamp(target, modules))
        function = summaries._function(tree, target.qualname) if tree is not None else None
        if function is None:
            return {}
        key = (target.module, target.qualname)
        self._in_progress.add(key)
        try:
            walker = _ReturnWalker(summaries, target, function, modules, depth)
            return walker.returned(self, self._tensor_parameters(function.node, signature))
        finally:
            self._in_progress.discard(key)

    def _tensor_parameters(self, node: ast.FunctionDef | ast.AsyncFunctionDef,
                           signature: CallableType | None) -> frozenset[str]:
        if signature is None:
            return frozenset()
        arguments = node.args
        names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args)]
        names += [arguments.vararg.arg] if arguments.vararg else []
        names += [argument.arg for argument in arguments.kwonlyargs]
        names += [arguments.kwarg.arg] if arguments.kwarg else []
        if len(names) != len(signature.arg_types):
            return frozenset()
        return frozenset(name for name, typ in zip(names, signature.arg_types)
                         if self._is_tensor(typ))


class _ReturnWalker(_Summarizer):
    """Works out one function's return value (flow-insensitive over its local names)."""

    def returned(self, returns: Returns, tensors: frozenset[str]) -> Value:
        self._returns = returns
        self._tensors = tensors
        self._locals: dict[str, Value] = {}
        parameters = set(self.parameters())
        self._parameters = parameters - tensors
        changed = True
        rounds = 0
        binding = self.body.of(ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For,
                               ast.comprehension, ast.NamedExpr)  # what _bindings reads
        while changed and rounds < 8:  # a local's value grows only: few rounds settle it
            changed = False
            rounds += 1
            for node in binding:
                for name, value in self._bindings(node):
                    if name in parameters or not value:
                        continue
                    merged = _merge(self._locals.get(name, {}), value)
                    if merged != self._locals.get(name):
                        self._locals[name] = merged
                        changed = True
        found: Value = {}
        for node in self.body.of(ast.Return):
            if isinstance(node, ast.Return) and node.value is not None:
                found = _merge(found, self._value(node.value))
        return found

    def _bindings(self, node: ast.AST) -> list[tuple[str, Value]]:
        """The local names ``node`` binds and the values it gives them."""
        if isinstance(node, ast.Assign):
            value = self._value(node.value)
            return [pair for target in node.targets for pair in self._unpacked(target, value)]
        if isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            value = self._value(node.value)
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                value = _merge(value, self._locals.get(node.target.id, {}))
            return self._unpacked(node.target, value)
        if isinstance(node, (ast.For, ast.comprehension)):
            return self._unpacked(node.target, _shift(self._value(node.iter), 1))
        if isinstance(node, ast.NamedExpr):
            return self._unpacked(node.target, self._value(node.value))
        return []

    def _unpacked(self, target: ast.expr, value: Value) -> list[tuple[str, Value]]:
        if isinstance(target, ast.Name):
            return [(target.id, value)]
        if isinstance(target, (ast.Tuple, ast.List)):
            items = _shift(value, 1)
            return [pair for element in target.elts for pair in self._unpacked(
                element.value if isinstance(element, ast.Starred) else element,
                _shift(items, -1) if isinstance(element, ast.Starred) else items)]
        return []

    def _value(self, expr: ast.expr) -> Value:
        if isinstance(expr, ast.Name):
            if expr.id in self._parameters:
                return {Origin("parameter", expr.id): frozenset({0})}
            return self._locals.get(expr.id, {})
        if isinstance(expr, ast.BinOp):
            return _merge(self._value(expr.left), self._value(expr.right))
        if isinstance(expr, ast.UnaryOp):
            return {} if isinstance(expr.op, ast.Not) else self._value(expr.operand)
        if isinstance(expr, ast.IfExp):
            return _merge(self._value(expr.body), self._value(expr.orelse))
        if isinstance(expr, ast.Subscript):
            base = self._value(expr.value)
            return base if isinstance(expr.slice, ast.Slice) else _shift(base, 1)
        if isinstance(expr, (ast.Tuple, ast.List)):
            return _merge(*(self._value(element.value) if isinstance(element, ast.Starred)
                            else _shift(self._value(element), -1) for element in expr.elts))
        if isinstance(expr, (ast.ListComp, ast.GeneratorExp)):
            return _shift(self._value(expr.elt), -1)
        if isinstance(expr, ast.Attribute):
            if expr.attr == "shape" and self._is_tensor_name(expr.value):
                return self._read("size", expr, frozenset({1}))
            return {}
        if isinstance(expr, ast.Call):
            return self._call(expr)
        return {}

    def _is_tensor_name(self, expr: ast.expr) -> bool:
        return isinstance(expr, ast.Name) and expr.id in self._tensors

    def _is_tensor_expr(self, expr: ast.expr) -> bool:
        """A tensor parameter, an item of one or what a method of one returns (``x.sum()``)."""
        if isinstance(expr, ast.Subscript):
            return self._is_tensor_expr(expr.value)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
            return expr.func.attr not in _SIZE_METHODS and self._is_tensor_expr(expr.func.value)
        return self._is_tensor_name(expr)

    def _read(self, kind: str, expr: ast.expr, depths: frozenset[int]) -> Value:
        origin = Origin(kind, _shown(expr), self.target.path, getattr(expr, "lineno", 0),
                        self.target.fullname)
        return {origin: depths}

    def _call(self, call: ast.Call) -> Value:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in DATA_DEPENDENT_METHODS \
                and not call.args and self._is_tensor_expr(func.value):
            depths = frozenset({0 if DATA_DEPENDENT_METHODS[func.attr] else EVERY})
            return self._read("data", call, depths)
        if isinstance(func, ast.Attribute) and self._is_tensor_name(func.value):
            method = func.attr
            if method in _ONE_SIZE_METHODS or (method in _SIZE_METHODS and call.args):
                return self._read("size", call, frozenset({0}))
            if method in _SIZE_METHODS:
                return self._read("size", call, frozenset({1}))
            return {}
        name = self._resolve(func)
        if name == "builtins.len":
            if len(call.args) == 1 and self._is_tensor_name(call.args[0]):
                return self._read("size", call, frozenset({0}))
            return {}
        if name in _SAME_AS_ARGUMENT:
            return self._value(call.args[0]) if len(call.args) == 1 else {}
        if name in _ITEM_OF_ARGUMENT:
            if len(call.args) == 1:
                return _shift(self._value(call.args[0]), 1)
            return _merge(*(self._value(argument) for argument in call.args))
        if name in _SYMBOLIC_HELPERS:
            return _merge(*(self._value(argument) for argument in call.args))
        return self._through_callee(call)

    def _through_callee(self, call: ast.Call) -> Value:
        """The value a resolved function returns, its parameters replaced by our arguments."""
        func = call.func
        if _dotted(func) is None and not (isinstance(func, ast.Attribute)
                                          and _is_super_call(func.value)):
            return {}
        target = self._callee(call.func)
        if target is None:
            return {}
        inner = self._returns.returned(target, self.modules, self.depth + 1)
        if not inner:
            return {}
        positional = positional_names(self.summaries, target, self.modules)
        arguments: dict[str, ast.expr] = {}
        for index, argument in enumerate(call.args):
            if isinstance(argument, ast.Starred):
                break
            if index < len(positional):
                arguments[positional[index]] = argument
        arguments.update((keyword.arg, keyword.value) for keyword in call.keywords
                         if keyword.arg is not None)
        found: Value = {}
        for origin, depths in inner.items():
            if origin.kind != "parameter":
                found = _merge(found, {origin: depths})
            elif origin.name in arguments:
                passed = self._value(arguments[origin.name])
                found = _merge(found, {inner_origin: _combined(inner_depths, depths)
                                       for inner_origin, inner_depths in passed.items()})
        return {origin: frozenset(depth for depth in depths
                                  if depth >= 0 or origin.kind == "parameter")
                for origin, depths in found.items()
                if any(depth >= 0 or origin.kind == "parameter" for depth in depths)}


def _combined(passed: frozenset[int], returned: frozenset[int]) -> frozenset[int]:
    """The depths of a value passed at ``passed`` depths and returned at ``returned``
    (the parameter's own depth 0 is returned at each of ``returned``)."""
    if EVERY in passed or EVERY in returned:
        return frozenset({EVERY})
    return frozenset(inner + outer for inner in passed for outer in returned
                     if inner + outer >= _LOWEST)


def positional_names(summaries: Summaries, target: Target,
                      modules: Mapping[str, MypyFile]) -> list[str]:
    tree = summaries._tree(target.path, summaries._stamp(target, modules))
    function = summaries._function(tree, target.qualname) if tree is not None else None
    if function is None:
        return []
    arguments = function.node.args
    names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args)]
    return names[1:] if target.bound and names else names
