"""Return-value summaries (mypy_plugin/analysis/returns.py) on a real mypy build."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from mypy import build
from mypy.modulefinder import BuildSource
from mypy.nodes import MypyFile
from mypy.options import Options

from mypy_plugin.analysis.flow import new_returns
from mypy_plugin.analysis.returns import Origin, Returns, Value
from mypy_plugin.analysis.summaries import target_of

SIZES = '''
def scaled(n: int) -> int:
    doubled = n * 2
    return doubled + 1


def first(sizes: list[int]) -> int:
    return sizes[0]


def packed(n: int) -> list[int]:
    return [scaled(n)]


def constant(n: int) -> int:
    return 8


def recursive(n: int) -> int:
    return recursive(n - 1) if n else n
'''

TEXT = '''
def label(n: int) -> str:
    return str(n)
'''


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> Mapping[str, MypyFile]:
    root = tmp_path_factory.mktemp("returns")
    (root / "sizes.py").write_text(SIZES)
    (root / "text.py").write_text(TEXT)
    options = Options()
    options.incremental = False
    sources = [BuildSource(str(root / name), name[:-3]) for name in ("sizes.py", "text.py")]
    result = build.build(sources, options)
    assert not result.errors, result.errors
    return result.files


def returned(returns: Returns, modules: Mapping[str, MypyFile], module: str,
             name: str) -> Value:
    symbol = modules[module].names[name]
    target = target_of(symbol.node, modules)
    assert target is not None
    return returns.returned(target, modules)


@pytest.mark.parametrize(("name", "expected"), [
    ("scaled", {Origin("parameter", "n"): frozenset({0})}),  # through a local name
    ("first", {Origin("parameter", "sizes"): frozenset({-1})}),  # an item of the parameter
    ("packed", {Origin("parameter", "n"): frozenset({1})}),  # through a callee, into a list
    ("constant", {}),
    ("recursive", {Origin("parameter", "n"): frozenset({0})}),  # a fixed point from below
])
def test_what_a_function_returns(modules: Mapping[str, MypyFile], name: str,
                                 expected: Value) -> None:
    assert returned(new_returns(), modules, "sizes", name) == expected


def test_a_function_returning_no_number_is_not_read(modules: Mapping[str, MypyFile]) -> None:
    returns = new_returns()
    assert returned(returns, modules, "text", "label") == {}
    parsed = set(returns.summaries._trees)
    assert not any(Path(path).name == "text.py" for path in parsed), parsed
    returned(returns, modules, "sizes", "scaled")
    assert any(Path(path).name == "sizes.py" for path in returns.summaries._trees)
