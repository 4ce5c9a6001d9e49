"""Per-function summaries: which parameters reach which sinks, through which calls.

A summary maps a function's parameters to the first sink
(:mod:`.sources_sinks`) each one reaches, with the path that leads there.  It is
worked out from the function's source file, parsed with Python's ``ast`` and
resolved through mypy's symbol tables (``MypyFile.names``, ``TypeInfo.get_method``).
Why not mypy's own function bodies: a module loaded from mypy's cache (torch, on
every run after the first) has its symbol table but no bodies, and each worker of
``mypy -n N`` loads its own modules.  The source file is the same everywhere, so
every process computes the same summary from it; nothing is shared in memory.

Inside a function the parameter is followed through assignments of expressions
that keep its value (names, arithmetic, conditional expressions, ``abs``); calls
to functions mypy resolves are followed to their own summaries, at most
``MAX_CALL_DEPTH`` deep.  Recursion reaches a fixed point by answering "no sink"
for a function whose summary is being worked out.  A parameter that the function
checks against a dynamic class (``isinstance(n, torch.SymInt)``) is taken as
handled there and has no entry.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, NamedTuple

from mypy.nodes import Decorator, FakeInfo, FuncDef, MypyFile, SymbolNode, TypeInfo

from ..constants import CACHING_DECORATORS
from .sources_sinks import (
    CONVERSION,
    CONVERSION_FUNCTIONS,
    HANDLING_CLASSES,
    COMPILING_TESTS,
    HASH,
    ISINSTANCE,
    MAX_CALL_DEPTH,
    SCRIPTING_TESTS,
    STATIC_CLASSES,
    TRUTH,
    VALUE_PRESERVING_CALLS,
)

if TYPE_CHECKING:
    from .returns import Returns


class Step(NamedTuple):
    """One step of a path: where it is and what happens there."""

    file: str
    line: int
    note: str


class SinkPath(NamedTuple):
    """How a parameter reaches a sink: the sink's kind, its code, where, and the steps."""

    kind: str
    #: The sink as written (``isinstance(normalized_shape, numbers.Integral)``).
    sink: str
    #: The function the sink is in (fully qualified) and its parameter there.
    function: str
    parameter: str
    #: The parameters the value passes through, the summarized function's first.
    via: tuple[str, ...]
    steps: tuple[Step, ...]


Summary = dict[str, SinkPath]


class Target(NamedTuple):
    """A function a call reaches: its module, name inside the module and source file."""

    module: str
    qualname: str
    path: str
    #: True for a method called on an instance or a constructor: the first parameter
    #: (self) is not passed by the call.
    bound: bool

    @property
    def fullname(self) -> str:
        return f"{self.module}.{self.qualname}"


def module_of(fullname: str, modules: Mapping[str, MypyFile]) -> str | None:
    """The longest prefix of ``fullname`` that is a module of the build."""
    parts = fullname.split(".")
    for end in range(len(parts) - 1, 0, -1):
        name = ".".join(parts[:end])
        if name in modules:
            return name
    return None


def target_of(node: object, modules: Mapping[str, MypyFile]) -> Target | None:
    """The function behind a resolved name: a function, a method, or a class's ``__init__``.

    None for what has no Python source (stubs, C functions) and for overloads (which
    variant runs is not known).
    """
    bound = False
    if isinstance(node, TypeInfo):
        init = node.get_method("__init__")
        if init is None or init.info.fullname == "builtins.object":
            return None
        node, bound = init, True
    if isinstance(node, Decorator):
        node = node.func
    if not isinstance(node, FuncDef):
        return None  # an overload too: which variant runs is not known
    module = module_of(node.fullname, modules)
    if module is None:
        return None
    path = modules[module].path
    if not path.endswith(".py"):
        return None  # a stub: no code runs
    if not isinstance(node.info, FakeInfo) and not node.is_static:
        bound = True
    return Target(module, node.fullname[len(module) + 1:], path, bound)


