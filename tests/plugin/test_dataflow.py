"""The control-flow rules of the one dataflow walk, through both analyses plugged into it.

Each case is where the two walks that came before it (reaching definitions, and
repeated guards) followed different rules; the answer is what Python does at run
time (issue #26, item 3).  Real mypy trees, no plugin.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy.nodes import CallExpr, Expression, FuncDef, MypyFile, NameExpr, RefExpr

from mypy_plugin.analysis.dataflow import Dataflow
from mypy_plugin.analysis.decided import DecidedWalk
from mypy_plugin.analysis.reaching import Assigned, FunctionWalk, Param, Unknown
from tests.plugin.trees import analyzed_tree

SOURCE = '''\
def f() -> int: return 1
def g() -> None: pass

def all_branches(p: int, q: int) -> None:
    if q:
        assert p == 2
    else:
        assert p == 2
    if p == 2:  # repeats: both branches compared p with 2
        pass

def rebound_in_loop(p: int, q: int) -> None:
    if p == 1:
        pass
    while q:
        if p == 1:  # not a repeat: from the second round on, p is q
            pass
        p = q

def handler(p: int) -> None:
    if p == 1:
        pass
    try:
        if p == 1:  # repeats: the body starts where the try does
            pass
        p = f()
        g()
    except ValueError:
        if p == 1:  # not a repeat: g() may raise after p was rebound
            pass

def assert_message(p: int, q: int) -> None:
    assert q, int(p)
    int(p)  # not a repeat: the message runs only where the assert raises

def returned(p: int, q: int) -> None:
    if p == 1:
        pass
    if q:
        p = q
        return
    if p == 1:  # repeats: the path that rebound p returned
        pass

def reaching_handler(n: int) -> int:
    x = 0  # handler: before
    try:
        x = n  # handler: first
        x = int(str(x))  # handler: last
    except ValueError:
        return x  # n, if int() raised
    return x  # handler: completed

def reaching_finally(n: int, m: int) -> int:
    x = n + m  # finally: before
    try:
        x = 0  # finally: body
        g()
    finally:
        print(x)  # finally runs on any exit: g() may raise
    return x  # the try completed

def interleaved(f: str) -> None:
    with open(f) as f, open(f) as g:  # the second f is the first file
        pass

def message(x: object) -> None:
    assert not isinstance(x, int), x  # the message runs where x is an int
'''


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FuncDef]:
    tree: MypyFile = analyzed_tree(tmp_path_factory.mktemp("dataflow"), SOURCE,
                                   python_version=(3, 11))
    return {node.name: node for node in tree.defs if isinstance(node, FuncDef)}


def repeated_lines(function: FuncDef) -> list[int]:
    return sorted(expr.line for expr in DecidedWalk(function).decided)


def _isinstance_narrows(check: Expression) -> tuple[set[str], set[str]]:
    """``isinstance(x, ...)`` true: x is static (what the plugin says for int)."""
    if isinstance(check, CallExpr) and isinstance(check.callee, RefExpr) \
            and check.callee.fullname == "builtins.isinstance" \
            and isinstance(check.args[0], NameExpr):
        return {check.args[0].name}, set()
    return set(), set()


def line(fragment: str) -> int:
    """The line of SOURCE holding ``fragment`` (once)."""
    found = [number for number, text in enumerate(SOURCE.splitlines(), start=1)
             if fragment in text]
    assert len(found) == 1, fragment
    return found[0]


def reads(function: FuncDef, at: int, name: str) -> list[list[tuple[str, int]]]:
    """What each read of ``name`` on line ``at`` may hold, left to right: (kind, line
    of the value) for each definition."""
    walk = FunctionWalk(function, _isinstance_narrows)
    found = sorted((read.column, binding) for read, binding in walk.reads.items()
                   if read.line == at and read.name == name)
    assert found, (at, name)
    return [sorted((type(definition).__name__,
                    definition.expr.line if isinstance(definition, Assigned) else 0)
                   for definition in binding.definitions) for _, binding in found]


def test_both_analyses_are_rules_of_one_walk() -> None:
    assert issubclass(FunctionWalk, Dataflow) and issubclass(DecidedWalk, Dataflow)
    assert "_statement" not in vars(FunctionWalk) and "_statement" not in vars(DecidedWalk)


def test_guards_on_every_path_meet_after_an_if(functions: dict[str, FuncDef]) -> None:
    assert repeated_lines(functions["all_branches"]) == [line("both branches compared")]


def test_a_loop_body_is_answered_by_its_last_round(functions: dict[str, FuncDef]) -> None:
    # The first round starts where p == 1 was known; the loop rebinds p.
    assert repeated_lines(functions["rebound_in_loop"]) == []


def test_a_handler_starts_anywhere_in_the_try_body(functions: dict[str, FuncDef]) -> None:
    assert repeated_lines(functions["handler"]) == [line("the body starts where")]
    handler = functions["reaching_handler"]
    values = [("Assigned", line(f"handler: {which}")) for which in ("before", "first", "last")]
    assert reads(handler, line("if int() raised"), "x") == [values]
    assert reads(handler, line("handler: completed"), "x") == [values[2:]]


def test_an_assert_message_runs_only_where_it_fails(functions: dict[str, FuncDef]) -> None:
    assert repeated_lines(functions["assert_message"]) == []
    walk = FunctionWalk(functions["message"], _isinstance_narrows)
    test, shown = [binding for _, binding in sorted(
        (read.column, binding) for read, binding in walk.reads.items()
        if read.line == line("the message runs where"))]
    assert not test.static and shown.static
    assert shown.definitions == frozenset({Param("x")})


def test_a_returning_branch_does_not_meet_the_rest(functions: dict[str, FuncDef]) -> None:
    assert repeated_lines(functions["returned"]) == [line("the path that rebound p")]


def test_finally_runs_on_every_exit_and_the_code_after_it_on_completion(
    functions: dict[str, FuncDef]
) -> None:
    function = functions["reaching_finally"]
    before, inside = ("Assigned", line("finally: before")), ("Assigned", line("finally: body"))
    assert reads(function, line("finally runs on any exit"), "x") == [[before, inside]]
    assert reads(function, line("the try completed"), "x") == [[inside]]


def test_with_binds_each_target_before_the_next_manager(
    functions: dict[str, FuncDef]
) -> None:
    assert reads(functions["interleaved"], line("the second f is"), "f") == [
        [("Param", 0)], [(Unknown.__name__, 0)]]


WHILE_SOURCE = '''\
def first_test(f: float) -> None:
    while f != 1.0:  # the first test of f: no repeat
        break

def rebinding(p: int) -> None:
    if p == 1:
        pass
    while p == 1:  # on a later round p is 2: not a repeat there, so not one at all
        p = 2

def keeping(p: int) -> None:
    if p == 1:
        pass
    while p == 1:  # repeats the if's test on every round
        break
'''


def test_a_while_test_runs_once_per_round(tmp_path: Path) -> None:
    tree = analyzed_tree(tmp_path, WHILE_SOURCE, python_version=(3, 11))
    found = {node.name: repeated_lines(node) for node in tree.defs if isinstance(node, FuncDef)}
    repeats = [number for number, text in enumerate(WHILE_SOURCE.splitlines(), start=1)
               if "repeats the if's test" in text]
    assert found == {"first_test": [], "rebinding": [], "keeping": repeats}
