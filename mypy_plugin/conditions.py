"""proxy-concretize for conditions: ``if n >= 0:`` specializes on a traced value.

No mypy hook sees an ``if``.  Instead each module's tree is walked once to
collect the spans of expressions whose truth value Python asks for; the
comparison-method hooks then report a comparison with a dynamic operand that
stands at one of those spans.
"""

from __future__ import annotations

from mypy.nodes import (
    Argument,
    Block,
    Node,
    Statement,
    AssertStmt,
    ConditionalExpr,
    Context,
    DictionaryComprehension,
    Expression,
    GeneratorExpr,
    IfStmt,
    MatchStmt,
    MypyFile,
    OpExpr,
    UnaryExpr,
    WhileStmt,
)
from mypy.plugin import MethodContext

from . import errors
from .checker_context import current_file, current_module, reports_hidden
from .config import ProxyTypesConfig
from .dynamic import DynamicClasses

Span = tuple[int, int, int, int]


class _BooleanContextCollector:
    """Collects the spans of expressions evaluated for their truth value.

    A hand-written walk: compiled mypy refuses interpreted subclasses of its
    ``TraverserVisitor`` trait.
    """

    # Attributes that point back into the symbol graph rather than down the tree.
    _NOT_CHILDREN = frozenset({"node", "info", "original_def", "impl", "def_or_infer_vars"})

    def __init__(self) -> None:
        self.spans: set[Span] = set()
        self._seen: set[int] = set()

    def mark(self, expr: Expression) -> None:
        self.spans.add(span_of(expr))
        if isinstance(expr, OpExpr) and expr.op in ("and", "or"):
            self.mark(expr.right)
        elif isinstance(expr, UnaryExpr) and expr.op == "not":
            self.mark(expr.expr)

    def walk(self, node: Node) -> None:
        pending: list[Node] = [node]
        while pending:
            current = pending.pop()
            if id(current) in self._seen:
                continue
            self._seen.add(id(current))
            self._mark_conditions_of(current)
            pending.extend(_children(current, self._NOT_CHILDREN))

    def _mark_conditions_of(self, node: Node) -> None:
        conditions: list[Expression] = []
        if isinstance(node, IfStmt):
            conditions = list(node.expr)
        elif isinstance(node, (WhileStmt, AssertStmt)):
            conditions = [node.expr]
        elif isinstance(node, MatchStmt):
            conditions = [guard for guard in node.guards if guard is not None]
        elif isinstance(node, ConditionalExpr):
            conditions = [node.cond]
        elif isinstance(node, OpExpr) and node.op in ("and", "or"):
            # `a and b` always tests `a`; `b` only when the whole is tested (see mark).
            conditions = [node.left]
        elif isinstance(node, UnaryExpr) and node.op == "not":
            conditions = [node.expr]
        elif isinstance(node, (GeneratorExpr, DictionaryComprehension)):
            conditions = [c for group in node.condlists for c in group]
        for condition in conditions:
            self.mark(condition)


def _attribute_names(cls: type) -> list[str]:
    compiled = getattr(cls, "__mypyc_attrs__", None)
    if compiled is not None:
        return [name for name in compiled if not name.startswith("_")]
    names: list[str] = []
    for klass in cls.__mro__:
        slots = klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return [name for name in names if not name.startswith("_")]


_TREE_NODES = (Statement, Expression, Block, Argument)
# Child attribute names per node class: computing them per node was most of the walk.
_child_attributes: dict[tuple[type, frozenset[str]], list[str]] = {}


def _children(node: Node, skip: frozenset[str]) -> list[Node]:
    found: list[Node] = []
    key = (type(node), skip)
    names = _child_attributes.get(key)
    if names is None:
        names = [name for name in _attribute_names(type(node)) if name not in skip]
        _child_attributes[key] = names
    for name in names:
        value = getattr(node, name, None)
        if not isinstance(value, (list, tuple)):  # most attributes: no list to unpack
            if isinstance(value, _TREE_NODES):
                found.append(value)
            continue
        stack: list[object] = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, _TREE_NODES):
                found.append(item)
            elif isinstance(item, (list, tuple)):
                stack.extend(item)
    return found


def span_of(node: Context) -> Span:
    """Where ``node`` stands in its file: (line, column, end line, end column)."""
    return (node.line, node.column, node.end_line or -1, node.end_column or -1)


class BooleanContexts:
    """Per-module cache of boolean-context spans; rebuilt when the tree changes."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[MypyFile, int, frozenset[Span]]] = {}

    def spans(self, tree: MypyFile) -> frozenset[Span]:
        """Spans of the expressions in ``tree`` that Python tests for truth."""
        fingerprint = hash(tuple(span_of(d) for d in tree.defs))
        cached = self._cache.get(tree.fullname)
        if cached is not None and cached[0] is tree and cached[1] == fingerprint:
            return cached[2]
        collector = _BooleanContextCollector()
        for definition in tree.defs:
            collector.walk(definition)
        spans = frozenset(collector.spans)
        self._cache[tree.fullname] = (tree, fingerprint, spans)
        return spans


def check_comparison(
    ctx: MethodContext,
    config: ProxyTypesConfig,
    dynamic: DynamicClasses,
    contexts: BooleanContexts,
) -> None:
    """Report a comparison with a dynamic operand that Python tests for truth."""
    tree = current_file(ctx.api)
    if tree is None or reports_hidden(ctx.api) or config.is_exempt(current_module(ctx.api)):
        return
    found = dynamic.class_name(ctx.type)
    for arg_types in ctx.arg_types:
        for arg_type in arg_types:
            found = found or dynamic.class_name(arg_type)
    if found is None or span_of(ctx.context) not in contexts.spans(tree):
        return
    errors.dynamic_condition(ctx.api, ctx.context, found)