def lookup(modules: Mapping[str, MypyFile], module: str,
           parts: list[str] | None) -> SymbolNode | None:
    """What the dotted name ``parts`` refers to in ``module``, by mypy's symbol tables."""
    tree = modules.get(module)
    if parts is None or tree is None:
        return None
    symbol = tree.names.get(parts[0])
    if symbol is None:
        builtins = modules.get("builtins")
        symbol = builtins.names.get(parts[0]) if builtins is not None else None
    node = symbol.node if symbol is not None else None
    for part in parts[1:]:
        if not isinstance(node, (MypyFile, TypeInfo)):
            return None
        inner = node.names.get(part)
        node = inner.node if inner is not None else None
    return node


class _Function(NamedTuple):
    node: ast.FunctionDef | ast.AsyncFunctionDef
    #: The enclosing class's name within the module, if a method.
    cls: str | None


def _dotted(expr: ast.expr) -> list[str] | None:
    if isinstance(expr, ast.Name):
        return [expr.id]
    if isinstance(expr, ast.Attribute):
        inner = _dotted(expr.value)
        return None if inner is None else [*inner, expr.attr]
    return None


#: Nodes not listed with a body: their own scopes, and the operator and context
#: markers (``Load``, ``Add``...) that no pass looks at.
_NOT_IN_BODY = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
                ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def _ast_children(node: ast.AST) -> list[ast.AST]:
    """``ast.iter_child_nodes(node)`` as a list, without its generators."""
    found: list[ast.AST] = []
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            found.append(value)
        elif isinstance(value, list):
            found += [item for item in value if isinstance(item, ast.AST)]
    return found


def _body_nodes(function: ast.AST,
                skipped: Callable[[ast.If], list[ast.stmt]] | None = None) -> Iterator[ast.AST]:
    """The nodes of ``function``'s body, in order, without nested functions, lambdas and
    classes, nor the statements ``skipped`` names for an ``if`` (branches no compiler
    traces)."""
    stack = list(reversed(getattr(function, "body", [])))
    while stack:
        node = stack.pop()
        yield node
        children = _ast_children(node)
        left_out = skipped(node) if skipped is not None and isinstance(node, ast.If) else []
        for child in reversed(children):
            if not isinstance(child, _NOT_IN_BODY) and not (
                    left_out and any(child is statement for statement in left_out)):
                stack.append(child)


class _Body:
    """A function's body nodes, and those of each kind a pass looks at (in the same order)."""

    def __init__(self, nodes: list[ast.AST]) -> None:
        self.nodes = nodes
        self._kinds: dict[tuple[type[ast.AST], ...], list[ast.AST]] = {}

    def of(self, *kinds: type[ast.AST]) -> list[ast.AST]:
        """The nodes that are instances of ``kinds``: a pass over the others does nothing."""
        found = self._kinds.get(kinds)
        if found is None:
            found = self._kinds[kinds] = [node for node in self.nodes if isinstance(node, kinds)]
        return found


def _shown(node: ast.AST) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= 80 else text[:77] + "..."


