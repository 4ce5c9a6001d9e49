"""The imports ``fix`` adds and removes: placed as isort would, none left unused, idempotent."""

from __future__ import annotations

import ast
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import libcst as cst
import pytest

from mypy_plugin.cli.fix.imports import (
    ImportStyle,
    add_imports,
    import_style,
    remove_unused,
)

RunCli = Callable[..., subprocess.CompletedProcess[str]]
BLACK = ImportStyle(configured=True, line_length=88, multi_line_output=3,
                    include_trailing_comma=True, split_on_trailing_comma=True)


def added(source: str, names: list[str], style: ImportStyle | None = None,
          root: Path | None = None) -> str:
    style = style or ImportStyle()
    if root is not None:
        style = ImportStyle(**{**style.__dict__, "source_root": root})
    return add_imports(cst.parse_module(source), names, style).code


def removed(source: str, names: set[str]) -> str:
    return remove_unused(cst.parse_module(source), names).code


def isort_agrees(text: str, root: Path, **settings: Any) -> None:
    """isort, run for a project at ``root``, leaves ``text`` as it is (skipped without isort)."""
    isort = pytest.importorskip("isort")
    assert isort.code(text, src_paths=(root,), **settings) == text


@pytest.mark.parametrize(("before", "after"), [
    # merged into the existing import, at the sorted place
    ("from proxy_types import FloatProxy, proxy\n",
     "from proxy_types import FloatProxy, is_static_number, proxy\n"),
    # a new third-party import after the standard library, one blank line between
    ("import math\n\n\ndef f() -> None:\n    pass\n",
     "import math\n\nfrom proxy_types import to_static\n\n\ndef f() -> None:\n    pass\n"),
    # among third-party imports: after the plain imports, sorted among the from-imports
    ("from __future__ import annotations\n\nimport numbers\n\nimport torch\n"
     "from zlib_ng import compress\n\nfrom . import sibling\n",
     "from __future__ import annotations\n\nimport numbers\n\nimport torch\n"
     "from proxy_types import to_static\nfrom zlib_ng import compress\n\nfrom . import sibling\n"),
    # no third-party section yet: a new one between the standard library and local imports
    ("import math\n\nfrom . import sibling\n",
     "import math\n\nfrom proxy_types import to_static\n\nfrom . import sibling\n"),
    # no import at all: after the docstring, two blank lines before a definition
    ('"""Doc."""\n\ndef f() -> None:\n    pass\n',
     '"""Doc."""\n\nfrom proxy_types import to_static\n\n\ndef f() -> None:\n    pass\n'),
])
def test_new_names_go_where_isort_puts_them(before: str, after: str, tmp_path: Path) -> None:
    names = ["is_static_number"] if "proxy_types" in before else ["to_static"]
    assert added(before, names, root=tmp_path) == after
    isort_agrees(after, tmp_path)


def test_long_imports_wrap_as_isort_wraps_them(tmp_path: Path) -> None:
    names = ["is_static_number", "is_dynamic_number", "external_isinstance", "NumberClasses",
             "DynamicNumber", "to_static"]
    grid = added("import math\n", names, root=tmp_path)
    assert grid.splitlines()[2].startswith("from proxy_types import (DynamicNumber, ")
    isort_agrees(grid, tmp_path)
    vertical = added("import math\n", names, BLACK, root=tmp_path)
    assert "from proxy_types import (\n    DynamicNumber,\n" in vertical
    isort_agrees(vertical, tmp_path, profile="black")


def test_with_isort_settings_an_existing_import_is_laid_out_again(tmp_path: Path) -> None:
    source = "from proxy_types import (\n    FloatProxy,\n    IntegerProxy,\n)\n"
    kept = added(source, ["to_static"], root=tmp_path)  # no settings: the layout stays
    assert kept == "from proxy_types import (\n    FloatProxy,\n    IntegerProxy,\n    to_static,\n)\n"
    black = added(source, ["to_static"], BLACK, root=tmp_path)
    assert black == kept  # black's magic trailing comma keeps it vertical
    isort_agrees(black, tmp_path, profile="black")
    grid = added("from proxy_types import FloatProxy\n", ["to_static"],
                 ImportStyle(configured=True), root=tmp_path)
    assert grid == "from proxy_types import FloatProxy, to_static\n"


def test_first_party_when_the_project_holds_it(tmp_path: Path) -> None:
    (tmp_path / "proxy_types").mkdir()
    (tmp_path / "mine.py").write_text("x = 1\n", encoding="utf-8")
    text = added("import math\n\nimport torch\n\nfrom mine import x\n", ["to_static"],
                 root=tmp_path)
    assert text == ("import math\n\nimport torch\n\nfrom mine import x\n"
                    "from proxy_types import to_static\n")
    isort_agrees(text, tmp_path)
    (tmp_path / "mine.py").unlink()  # now third party: proxy_types opens a section after it
    assert added("import math\n\nfrom mine import x\n", ["to_static"], root=tmp_path) == (
        "import math\n\nfrom mine import x\n\nfrom proxy_types import to_static\n")


