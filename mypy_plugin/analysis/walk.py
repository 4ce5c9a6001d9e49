"""The one walk over mypy's syntax trees that every check uses.

A hand-written walk: compiled mypy refuses interpreted subclasses of its
visitor traits.  It reads each node class's child attributes once, from the
compiled class's attribute list (or ``__slots__``), minus the links back into
the symbol graph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import sys

from mypy.nodes import Argument, Block, ClassDef, Expression, Node, OverloadedFuncDef, Statement
from mypy.patterns import Pattern

from .. import _mypy_compat as compat


def everywhere(node: Node) -> bool:
    """A ``descend`` for :func:`walk` that enters every node."""
    return True


# Links back into the symbol graph, or copies of a definition, not parts of the tree.
_NOT_CHILDREN = frozenset({"node", "info", "def_var", "original_def", "expanded", "impl",
                           "def_or_infer_vars", "removed_base_type_exprs", "removed_statements"})
_TREE_NODES = (Statement, Expression, Block, Argument, Pattern)


def walk(root: Node, descend: Callable[[Node], bool]) -> Iterator[Node]:
    """``root`` and the tree nodes below it, entering a node's children only if ``descend``.

    A hand-written walk: compiled mypy refuses interpreted visitor subclasses.
    """
    pending: list[object] = [root]
    seen: set[int] = set()
    while pending:
        item = pending.pop()
        if isinstance(item, (list, tuple)):
            pending.extend(reversed(item))
            continue
        if not isinstance(item, _TREE_NODES) or id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if item is root or descend(item):
            pending.extend(reversed([getattr(item, name, None) for name in _children(type(item))]))


def _children(cls: type) -> list[str]:
    names = _CHILDREN.get(cls)
    if names is None:
        names = _CHILDREN[cls] = _child_attributes(cls)
    return names


#: Node class -> the attributes holding its children (a per-process cache of types).
_CHILDREN: dict[type, list[str]] = {}


def _child_attributes(cls: type) -> list[str]:
    return [name for name in compat.node_attributes(cls)
            if not name.startswith("_") and name not in _NOT_CHILDREN]


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
