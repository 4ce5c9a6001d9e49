"""Merging only the names a branch bound gives what merging every name gives.

:class:`FunctionWalk` merges, at the end of an ``if``, loop, ``try`` or ``match``,
only the names bound since it started (issue #29: merging every local at each
``if`` made a long function quadratic).  Checked against the full merge on real
mypy trees.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest
from mypy.nodes import FuncDef

from mypy_plugin.analysis import reaching
from mypy_plugin.analysis.reaching import Binding, Env, FunctionWalk
from tests.plugin.trees import analyzed_tree

SOURCE = '''\
import re

def branches(n: int, m: int, flag: bool, items: list[int]) -> int:
    x = n
    y = 0
    if n > 0:
        x = m
    elif (z := n + 1) > 2:
        y = z
    else:
        y += m
    for item in items:
        if item:
            x += item
            break
        y = item
    else:
        x = 1
    while n > 0:
        n -= 1
        if flag:
            continue
        m = n
    try:
        w = int(x)
    except ValueError as error:
        w = y
    finally:
        x = w
    match x:
        case 1:
            y = m
        case [first, *rest]:
            y = first
    if isinstance(x, int):
        y = x
    with open("f") as handle:
        x = len(handle.read())
    return x + y + m + n + w


def nested(n: int) -> int:
    total = 0
    for i in range(n):
        for j in range(i):
            if i > j:
                total += i
            elif j:
                total = j
        else:
            total -= 1
    return total
'''


def full_merge(envs: Iterable[Env | None], base: Env | None = None,
               changed: Iterable[str] | None = None) -> Env | None:
    """The merge of every name of every env, as before issue #29."""
    return _merge(envs)


_merge = reaching.merge


def reads_of(function: FuncDef) -> dict[tuple[str, int, int], Binding]:
    walk = FunctionWalk(function, lambda check: (set(), set()))
    return {(read.name, read.line, read.column): binding
            for read, binding in walk.reads.items()}


def functions(tmp_path: Path) -> list[FuncDef]:
    tree = analyzed_tree(tmp_path, SOURCE, python_version=(3, 11))
    found = [node for node in tree.defs if isinstance(node, FuncDef)]
    assert [function.name for function in found] == ["branches", "nested"]
    return found


def test_merging_changed_names_equals_merging_every_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trees = functions(tmp_path)
    changed_only = [reads_of(function) for function in trees]
    monkeypatch.setattr(reaching, "merge", full_merge)
    every_name = [reads_of(function) for function in trees]
    assert changed_only == every_name
    # The walk found reads with several definitions (the merges did something).
    assert any(len(binding.definitions) > 1 for reads in changed_only
               for binding in reads.values())


def test_a_merge_with_a_base_looks_only_at_the_changed_names() -> None:
    unchanged = Binding(frozenset({reaching.UNKNOWN}))
    base = {"a": unchanged, "b": unchanged}
    left = dict(base, b=Binding(frozenset({reaching.Param("n")})))
    right = dict(base, a=Binding(frozenset({reaching.Param("m")})))  # "a" not announced
    merged = reaching.merge([left, right], base, ["b"])
    assert merged is not None
    assert merged["a"] is unchanged  # taken from the base: "a" was not said to change
    assert merged["b"].definitions == frozenset({reaching.UNKNOWN, reaching.Param("n")})
    full = reaching.merge([left, right])
    assert full is not None and full["a"].definitions == frozenset(
        {reaching.UNKNOWN, reaching.Param("m")})
