"""conditions.BooleanContexts walks only the top-level statements that hold a comparison."""

from __future__ import annotations

import ast
import textwrap

from mypy.errors import Errors
from mypy.nodes import Context, MypyFile
from mypy.options import Options
from mypy.parse import parse

from mypy_plugin.checks.comparisons import BooleanContexts

SOURCE = textwrap.dedent(
    """\
    def first(p):
        return p > 0

    @decorate(p > 5 if p else None)
    def second(p):
        if p > 1:
            pass

    x = 1; y = 2 if x > 3 else 4
    """
)


def parsed(source: str) -> MypyFile:
    options = Options()
    tree = parse(source, "walked.py", "walked", Errors(options), options, eager=True)
    tree._fullname = "walked"  # what mypy's build sets after parsing
    return tree


def comparison(source: str, text: str) -> Context:
    """A context at the span of the comparison written as ``text`` in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and ast.unparse(node) == text:
            context = Context()
            context.set_line(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
            return context
    raise AssertionError(f"no comparison {text!r}")


def walked_statements(contexts: BooleanContexts, tree: MypyFile) -> int:
    return len(contexts._cache[tree.fullname]._spans)


def test_only_the_statement_holding_the_comparison_is_walked() -> None:
    tree, contexts = parsed(SOURCE), BooleanContexts()
    assert contexts.is_tested(tree, comparison(SOURCE, "p > 1")) is True
    assert walked_statements(contexts, tree) == 1
    assert contexts.is_tested(tree, comparison(SOURCE, "p > 0")) is False
    assert walked_statements(contexts, tree) == 2


def test_decorators_and_shared_lines_belong_to_their_statements() -> None:
    tree, contexts = parsed(SOURCE), BooleanContexts()
    assert contexts.is_tested(tree, comparison(SOURCE, "p > 5")) is False
    assert contexts.is_tested(tree, comparison(SOURCE, "x > 3")) is True
    # The decorated function, then both statements of the shared line.
    assert walked_statements(contexts, tree) == 3


def test_a_node_outside_every_statement_falls_back_to_the_whole_module() -> None:
    tree, contexts = parsed(SOURCE), BooleanContexts()
    elsewhere = Context()
    elsewhere.set_line(100, 0, 100, 5)
    assert contexts.is_tested(tree, elsewhere) is False
    assert walked_statements(contexts, tree) == len(tree.defs) == 4


def test_a_changed_tree_is_walked_again() -> None:
    contexts = BooleanContexts()
    before = parsed(SOURCE)
    assert contexts.is_tested(before, comparison(SOURCE, "p > 0")) is False
    changed = SOURCE.replace("return p > 0", "assert p > 0")
    after = parsed(changed)
    assert contexts.is_tested(after, comparison(changed, "p > 0")) is True
