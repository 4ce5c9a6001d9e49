"""The one walk over mypy's syntax trees that every check uses.

A hand-written walk: compiled mypy lets Python code subclass its visitors
(``TraverserVisitor``) but not build one: on mypy 1.11.2 and 2.4.1 instantiating
such a subclass raises "interpreted classes cannot inherit from compiled traits"
(``tests/plugin/test_walk.py``).  It reads each node class's child attributes
once, from the compiled class's attribute list (or ``__slots__``), minus the
links back into the symbol graph.
"""

from __future__ import annotations

import operator
import sys
from bisect import bisect_right
from collections.abc import Callable, Iterator
from typing import Any

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

    A hand-written walk: compiled mypy cannot instantiate an interpreted subclass of
    its visitors (see the module's docstring).
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
    # Speed trick (an attrgetter per class, no generator, no call per attribute): all
    # of torch walks in 16 s, not 41 s; the reaching-definitions walk calls it most.
    # Measured: torch-traced, 4.32 M -> 3.88 M bytecodes without the call per node.
    reader = _READERS.get(type(node))
    if reader is None:
        reader = _READERS[type(node)] = _reader(type(node))
    read, single, names = reader
    try:
        values = (read(node),) if single else read(node)
    except AttributeError:  # compiled classes leave some attributes unset
        values = tuple(getattr(node, name, None) for name in names)
    found: list[Node] = []
    for value in values:
        if isinstance(value, _TREE_NODES):
            if value is not node and value not in found:
                found.append(value)
        elif isinstance(value, _SEQUENCES) and value:
            if len(value) > _LONG and not found:
                found = _distinct(node, value)  # a long body: no quadratic `in found`
                continue
            for item in value:
                if isinstance(item, _TREE_NODES):
                    if item is not node and item not in found:
                        found.append(item)
                elif isinstance(item, _SEQUENCES):
                    for inner in _nodes_in(item):
                        if inner is not node and inner not in found:
                            found.append(inner)
    return found


#: Sequences longer than this are deduplicated by id (a block of thousands of statements).
_LONG = 16


def _distinct(node: Node, values: list[object] | tuple[object, ...]) -> list[Node]:
    """The tree nodes in ``values`` other than ``node``, each once, in order."""
    seen = {id(node)}
    found: list[Node] = []
    for item in _nodes_in(values):
        if id(item) not in seen:
            seen.add(id(item))
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


def _no_children(node: object) -> tuple[object, ...]:
    return ()


def _reader(cls: type) -> tuple[Callable[[object], Any], bool, list[str]]:
    """How to read the attributes of ``cls`` that may hold tree nodes: a reader, whether
    it returns one value (not a tuple), and the names (to read them one by one)."""
    names = _child_attributes(cls)
    if not names:
        return _no_children, False, names
    return operator.attrgetter(*names), len(names) == 1, names


#: Node class -> the reader of its child attributes (a per-process cache of types).
_READERS: dict[type, tuple[Callable[[object], Any], bool, list[str]]] = {}


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


class StatementLines:
    """The lines of a module's top-level statements, to find those holding a line.

    Speed trick: a scan of every statement per question cost a ``type()`` check in
    torch's ``_refs`` (1,000 statements) about 5,000 bytecodes; a bisection and
    the few statements before it cost a handful. Measured: torch-traced, the
    ``type()`` checks' index 1.67 M bytecodes -> under 0.04 M.
    """

    def __init__(self, statements: list[Statement]) -> None:
        self.ranges = [line_range(statement) for statement in statements]
        self._firsts = [first for first, _ in self.ranges]
        # The furthest last line of any statement up to each index: a statement
        # without an end line (taken to run to the end) may hold later lines.
        self._reach: list[int] = []
        furthest = -1
        for _, last in self.ranges:
            furthest = max(furthest, last)
            self._reach.append(furthest)
        self.sorted = self._firsts == sorted(self._firsts)

    def holding(self, line: int) -> list[int]:
        """Indexes of the statements whose lines hold ``line``, in source order."""
        if not self.sorted:  # not in source order (never seen): ask every statement
            return [index for index, (first, last) in enumerate(self.ranges)
                    if first <= line <= last]
        found: list[int] = []
        index = bisect_right(self._firsts, line) - 1
        while index >= 0 and self._reach[index] >= line:
            if self.ranges[index][1] >= line:
                found.append(index)
            index -= 1
        found.reverse()
        return found
