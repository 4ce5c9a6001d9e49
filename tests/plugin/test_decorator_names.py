"""``traced_functions = @pkg.deco`` matches the decorator by the name users import it by.

JAX defines ``jit`` in ``jax._src.api`` and re-exports it as ``jax.jit``; the jax
preset says ``@jax.jit``.  A stand-in package with the same layout: the public name
must match written ``@pkg.jit``, ``from pkg import jit`` (also renamed), and the
defining module's name must still match; a look-alike of another module must not.
"""

from __future__ import annotations

import os
from pathlib import Path

from mypy import api

REPO = Path(__file__).resolve().parents[2]

PACKAGE = {
    "fakejax/__init__.py": "from fakejax._src.api import jit as jit\n",
    "fakejax/_src/__init__.py": "",
    "fakejax/_src/api.py": "from typing import TypeVar\n\nF = TypeVar('F')\n\n\n"
                           "def jit(function: F) -> F:\n    return function\n",
    "fakejax/core.py": "class Tracer:\n    pass\n",
    "other.py": "from typing import TypeVar\n\nF = TypeVar('F')\n\n\n"
                "def jit(function: F) -> F:\n    return function\n",
}

APP = """\
import fakejax
import fakejax._src.api
from fakejax import jit
from fakejax import jit as compile_it
from other import jit as other_jit


@fakejax.jit
def spelled(n: int) -> int:
    return int(n)


@jit
def imported(n: int) -> int:
    return int(n)


@compile_it
def renamed(n: int) -> int:
    return int(n)


@fakejax._src.api.jit
def defined(n: int) -> int:
    return int(n)


@other_jit
def look_alike(n: int) -> int:
    return int(n)


def plain(n: int) -> int:
    return int(n)
"""


def reported_functions(tmp_path: Path, pattern: str) -> list[str]:
    for name, text in {**PACKAGE, "app.py": APP}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n\n"
        "[mypy.plugins.proxy_types]\ndynamic_number_classes = fakejax.core.Tracer\n"
        f"traced_functions = {pattern}\n", encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        stdout, stderr, _ = api.run(["--config-file", "mypy.ini", "--cache-dir",
                                     str(tmp_path / "cache"), "--no-error-summary", "app.py"])
    finally:
        os.chdir(cwd)
    assert stderr == ""
    lines = APP.splitlines()
    reported = [int(line.split(":")[1]) for line in stdout.splitlines()
                if line.endswith("[proxy-concretize]")]
    # each report is on "return int(n)", the line below its function's def
    return [lines[number - 2].split("(")[0].removeprefix("def ") for number in reported]


def test_the_public_name_matches_however_it_is_imported(tmp_path: Path) -> None:
    # written by its defining module's name, it is not the public name
    assert reported_functions(tmp_path, "@fakejax.jit") == ["spelled", "imported", "renamed"]


def test_the_defining_name_matches_too(tmp_path: Path) -> None:
    assert reported_functions(tmp_path, "@fakejax._src.api.jit") == [
        "spelled", "imported", "renamed", "defined"]


def test_a_look_alike_and_an_undecorated_function_are_not_traced(tmp_path: Path) -> None:
    assert reported_functions(tmp_path, "@other.jit") == ["look_alike"]