class Summaries:
    """Summaries worked out in this process, kept per function and source file state."""

    def __init__(self) -> None:
        #: What callees return, when known (set by :class:`.returns.Returns`): a value
        #: passed through ``w = scaled(width)`` keeps reaching sinks.
        self.returns: Returns | None = None
        self._trees: dict[str, tuple[object, ast.Module | None]] = {}
        #: (id of a parse, qualified name) -> (that parse, the function found in it):
        #: every hooked call and callee asks, and a scan of the module costs its length.
        self._functions: dict[tuple[int, str], tuple[ast.Module, _Function | None]] = {}
        #: id of a function's ast -> (that ast, its body nodes): the call-site summary
        #: and the return walk of a function share them.
        self._bodies: dict[int, tuple[ast.AST, _Body]] = {}
        self._summaries: dict[tuple[str, str], tuple[object, Summary]] = {}
        self._in_progress: set[tuple[str, str]] = set()
        #: How many summaries were cut short (recursion, depth): one that saw none is exact.
        self._cut_offs = 0
        #: Called with the module of each source read (``daemon_deps.SourceReads``).
        self.on_read: Callable[[str], None] | None = None

    # -- source files ----------------------------------------------------------------

    def _stamp(self, target: Target, modules: Mapping[str, MypyFile]) -> object:
        """What a kept summary or parse is valid for: mypy's tree of the target's module.

        An installed library never changes during a run.  No ``os.stat`` per call (asked
        at every hooked call).  A daemon merges a changed file's new tree into the old
        object: it calls :meth:`forget` instead.  Every read of a source passes here:
        ``on_read`` hears of it (dmypy's dependencies).
        """
        if self.on_read is not None:
            self.on_read(target.module)
        return modules.get(target.module)

    def forget(self) -> None:
        """Drop every summary and return value worked out (a daemon saw a source change:
        a kept one may have followed calls into it)."""
        self._summaries.clear()
        self._trees.clear()
        if self.returns is not None:
            self.returns.forget()

    def _tree(self, path: str, stamp: object) -> ast.Module | None:
        known = self._trees.get(path)
        if known is not None and known[0] is stamp:
            return known[1]
        try:
            with open(path, encoding="utf-8") as file:
                tree: ast.Module | None = ast.parse(file.read(), path)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            tree = None  # mypy reports a file it cannot read itself
        self._trees[path] = (stamp, tree)
        return tree

    def _function(self, tree: ast.Module, qualname: str) -> _Function | None:
        """The function ``qualname`` defined in ``tree`` (looked up once per parse)."""
        key = (id(tree), qualname)
        known = self._functions.get(key)
        if known is not None and known[0] is tree:
            return known[1]
        found = _find_function(tree, qualname)
        self._functions[key] = (tree, found)
        return found

    def body(self, function: ast.FunctionDef | ast.AsyncFunctionDef,
             skipped: Callable[[ast.If], list[ast.stmt]]) -> _Body:
        """:func:`_body_nodes` of ``function``, listed once per parse.  ``skipped`` resolves
        names in the function's module, whose tree is what a parse is kept for."""
        known = self._bodies.get(id(function))
        if known is not None and known[0] is function:
            return known[1]
        body = _Body(list(_body_nodes(function, skipped)))
        self._bodies[id(function)] = (function, body)
        return body

    def is_cached(self, target: Target, modules: Mapping[str, MypyFile]) -> bool:
        """True if ``target`` is decorated with ``functools.lru_cache``/``cache``: a call
        hashes its arguments.  Read from the source (a module loaded from mypy's cache
        keeps no decorator expressions), names resolved in the target's module."""
        tree = self._tree(target.path, self._stamp(target, modules))
        function = self._function(tree, target.qualname) if tree is not None else None
        if function is None:
            return False
        for decorator in function.node.decorator_list:
            called = decorator.func if isinstance(decorator, ast.Call) else decorator
            node = lookup(modules, target.module, _dotted(called))
            if node is not None and node.fullname in CACHING_DECORATORS:
                return True
        return False

    def parameter_names(self, target: Target, modules: Mapping[str, MypyFile]) -> list[str]:
        """Every parameter name of ``target``'s definition in mypy's order (``self``,
        positional-only ones, ``*args``, keyword-only ones, ``**kwargs``); [] unknown."""
        tree = self._tree(target.path, self._stamp(target, modules))
        function = self._function(tree, target.qualname) if tree is not None else None
        if function is None:
            return []
        arguments = function.node.args
        return [argument.arg for argument in (
            *arguments.posonlyargs, *arguments.args,
            *([arguments.vararg] if arguments.vararg is not None else []),
            *arguments.kwonlyargs, *([arguments.kwarg] if arguments.kwarg is not None else []))]

    # -- summaries ---------------------------------------------------------------------

    def summary(self, target: Target, modules: Mapping[str, MypyFile], depth: int = 0) -> Summary:
        """``target``'s parameters that reach a sink, each with its first path."""
        key = (target.module, target.qualname)
        stamp = self._stamp(target, modules)
        known = self._summaries.get(key)
        if known is not None and known[0] is stamp:
            return known[1]
        if key in self._in_progress or depth > MAX_CALL_DEPTH:
            self._cut_offs += 1
            return {}  # recursion, or too deep: no sink known (a fixed point from below)
        tree = self._tree(target.path, stamp)
        function = self._function(tree, target.qualname) if tree is not None else None
        if function is None:
            return {}
        self._in_progress.add(key)
        cut_offs = self._cut_offs
        try:
            found = _Summarizer(self, target, function, modules, depth).run()
        finally:
            self._in_progress.discard(key)
        # A cut-off answer ("too deep") is not kept as the truth; one that followed every
        # call to its end is, at any depth (else each caller summarizes it again).
        if depth == 0 or found or self._cut_offs == cut_offs:
            self._summaries[key] = (stamp, found)
        return found


