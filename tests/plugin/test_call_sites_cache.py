"""Call-site reports on a warm cache: a callee mypy loads from its cache keeps no
``FuncDef.arguments``, only ``arg_names``; the duplicate rule must read those and give
the cold run's answer."""

from __future__ import annotations

import os
from pathlib import Path

from mypy import api

REPO = Path(__file__).resolve().parents[2]

HELPERS = '''from symbols import Sym


def declared_maybe_dynamic(value: int | Sym) -> int:
    return int(value)


def forwards_to_declared(value: int) -> int:
    return declared_maybe_dynamic(value)  # type: ignore[arg-type]


def converts(value: int) -> int:
    return int(value)


def declared_positional(value: int | Sym, /) -> int:
    return int(value)


def forwards_positional(value: int, /) -> int:
    return declared_positional(value)  # type: ignore[arg-type]


def converts_positional(value: int, /) -> int:
    return int(value)
'''

CALLER = '''from helpers import converts, converts_positional, forwards_positional, forwards_to_declared
from symbols import Sym


def use(s: Sym) -> None:
    forwards_to_declared(s)  # type: ignore[arg-type]
    converts(s)  # type: ignore[arg-type, proxy-concretize]
    forwards_positional(s)  # type: ignore[arg-type]
    converts_positional(s)  # type: ignore[arg-type, proxy-concretize]
'''


def run(project: Path) -> list[str]:
    cwd = os.getcwd()
    os.chdir(project)
    try:
        stdout, stderr, status = api.run(["--config-file", "mypy.ini", "--show-error-codes",
                                          "--warn-unused-ignores", "--no-error-summary",
                                          "main.py", "helpers.py"])
    finally:
        os.chdir(cwd)
    assert status in (0, 1) and "Traceback" not in stdout + stderr, (stdout, stderr)
    assert "[proxy-internal]" not in stdout, stdout
    return [line for line in stdout.splitlines() if line.startswith("main.py") and ": error: " in line]


def test_the_duplicate_rule_reads_a_cached_callee_as_a_fresh_one(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n"
        "[mypy.plugins.proxy_types]\ndynamic_number_classes = symbols.Sym\n")
    (tmp_path / "symbols.py").write_text("class Sym:\n    def __int__(self) -> int:\n"
                                         "        return 0\n")
    (tmp_path / "helpers.py").write_text(HELPERS)
    (tmp_path / "main.py").write_text(CALLER)
    cold = run(tmp_path)
    # converts() is reported at the call (its ignore is used); forwards_to_declared()
    # is not: declared_maybe_dynamic reports its own int().  An unused ignore or a
    # report at line 6 would show here.  The same for positional-only parameters,
    # which mypy's cache names None (lines 8 and 9).
    assert cold == []
    (tmp_path / "main.py").write_text(CALLER + "\n\n# an edit: main.py is checked again,"
                                               " helpers.py comes from the cache\n")
    assert run(tmp_path) == cold
    (tmp_path / "main.py").write_text(CALLER.replace("  # type: ignore[arg-type, proxy-concretize]",
                                                     "  # type: ignore[arg-type]", 1))
    shown = run(tmp_path)
    assert len(shown) == 1 and shown[0].startswith("main.py:7: error: converts(): argument")
    (tmp_path / "main.py").write_text(CALLER.replace(
        "converts_positional(s)  # type: ignore[arg-type, proxy-concretize]",
        "converts_positional(s)  # type: ignore[arg-type]") + "\n")  # a new size: mypy
    # trusts a cached file of the same size and modification second
    shown = run(tmp_path)
    assert len(shown) == 1 and shown[0].startswith(
        "main.py:9: error: converts_positional(): argument"), shown
