"""The one walk over mypy's syntax trees that every check uses.

A hand-written walk: compiled mypy refuses interpreted subclasses of its
visitor traits.  It reads each node class's child attributes once, from the
compiled class's attribute list (or ``__slots__``), minus the links back into
the symbol graph.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Iterator

from mypy.nodes import Argument, Block, ClassDef, Expression, Node, OverloadedFuncDef, Statement
from mypy.patterns import Pattern

from .. import _mypy_compat as compat


def everywhere(node: Node) -> bool:
    """A ``descend`` for :func:`walk` that enters every node."""
    return True


# Links back into the symbol graph, or copies of a definition, not parts of the tree.
_NOT_CHILDREN = frozenset({"node", "info", "def_var", "original_def", "expanded", "impl",
                           "def_or_infer_vars", "removed_base_type_exprs", "removed_statements"})
# Positions, flags, argument kinds and names, and mypy types: never tree nodes.
_SCALARS = frozenset({"line", "column", "end_line", "end_column", "arg_kinds", "arg_names",
                      "type", "unanalyzed_type", "method_type", "method_types", "as_type",
                      "type_guard", "type_is"})
_TREE_NODES = (Statement, Expression, Block, Argument, Pattern)
_SEQUENCES = (list, tuple)


def walk(root: object, descend: Callable[[Node], bool]) -> Iterator[Node]:
    """``root`` (a node, or a list of them) and the tree nodes below it, in source
    order, entering a node's children only if ``descend`` (the root's always).

    A hand-written walk: compiled mypy refuses interpreted visitor subclasses.
    """
    seen: set[int] = set()
    if isinstance(root, _TREE_NODES):
        seen.add(id(root))
        yield root
        pending = children(root)
    else:
        pending = _nodes_in(root)
    pending.reverse()
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if descend(item):
            below = children(item)
            below.reverse()
            pending += below


def children(node: Node) -> list[Node]:
    """The direct child nodes of ``node`` (expressions, blocks...), in source order."""
    # Speed trick (an attrgetter per class, no generator): all of torch walks in 16 s, not 41 s.
    getter = _GETTERS.get(type(node))
    if getter is None:
        getter = _GETTERS[type(node)] = _getter(type(node))
    found: list[Node] = []
    for value in getter(node):
        if isinstance(value, _TREE_NODES):
            if value is not node and value not in found:
                found.append(value)
        elif isinstance(value, _SEQUENCES) and value:
            for item in _nodes_in(value):
                if item is not node and item not in found:
                    found.append(item)
    return found


def _nodes_in(values: object) -> list[Node]:
    """The tree nodes in ``values`` (nested lists and tuples, a node, or anything else)."""
    if isinstance(values, _TREE_NODES):
        return [values]
    if not isinstance(values, _SEQUENCES):
        return []
    found: list[Node] = []
    for value in values:
        if isinstance(value, _TREE_NODES):
            found.append(value)
        elif isinstance(value, _SEQUENCES):
            found += _nodes_in(value)
    return found


def _getter(cls: type) -> Callable[[object], tuple[object, ...]]:
    """A function reading the attributes of ``cls`` that may hold tree nodes, unset ones as None."""
    names = _child_attributes(cls)

    def values(node: object) -> tuple[object, ...]:
        return tuple(getattr(node, name, None) for name in names)

    if not names:
        return lambda node: ()
    read = operator.attrgetter(*names)
    if len(names) == 1:
        def one(node: object) -> tuple[object, ...]:
            try:
                return (read(node),)
            except AttributeError:  # compiled classes leave some attributes unset
                return values(node)
        return one

    def several(node: object) -> tuple[object, ...]:
        try:
            found: tuple[object, ...] = read(node)
            return found
        except AttributeError:
            return values(node)
    return several


#: Node class -> the reader of its child attributes (a per-process cache of types).
_GETTERS: dict[type, Callable[[object], tuple[object, ...]]] = {}


def _child_attributes(cls: type) -> list[str]:
    return [name for name in compat.node_attributes(cls)
            if not name.startswith(("_", "is_")) and name not in _NOT_CHILDREN
            and name not in _SCALARS]


def line_range(statement: Statement) -> tuple[int, int]:
    """First and last line of a top-level statement, decorators included.

    A statement without an end line is taken to run to the end of the file.
    """
    if isinstance(statement, OverloadedFuncDef) and statement.items:
        parts: list[Statement] = [*statement.items]
        if statement.impl is not None:
            parts.append(statement.impl)
        ranges = [line_range(part) for part in parts]
        return min(first for first, _ in ranges), max(last for _, last in ranges)
    first = statement.line
    if isinstance(statement, ClassDef) and statement.decorators:
        first = min(first, *(decorator.line for decorator in statement.decorators))
    last = statement.end_line if statement.end_line is not None else sys.maxsize
    return first, last