def _find_function(tree: ast.Module, qualname: str) -> _Function | None:
    body: list[ast.stmt] = tree.body
    parts = qualname.split(".")
    cls: str | None = None
    found: ast.AST | None = None
    for index, part in enumerate(parts):
        found = None
        for statement in _statements(body):
            if isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and statement.name == part and not _is_overload(statement):
                found = statement  # the last definition wins, as at run time
        if found is None:
            return None
        if index < len(parts) - 1:
            if not isinstance(found, ast.ClassDef):
                return None
            cls = ".".join(parts[:index + 1])
            body = found.body
    if not isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    return _Function(found, cls)


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements of a module or class body, also inside ``if``/``try`` at that level."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If):
            yield from _statements(statement.body)
            yield from _statements(statement.orelse)
        elif isinstance(statement, ast.Try):
            yield from _statements(statement.body)


def _star_item(key: str) -> int | None:
    """``k`` for a summary key ``*args[k]`` (an item of the positional rest)."""
    if not key.startswith("*") or key.startswith("**") or not key.endswith("]"):
        return None
    index = key[key.find("[") + 1:-1]
    return int(index) if index.isdigit() else None


def _is_super_call(expr: ast.expr) -> bool:
    """``super()`` (no arguments) or ``super(Cls, self)``."""
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) \
        and expr.func.id == "super"


def _is_overload(statement: ast.stmt) -> bool:
    decorators = getattr(statement, "decorator_list", [])
    return any((_dotted(decorator) or [""])[-1] == "overload" for decorator in decorators)


