"""The plugin's one tree walk reaches every node mypy's own traverser reaches.

mypy's ``ExtendedTraverserVisitor`` is the reference: a program with every kind
of statement and expression is analyzed by a real mypy build, then both walks
run over its tree.  A node class the walk misses would hide the checks that
look for it (conditions, casts, flow).
"""

from __future__ import annotations

import inspect
import textwrap
from pathlib import Path

import mypy.nodes
import mypy.patterns
import pytest
from mypy.nodes import Expression, MypyFile, Node, Statement
from mypy.patterns import Pattern
from mypy.server.subexpr import get_subexpressions

from mypy_plugin.analysis.walk import everywhere, walk
from tests.plugin.trees import analyzed_tree

PROGRAM = textwrap.dedent('''
    from __future__ import annotations
    import math
    from math import *
    import typing as t
    from typing import Any, NamedTuple, TypedDict, TypeVar, cast, overload, reveal_type
    from enum import Enum

    T = TypeVar("T")
    Alias = t.Union[int, str]
    type Pair = tuple[int, int]

    class Point(NamedTuple):
        x: int

    class Movie(TypedDict):
        name: str

    class Color(Enum):
        RED = 1

    def generic[U](value: U) -> U:
        return value

    @overload
    def f(x: int) -> int: ...
    @overload
    def f(x: str) -> str: ...
    def f(x: int | str) -> int | str:
        return x

    class C:
        attr: int = 0

        @property
        def p(self) -> int:
            return self.attr

        def m(self, *args: int, **kwargs: str) -> None:
            super().__init__()
            global G
            nonlocal_box = [0]

            def inner() -> None:
                nonlocal nonlocal_box
                nonlocal_box = [1]

    G = 0

    async def coro(xs: t.AsyncIterator[int]) -> None:
        async for x in xs:
            await coro(xs)
        async with t.cast(t.Any, None) as ctx:
            pass

    def gen() -> t.Iterator[int]:
        yield 1
        yield from [2]

    def everything(n: int, s: str, xs: list[int], d: dict[str, int], o: object) -> Any:
        a, *b = xs
        a += 1
        c: int = -n if n > 0 and not s else ~n
        e = [i for i in xs if i if i > 0]
        f2 = {i for i in xs}
        g = {k: v for k, v in d.items()}
        h = (i for i in xs)
        lam = lambda q=1: q * 2
        sl = xs[1:2:1]
        tup = (1, 2.5, 3j, "s", b"b", ..., None, True)
        walrus = (y := n)
        fs = f"{n:>{n}} {s!r}"
        st = {*xs, 1}
        dl = {**d, "k": 1}
        call = math.floor(n, *xs, key=1, **d)
        casted = cast(int, o)
        rev = reveal_type(n) if False else 0
        deleted = [1]
        del deleted[0]
        assert n, "message"
        try:
            raise ValueError("x") from None
        except* ValueError as group:
            pass
        try:
            pass
        except (KeyError, IndexError) as error:
            pass
        else:
            pass
        finally:
            pass
        with open(s) as fh, open(s) as gh:
            pass
        while n:
            n -= 1
            if n == 3:
                continue
            elif n == 2:
                break
        else:
            pass
        for i, j in enumerate(xs):
            pass
        match o:
            case 1 | 2:
                pass
            case [first, *rest]:
                pass
            case {"k": value, **others}:
                pass
            case Point(x=px) if px > 0:
                pass
            case str() as text:
                pass
            case None:
                pass
            case _:
                pass
        print(s, file=None) if s else exec("pass")
        return n is not None and n in xs
''')


def _walked(tree: MypyFile) -> list[Node]:
    return [node for statement in tree.defs for node in walk(statement, everywhere)]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> MypyFile:
    return analyzed_tree(tmp_path_factory.mktemp("walk"), PROGRAM, python_version=(3, 12))


def _tree_classes(module: object, bases: tuple[type, ...]) -> set[type]:
    return {
        cls for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, bases) and cls not in bases and cls.__module__ == module.__name__  # type: ignore[attr-defined]
    }


def test_walk_reaches_every_expression_mypy_finds(tree: MypyFile) -> None:
    reference = get_subexpressions(tree)  # mypy's own, for fine-grained mode
    assert len(reference) > 200
    ours = {id(node) for node in _walked(tree)}
    missed = sorted({type(node).__name__ for node in reference if id(node) not in ours})
    assert missed == []


def test_program_covers_every_node_class_the_parser_makes(tree: MypyFile) -> None:
    """The test above is only as good as the program: it must hold every kind of node."""
    seen = {type(node) for node in _walked(tree)}
    classes = _tree_classes(mypy.nodes, (Statement, Expression)) | _tree_classes(
        mypy.patterns, (Pattern,))
    # Made by mypy's later passes or by plugins, never for source code as written;
    # or abstract bases that only their subclasses instantiate.
    never_in_a_checked_tree = {
        "TempNode", "PlaceholderNode", "EnumCallExpr", "NewTypeExpr", "PromoteExpr",
        "TypeVarExpr", "ParamSpecExpr", "TypeVarTupleExpr", "TypeAliasExpr", "NamedTupleExpr",
        "TypedDictExpr", "TypeApplication", "AssertTypeExpr", "TypeFormExpr", "RefExpr",
        "TypeVarLikeExpr", "BackquoteExpr", "ExecStmt", "PrintStmt", "FuncItem",
        "FakeExpression",  # mypy's own stand-in while it analyzes a type
        "TemplateStrExpr",  # t-strings: Python 3.14 syntax
        "SymbolNode", "ImportBase", "Lvalue", "LambdaExpr", "AwaitExpr", "SuperExpr",
    }
    missing = sorted(cls.__name__ for cls in classes - seen
                     if cls.__name__ not in never_in_a_checked_tree)
    assert missing == []


def test_walk_skips_subtrees_it_is_told_to_skip(tree: MypyFile) -> None:
    function = next(d for d in tree.defs if getattr(d, "name", "") == "everything")
    everything = list(walk(function, everywhere))
    top_level = list(walk(function, lambda node: False))
    assert len(top_level) < len(everything)
    assert top_level[0] is function
    assert set(map(id, top_level)) <= set(map(id, everything))


def test_a_long_block_lists_each_statement_once_in_order(tmp_path: Path) -> None:
    """A body of thousands of statements is deduplicated by id, not by a list scan."""
    from mypy.nodes import FuncDef

    from mypy_plugin.analysis.walk import children

    count = 300
    source = "def long(n: int) -> None:\n" + "".join(
        f"    value{index} = n + {index}\n" for index in range(count))
    (function,) = [node for node in analyzed_tree(tmp_path, source).defs
                   if isinstance(node, FuncDef)]
    below = children(function.body)
    assert below == function.body.body and len(below) == count
    assert children(function)[-1] is function.body
def test_why_the_walk_is_hand_written() -> None:
    """Compiled mypy lets Python subclass its visitors but not instantiate the subclass
    (the reason walk.py walks by hand); an interpreted mypy would allow both."""
    import mypy.traverser
    from mypy.traverser import TraverserVisitor

    class Names(TraverserVisitor):
        pass

    compiled = not mypy.traverser.__file__.endswith(".py")
    if compiled:
        with pytest.raises(TypeError, match="interpreted classes cannot inherit from compiled"):
            Names()
    else:
        assert isinstance(Names(), TraverserVisitor)
