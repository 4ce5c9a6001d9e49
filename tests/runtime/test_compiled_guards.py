"""The compiled guards (proxy_types/_speedups.c), built here with the real compiler.

A copy of the package with the extension built next to it runs in a
subprocess: the whole guard suite passes against it, and it takes its
argument, names its errors and documents itself like the pure-Python guards.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def compiled_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding a copy of proxy_types with ``_speedups`` compiled into it."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}): the compiled guards cannot be built here")
    root = tmp_path_factory.mktemp("compiled")
    built = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(root / "lib"),
         "--build-temp", str(root / "temp")],
        cwd=REPO, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    (extension,) = (root / "lib" / "proxy_types").glob("_speedups*")
    for source in (REPO / "proxy_types").iterdir():
        if source.suffix == ".py" or source.name == "py.typed":
            shutil.copy2(source, extension.parent / source.name)
    return root / "lib"


def run_python(code: str, cwd: Path) -> str:
    completed = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                               text=True, check=False, env={**os.environ, "PYTHONPATH": str(cwd)})
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def python_docstrings() -> dict[str, str]:
    """The pure-Python guards' docstrings, read from the source."""
    tree = ast.parse((REPO / "proxy_types" / "_guards.py").read_text(encoding="utf-8"))
    return {node.name: ast.get_docstring(node) or "" for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_number")}


def test_the_copy_uses_the_compiled_guards(compiled_package: Path) -> None:
    found = run_python("import proxy_types as p; print(p.__file__); "
                       "print(type(p.is_static_number).__name__, type(p.is_dynamic_number).__name__)",
                       compiled_package).splitlines()
    assert found[0].startswith(str(compiled_package))
    assert found[1] == "builtin_function_or_method builtin_function_or_method"
    # The checkout itself, never built in place by the tests, keeps its own guards.
    here = run_python("import proxy_types as p; print(p.__file__)", REPO)
    assert here.startswith(str(REPO))


def test_guard_suite_passes_with_the_compiled_guards(compiled_package: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         str(REPO / "tests" / "runtime" / "test_guards.py")],
        cwd=compiled_package, capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": str(compiled_package)})
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-2000:]
    assert " passed" in completed.stdout and " failed" not in completed.stdout


def test_compiled_guards_take_x_like_the_python_ones(compiled_package: Path) -> None:
    code = """
import inspect, proxy_types as p
for guard in (p.is_static_number, p.is_dynamic_number):
    print(guard.__name__, inspect.signature(guard), repr(inspect.getdoc(guard)))
print(p.is_static_number(x=2.5), p.is_dynamic_number(x=2.5), p.is_dynamic_number(p.IntegerProxy("n", 1)))
for call in (lambda: p.is_static_number(1, 2), lambda: p.is_static_number(y=1),
             lambda: p.is_dynamic_number()):
    try:
        call()
    except TypeError as error:
        print(error)
"""
    lines = run_python(code, compiled_package).splitlines()
    docs = python_docstrings()
    assert lines[:2] == [f"{name} (x) {docs[name]!r}"
                         for name in ("is_static_number", "is_dynamic_number")]
    assert lines[2:] == [
        "True False True",
        "is_static_number() takes exactly one argument (x), got 2",
        "is_static_number() got an unexpected keyword argument 'y'",
        "is_dynamic_number() takes exactly one argument (x), got 0",
    ]


def test_compiled_guards_refuse_to_run_without_their_tables(compiled_package: Path) -> None:
    # Loaded alone, before proxy_types has installed its dicts and classify.
    (extension,) = (compiled_package / "proxy_types").glob("_speedups*")
    code = f"""
import importlib.machinery, importlib.util
loader = importlib.machinery.ExtensionFileLoader("_speedups", {str(extension)!r})
module = importlib.util.module_from_spec(importlib.util.spec_from_loader("_speedups", loader))
for call in (lambda: module.is_static_number(1), lambda: module.install({{}}, [], len),
             lambda: module.install({{}}, {{}}, 3)):
    try:
        call()
    except (RuntimeError, TypeError) as error:
        print(type(error).__name__, error)
module.install({{}}, {{}}, lambda cls: None)
try:
    module.is_static_number(1)
except TypeError as error:
    print(error)
module.install({{int: True}}, {{}}, lambda cls: (False, cls is float))
print(module.is_static_number(1), module.is_dynamic_number(2.5), module.is_dynamic_number("s"))
"""
    assert run_python(code, compiled_package).splitlines() == [
        "RuntimeError proxy_types._speedups: install() has not been called",
        "TypeError install() argument 2 must be dict, not list",
        "TypeError install: classify must be callable",
        "proxy_types._speedups: classify must return a pair of bools",
        "True True False",
    ]