class _Summarizer:
    """Works out one function's summary."""

    def __init__(self, summaries: Summaries, target: Target, function: _Function,
                 modules: Mapping[str, MypyFile], depth: int) -> None:
        self.summaries = summaries
        self.target = target
        self.function = function
        self.modules = modules
        self.depth = depth
        self.body = summaries.body(function.node, self._untraced_branch)
        self._handled_names: set[str] | None = None

    def parameters(self) -> list[str]:
        arguments = self.function.node.args
        names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args)]
        if self.target.bound and names:
            names = names[1:]
        return names + [argument.arg for argument in arguments.kwonlyargs]

    def run(self) -> Summary:
        found: Summary = {}
        for parameter in self.parameters():
            tainted = self._tainted({parameter})
            if tainted & self._handled():  # the same for every parameter: worked out once
                continue
            path = self._first_sink(tainted, parameter)
            if path is not None:
                found[parameter] = path
        for key, path in self._forwarded():
            found.setdefault(key, path)
        return found

    def _forwarded(self) -> Iterator[tuple[str, SinkPath]]:
        """Sinks reached through ``*args``/``**kwargs`` passed on as they are:
        ``f(a, *args)`` gives ``args`` item ``k`` to ``f``'s positional parameter
        ``k + 1`` (key ``*args[k]``), ``f(**kwargs)`` gives item ``name`` to its
        parameter ``name`` (key ``**kwargs[name]``)."""
        arguments = self.function.node.args
        star = arguments.vararg.arg if arguments.vararg is not None else None
        double_star = arguments.kwarg.arg if arguments.kwarg is not None else None
        if star is None and double_star is None:
            return
        for node in self.body.of(ast.Call):
            assert isinstance(node, ast.Call)
            at = next((index for index, argument in enumerate(node.args)
                       if isinstance(argument, ast.Starred) and isinstance(argument.value, ast.Name)
                       and argument.value.id == star), None)
            spread = any(keyword.arg is None and isinstance(keyword.value, ast.Name)
                         and keyword.value.id == double_star for keyword in node.keywords)
            if at is None and not spread:
                continue
            target = self._callee(node.func)
            summary = self.summaries.summary(target, self.modules, self.depth + 1) \
                if target is not None else {}
            if target is None or not summary:
                continue
            names = _SignatureNames.of(self.summaries, target, self.modules).names
            given = set(names[:at if at is not None else len(node.args)])
            given |= {keyword.arg for keyword in node.keywords if keyword.arg is not None}
            for index, name in enumerate(names):
                inner = summary.get(name)
                if inner is None:
                    continue
                if at is not None and index >= at:
                    key, shown = f"*{star}[{index - at}]", f"*{star}"
                elif spread and name not in given:
                    key, shown = f"**{double_star}[{name}]", f"**{double_star}"
                else:
                    continue
                step = Step(self.target.path, node.lineno,
                            f"{shown} passed on to {name} of {target.fullname}")
                yield key, inner._replace(via=(shown, *inner.via), steps=(step, *inner.steps))
            if at is not None:  # f(*args) into f's own *args: items keep their order
                for name, inner in summary.items():
                    item = _star_item(name)
                    if item is None or item + len(names) - at < 0:
                        continue
                    shown = f"*{star}"
                    step = Step(self.target.path, node.lineno,
                                f"{shown} passed on to {name} of {target.fullname}")
                    yield f"{shown}[{item + len(names) - at}]", inner._replace(
                        via=(shown, *inner.via), steps=(step, *inner.steps))
            if spread:  # keyword-only parameters
                for name, inner in summary.items():
                    if name not in names and name not in given and not name.startswith("*"):
                        step = Step(self.target.path, node.lineno,
                                    f"**{double_star} passed on to {name} of {target.fullname}")
                        yield f"**{double_star}[{name}]", inner._replace(
                            via=(f"**{double_star}", *inner.via), steps=(step, *inner.steps))

    # -- the value inside the function ------------------------------------------------

    def _tainted(self, names: set[str]) -> set[str]:
        """``names`` and the local names assigned values computed from them."""
        tainted = set(names)
        changed = True
        assignments = self.body.of(ast.Assign, ast.AnnAssign, ast.AugAssign)
        while changed:
            changed = False
            for node in assignments:
                if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)) \
                        and node.value is not None and self._carries(node.value, tainted):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if isinstance(target, ast.Name) and target.id not in tainted:
                            tainted.add(target.id)
                            changed = True
                if isinstance(node, ast.Assign):
                    for name in self._tuple_unpacked(node, tainted) - tainted:
                        tainted.add(name)
                        changed = True
        return tainted

    def _tuple_unpacked(self, node: ast.Assign, tainted: set[str]) -> set[str]:
        """``a, b = x // 4, y // 4``: the names given a tainted item, item by item."""
        value = node.value
        if not isinstance(value, ast.Tuple) or any(isinstance(item, ast.Starred)
                                                   for item in value.elts):
            return set()
        return {target.id for targets in node.targets
                if isinstance(targets, ast.Tuple) and len(targets.elts) == len(value.elts)
                for target, item in zip(targets.elts, value.elts)
                if isinstance(target, ast.Name) and self._carries(item, tainted)}

    def _carries(self, expr: ast.expr, tainted: set[str]) -> bool:
        """True if ``expr``'s value is (computed from) a tainted name's value."""
        if isinstance(expr, ast.Name):
            return expr.id in tainted
        if isinstance(expr, ast.BinOp):
            return self._carries(expr.left, tainted) or self._carries(expr.right, tainted)
        if isinstance(expr, ast.UnaryOp) and not isinstance(expr.op, ast.Not):
            return self._carries(expr.operand, tainted)
        if isinstance(expr, ast.IfExp):
            return self._carries(expr.body, tainted) or self._carries(expr.orelse, tainted)
        if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords \
                and self._resolve(expr.func) in VALUE_PRESERVING_CALLS:
            return self._carries(expr.args[0], tainted)
        if isinstance(expr, ast.Call):
            return self._returns_argument(expr, tainted)
        return False

    def _returns_argument(self, call: ast.Call, tainted: set[str]) -> bool:
        """True if the call's callee returns a tainted argument (``scaled(width)``)."""
        returns = self.summaries.returns
        if returns is None or not any(self._carries(argument, tainted) for argument in (
                *call.args, *(keyword.value for keyword in call.keywords))):
            return False
        func = call.func
        target = self._callee(func) if _dotted(func) is not None or (
            isinstance(func, ast.Attribute) and _is_super_call(func.value)) else None
        if target is None:
            return False
        returned = {origin.name for origin, depths in
                    returns.returned(target, self.modules, self.depth + 1).items()
                    if origin.kind == "parameter" and 0 in depths}
        if not returned:
            return False
        names = _SignatureNames.of(self.summaries, target, self.modules).names
        passed = [(names[index] if index < len(names) else None, argument)
                  for index, argument in enumerate(call.args)]
        passed += [(keyword.arg, keyword.value) for keyword in call.keywords]
        return any(name in returned and self._carries(argument, tainted)
                   for name, argument in passed)

    def _handled(self) -> set[str]:
        """Names the function checks against a dynamic class: it handles dynamic numbers."""
        if self._handled_names is not None:
            return self._handled_names
        handled: set[str] = set()
        for node in self.body.of(ast.Call):
            if self._is_isinstance(node):
                assert isinstance(node, ast.Call)
                if isinstance(node.args[0], ast.Name) and \
                        self._checked_classes(node.args[1]) & HANDLING_CLASSES:
                    handled.add(node.args[0].id)
        self._handled_names = handled
        return handled

    # -- sinks ------------------------------------------------------------------------

    def _first_sink(self, tainted: set[str], parameter: str) -> SinkPath | None:
        found: list[tuple[int, SinkPath]] = []
        for node in self.body.of(ast.If, ast.While, ast.Call):  # where _sink_at finds any
            path = self._sink_at(node, tainted, parameter)
            if path is not None:
                found.append((getattr(node, "lineno", 0), path))
        return min(found, key=lambda pair: pair[0])[1] if found else None

    def _here(self, node: ast.AST, kind: str, parameter: str) -> SinkPath:
        line = getattr(node, "lineno", 0)
        shown = _shown(node)
        function = self.target.fullname
        return SinkPath(kind, shown, function, parameter, (parameter,),
                        (Step(self.target.path, line, f"{shown} in {function}"),))

    def _sink_at(self, node: ast.AST, tainted: set[str], parameter: str) -> SinkPath | None:
        if isinstance(node, (ast.If, ast.While)) and self._carries(node.test, tainted):
            return self._here(node.test, TRUTH, parameter)
        if not isinstance(node, ast.Call):
            return None
        if self._is_isinstance(node):
            classes = self._checked_classes(node.args[1])
            if self._carries(node.args[0], tainted) and classes & STATIC_CLASSES \
                    and not classes & HANDLING_CLASSES:
                return self._here(node, ISINSTANCE, parameter)
            return None
        callee = self._resolve(node.func)
        if callee in CONVERSION_FUNCTIONS:
            if len(node.args) == 1 and self._carries(node.args[0], tainted):
                return self._here(node, CONVERSION, parameter)
            return None
        return self._through_call(node, tainted, parameter)

    def _through_call(self, call: ast.Call, tainted: set[str],
                      parameter: str) -> SinkPath | None:
        passed: list[tuple[int, str | None]] = [
            (index, None) for index, argument in enumerate(call.args)
            if not isinstance(argument, ast.Starred) and self._carries(argument, tainted)]
        passed += [(-1, keyword.arg) for keyword in call.keywords
                   if keyword.arg is not None and self._carries(keyword.value, tainted)]
        if not passed and not any(isinstance(argument, ast.Starred)
                                  and self._carries(argument.value, tainted)
                                  for argument in call.args):
            return None
        target = self._callee(call.func)
        if target is None:
            return None
        if self.summaries.is_cached(target, self.modules):  # every argument is hashed
            return self._here(call, HASH, parameter)
        if not passed:
            return None
        summary = self.summaries.summary(target, self.modules, self.depth + 1)
        if not summary:
            return None
        names = _SignatureNames.of(self.summaries, target, self.modules)
        for index, keyword in passed:
            name = keyword if keyword is not None else names.positional(index)
            inner = summary.get(name) if name is not None else None
            if inner is None:
                continue
            step = Step(self.target.path, call.lineno,
                        f"{parameter} passed to {name} of {target.fullname}")
            return inner._replace(via=(parameter, *inner.via), steps=(step, *inner.steps))
        return None

    def _untraced_branch(self, statement: ast.If) -> list[ast.stmt]:
        """The statements of ``statement`` that run only where nothing is traced: the
        body of ``if torch.jit.is_scripting():``, the ``else`` of ``if
        torch.compiler.is_compiling():``, and the reverse for ``not``."""
        test, negated = statement.test, False
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, negated = test.operand, True
        if not isinstance(test, ast.Call):
            return []
        called = self._resolve(test.func)
        if called in SCRIPTING_TESTS:
            return statement.orelse if negated else statement.body
        if called in COMPILING_TESTS:
            return statement.body if negated else statement.orelse
        return []

    # -- names ------------------------------------------------------------------------

    def _is_isinstance(self, node: ast.AST) -> bool:
        return isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords \
            and self._resolve(node.func) == "builtins.isinstance"

    def _checked_classes(self, expr: ast.expr) -> set[str]:
        members = expr.elts if isinstance(expr, ast.Tuple) else [expr]
        return {name for name in map(self._resolve, members) if name is not None}

    def _node(self, expr: ast.expr) -> SymbolNode | None:
        """What a dotted name in the function's module refers to, by mypy's symbol tables."""
        return lookup(self.modules, self.target.module, _dotted(expr))

    def _resolve(self, expr: ast.expr) -> str | None:
        node = self._node(expr)
        return node.fullname if node is not None else None

    def _callee(self, func: ast.expr) -> Target | None:
        """The function a call in the body reaches: a name, ``module.name``, ``self.m``,
        ``super().m`` (the next class of the MRO that defines ``m``)."""
        cls = self.function.cls
        if isinstance(func, ast.Attribute) and cls is not None and (
                isinstance(func.value, ast.Name) and func.value.id == "self"
                or _is_super_call(func.value)):
            info = self._class_info(cls)
            if info is None:
                return None
            if isinstance(func.value, ast.Name):
                method = info.get_method(func.attr)
                return target_of(method, self.modules) if method is not None else None
            for base in info.mro[1:]:
                if func.attr in base.names:
                    return target_of(base.names[func.attr].node, self.modules)
            return None
        return target_of(self._node(func), self.modules)

    def _class_info(self, cls: str) -> TypeInfo | None:
        """mypy's class ``cls`` (a dotted name inside the module) of the summarized method."""
        node: object = self.modules.get(self.target.module)
        for part in cls.split("."):
            names = node.names if isinstance(node, (MypyFile, TypeInfo)) else None
            symbol = names.get(part) if names is not None else None
            node = symbol.node if symbol is not None else None
        return node if isinstance(node, TypeInfo) else None


class _SignatureNames:
    """The positional parameter names of a target, read from its source."""

    def __init__(self, names: list[str]) -> None:
        self.names = names

    @classmethod
    def of(cls, summaries: Summaries, target: Target,
           modules: Mapping[str, MypyFile]) -> _SignatureNames:
        tree = summaries._tree(target.path, summaries._stamp(target, modules))
        function = summaries._function(tree, target.qualname) if tree is not None else None
        if function is None:
            return cls([])
        arguments = function.node.args
        names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args)]
        return cls(names[1:] if target.bound and names else names)

    def positional(self, index: int) -> str | None:
        return self.names[index] if 0 <= index < len(self.names) else None