def test_adding_twice_adds_once(tmp_path: Path) -> None:
    once = added("import math\n", ["to_static"], root=tmp_path)
    assert added(once, ["to_static"], root=tmp_path) == once


def test_imports_the_rewrite_took_out_of_use_are_removed() -> None:
    source = ('"""Uses numbers in its docstring only."""\n\nimport numbers\n'
              "from numbers import Integral, Real\n\nimport torch\n\n\n"
              "def f(x: Real) -> bool:\n    return True\n")
    text = removed(source, {"numbers", "Integral", "torch"})
    assert "import numbers\n" not in text
    assert "from numbers import Real\n" in text  # Real is still used
    assert "import torch\n" not in text
    assert isinstance(ast.parse(text), ast.Module)  # still valid


def test_names_still_used_in_strings_keep_their_import() -> None:
    source = ('from numbers import Integral, Real\n\n__all__ = ["Integral"]\n\n\n'
              'def f(x: "Real") -> None:\n    pass\n')
    assert removed(source, {"Integral", "Real"}) == source


def test_comments_above_a_removed_import_stay() -> None:
    source = "import math\n# the numbers tower\nimport numbers\n\nx = math.pi\n"
    assert removed(source, {"numbers"}) == "import math\n# the numbers tower\n\nx = math.pi\n"


def test_project_settings_are_read(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    assert not import_style(tmp_path).configured
    (tmp_path / "pyproject.toml").write_text(
        '[tool.isort]\nprofile = "black"\nknown_first_party = ["mine"]\n', encoding="utf-8")
    style = import_style(tmp_path)
    assert style.configured and style.line_length == 88 and style.multi_line_output == 3
    assert style.known_first_party == {"mine"}
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "setup.cfg").write_text(
        "[isort]\nline_length = 100\nmulti_line_output = VERTICAL_HANGING_INDENT\n",
        encoding="utf-8")
    assert import_style(tmp_path).line_length == 100
    assert import_style(tmp_path).multi_line_output == 3


# -- end to end ----------------------------------------------------------------

PROJECT = {
    "pyproject.toml": '[tool.mypy]\nplugins = ["mypy_plugin"]\n\n[tool.isort]\nprofile = "black"\n',
    "model.py": '''\
"""Sizes and scales of a traced model."""

from __future__ import annotations

import math
import numbers

from proxy_types import FloatProxy, IntegerProxy


def is_constant(x: float | FloatProxy) -> bool:
    return isinstance(x, numbers.Number)


def scale(x: FloatProxy) -> float:
    return math.sqrt(x)


def width(n: IntegerProxy, items: list[str]) -> str:
    return items[n]
''',
}


def unused_imports(text: str) -> set[str]:
    """Module-level imports no name in the module refers to."""
    tree = ast.parse(text)
    bound: dict[str, ast.stmt] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            bound.update({(a.asname or a.name).split(".")[0]: node for a in node.names})
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            bound.update({a.asname or a.name: node for a in node.names})
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return set(bound) - used


def test_fix_leaves_isort_clean_code_without_unused_imports_and_is_idempotent(
    tmp_path: Path, run_cli: RunCli
) -> None:
    for name, text in PROJECT.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / ".git").mkdir()
    first = run_cli("fix", ".", cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    fixed = (tmp_path / "model.py").read_text(encoding="utf-8")
    assert "import numbers" not in fixed  # its one use became is_static_number()
    assert "from proxy_types import FloatProxy, IntegerProxy, is_static_number, to_static\n" \
        in fixed
    assert unused_imports(fixed) == set()
    second = run_cli("fix", ".", cwd=tmp_path)
    assert second.stdout.startswith("proxy-types fix: 0 files changed\n"), second.stdout
    assert (tmp_path / "model.py").read_text(encoding="utf-8") == fixed
    isort_agrees(PROJECT["model.py"], tmp_path, profile="black")
    isort_agrees(fixed, tmp_path, profile="black")


def test_force_single_line_gives_one_statement_per_name(tmp_path: Path) -> None:
    single = ImportStyle(configured=True, force_single_line=True, source_root=tmp_path)
    text = add_imports(cst.parse_module('"""Doc."""\n\nx = 1\n'),
                       ["to_static", "is_static_number"], single).code
    assert text == ('"""Doc."""\n\nfrom proxy_types import is_static_number\n'
                    "from proxy_types import to_static\n\nx = 1\n")
    isort_agrees(text, tmp_path, force_single_line=True)


def test_removing_the_first_line_import_leaves_no_leading_blank_line() -> None:
    source = "import numbers\n\n\ndef f(x: int) -> int:\n    return x\n"
    assert removed(source, {"numbers"}) == "def f(x: int) -> int:\n    return x\n"
    commented = "# why this import\nimport numbers\n\nx = 1\n"
    assert removed(commented, {"numbers"}) == "# why this import\nx = 1\n"
    later = '"""Doc."""\nimport numbers\n\nx = 1\n'
    assert removed(later, {"numbers"}) == '"""Doc."""\n\nx = 1\n'  # not the first line: kept
