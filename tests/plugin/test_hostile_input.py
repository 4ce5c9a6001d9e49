"""Bad input, tried systematically (issue #15): generated source and every config key.

Source: hypothesis composes programs from the constructs the checks look at
(isinstance with odd class arguments, casts, conversions, conditions, lambdas
in overloaded calls, class bases...), nested at random, and hypothesmith adds
programs drawn from Python's grammar.  mypy runs the plugin on each with
``PROXY_TYPES_DEBUG=1``: any error inside a check crashes the run, so "no
crash" also means "no internal-error line".

Config: each key of ``ProxyTypesConfig.KEYS`` (new keys included) gets values
of every wrong type, empty ones and duplicates; the answer is either accepted
or one line naming the key.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import hypothesmith
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mypy import api

from mypy_plugin.config import ProxyTypesConfig
from proxy_types import ConfigurationError

REPO = Path(__file__).resolve().parents[2]

HEADER = """\
from __future__ import annotations
import math, numbers, operator
from typing import Any, Callable, cast, overload
from proxy_types import BoolProxy, FloatProxy, IntegerProxy, NumberProxy
"""
PARAMETERS = ("p: IntegerProxy, f: FloatProxy, b: BoolProxy, n: int, x: Any, o: object, "
              "xs: list[int | IntegerProxy], fs: list[float | FloatProxy]")

NAMES = st.sampled_from(["p", "f", "b", "n", "x", "o", "xs", "fs", "v", "1", "2.5", "True",
                         "None", "-p", "p + 1", "f * f", "xs[0]", "len(xs)"])
CLASSES = st.sampled_from([
    "int", "float", "bool", "complex", "numbers.Number", "numbers.Integral", "(int, float)",
    "int | float", "(int, (float, bool))", "((int,), (float,))", "IntegerProxy",
    "(int, IntegerProxy)", "type(p)", "type(x)", "object", "x", "(int, x)", "()", "str",
])
TARGETS = st.sampled_from(["int", "float", "int | None", "'int'", "Any", "list[int]",
                           "float | int", "object", "numbers.Real", "bool"])
VARIABLES = st.sampled_from(["v", "w"])


def expressions() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        pair = st.tuples(inner, inner)
        return st.one_of(
            st.builds("isinstance({}, {})".format, inner, CLASSES),
            st.builds("issubclass(type({}), {})".format, inner, CLASSES),
            st.builds("{}({})".format, st.sampled_from(
                ["float", "int", "bool", "complex", "math.floor", "math.sqrt", "operator.index",
                 "round", "hex", "abs", "str", "hash"]), inner),
            st.builds(lambda ab, op: f"({ab[0]} {op} {ab[1]})", pair,
                      st.sampled_from(["<", ">=", "==", "!=", "+", "-", "*", "/", "//", "%",
                                       "**", "and", "or", "is", "in"])),
            st.builds("cast({}, {})".format, TARGETS, inner),
            st.builds("(lambda {}: {})".format, VARIABLES, inner),
            st.builds("[{} for {} in xs if {}]".format, inner, VARIABLES, inner),
            st.builds("({} if {} else {})".format, inner, inner, inner),
            st.builds("(not {})".format, inner),
            st.builds("xs[{}]".format, inner),
            st.builds("sorted(xs, key=lambda {}: {})".format, VARIABLES, inner),
            st.builds("max(fs, key=lambda {}: {})".format, VARIABLES, inner),
            st.builds("list(filter(lambda {}: {}, xs))".format, VARIABLES, inner),
            st.builds("list(map(lambda {}: {}, fs))".format, VARIABLES, inner),
            st.builds("({} := {})".format, VARIABLES, inner),
            st.builds("divmod({}, {})".format, inner, inner),
            st.builds("{{{}: {}}}".format, inner, inner),
        )

    return st.recursive(NAMES, extend, max_leaves=6)


def statements(depth: int = 2) -> st.SearchStrategy[list[str]]:
    expression = expressions()
    simple = st.one_of(
        st.builds("y = {}".format, expression),
        st.builds("assert {}".format, expression),
        st.builds("if {}:\n    pass\nelse:\n    y = {}".format, expression, expression),
        st.builds("while {}:\n    break".format, expression),
        st.builds("match {}:\n    case 1 if {}:\n        pass\n    case _:\n        pass".format,
                  expression, expression),
        st.builds("return {}".format, expression),
        st.builds("for v in xs:\n    if {}:\n        continue".format, expression),
        st.builds("with open('f') as handle:\n    y = {}".format, expression),
        st.just("numbers.Integral.register(IntegerProxy)"),
        st.builds("class K{}(NumberProxy, {}):\n    pass".format,
                  st.integers(0, 3), st.sampled_from(["float", "int", "object", "numbers.Real"])),
    )
    if depth == 0:
        return st.lists(simple, min_size=1, max_size=4)
    nested = st.builds(
        lambda head, body: head + "\n" + "\n".join("    " + line for statement in body
                                                   for line in statement.splitlines()),
        st.sampled_from(["if b:", "try:", "def inner(flag: BoolProxy) -> Any:", "for w in fs:"]),
        statements(depth - 1))
    nested = nested.map(lambda text: text + ("\nexcept Exception:\n    pass"
                                             if text.startswith("try:") else ""))
    return st.lists(st.one_of(simple, nested), min_size=1, max_size=5)


def program(body: list[str]) -> str:
    lines = [line for statement in body for line in statement.splitlines()]
    return HEADER + f"\n\ndef f({PARAMETERS}) -> Any:\n" + "".join(
        f"    {line}\n" for line in lines) + "    return None\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("hostile")
    (directory / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n"
        "check_untyped_defs = True\nfollow_imports = silent\n"
        "[mypy.plugins.proxy_types]\nstrict_isinstance = true\n")
    return directory


_PROGRAM_NUMBERS = itertools.count()


def check(project: Path, source: str, *, mypy_may_refuse: bool = False) -> str:
    """mypy's output on ``source`` with the plugin, which must neither fail nor report
    an internal error.  ``mypy_may_refuse``: the grammar's programs include a few that
    mypy's parser refuses although CPython compiles them (the test below has one); then
    mypy stops with its own syntax error (exit 2) before any plugin code runs."""
    # A new name per program: mypy trusts a cached module whose file has the same size
    # and mtime second, so rewriting one file could replay an earlier program's result.
    name = f"generated_{next(_PROGRAM_NUMBERS)}.py"
    (project / name).write_text(source, encoding="utf-8")
    cwd = os.getcwd()
    os.chdir(project)
    try:
        stdout, stderr, status = api.run(["--config-file", "mypy.ini", "--cache-dir",
                                          str(project / "cache"), "--no-error-summary",
                                          name])
    finally:
        os.chdir(cwd)
    assert os.environ.get("PROXY_TYPES_DEBUG") == "1"  # an internal error would raise
    assert "INTERNAL ERROR" not in stdout + stderr and "Traceback" not in stdout + stderr, source
    assert "[proxy-internal]" not in stdout, source
    errors = [line for line in stdout.splitlines() if ": error: " in line]
    refused = status == 2 and not stderr.strip() and bool(errors) and all(
        line.endswith(MYPY_REFUSES) for line in errors)
    assert status in (0, 1) or (mypy_may_refuse and refused), (source, stdout, stderr)
    return stdout


#: The errors with which mypy itself stops (exit 2) on a program CPython compiles: a
#: syntax error of its parser, a relative import at the top level (``from . import *``).
MYPY_REFUSES = ("[syntax]", "No parent module -- cannot perform relative import")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.data_too_large])
@given(body=statements())
def test_generated_programs_never_make_the_plugin_fail(project: Path, body: list[str]) -> None:
    check(project, program(body))


def test_the_generator_reaches_the_checks(project: Path) -> None:
    # A fixed program built the same way: the plugin reports in it, so the
    # generated ones run the checks rather than stopping at a syntax error.
    body = ["y = isinstance(p, (int, (float, bool)))",
            "if (p < 1):\n    pass\nelse:\n    y = 1",
            "y = sorted(xs, key=lambda v: isinstance(v, int))", "y = cast(int, p)",
            "y = float(f)"]
    output = check(project, program(body))
    assert output.count("[proxy-isinstance]") == 2
    assert "[proxy-cast]" in output and output.count("[proxy-concretize]") == 2


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(source=hypothesmith.from_grammar())
@example(source="from.import*\n")  # found by this test: mypy's own blocking error
def test_programs_from_python_s_grammar_never_make_the_plugin_fail(
    project: Path, source: str
) -> None:
    check(project, source, mypy_may_refuse=True)


def test_a_program_mypy_refuses_to_parse_is_no_plugin_failure(project: Path) -> None:
    source = "globalA\n\\\r\n"  # found by the test above: CPython compiles it
    compile(source, "generated.py", "exec")
    assert "[syntax]" in check(project, source, mypy_may_refuse=True)
    with pytest.raises(AssertionError):
        check(project, source)  # elsewhere exit 2 stays a failure


# -- every config key, every kind of wrong value --------------------------------------

TOML_VALUES = ["1", "1.5", "true", "false", '""', '"   "', "[]", '[""]', "[1, 2]", '["a.B", 2]',
               '["a b"]', '["pkg.*", "x.y:1:1"]', "{a = 1}", '"pkg.Class"', '["a.B", "a.B"]',
               '["a.B:0:1", "a.B:1:0"]', '["é.ü"]']
INI_VALUES = ["", "   ", "1", "maybe", "a b", "a.B,,,", "a.B, a.B", "pkg.*, ..", ":", "a.B:x:y",
              "a.B:1:1", "[a.B]", "é.ü", "a.B\n    c.D", "true, false"]


def outcome(config_file: Path) -> str:
    """"ok", or the one-line error; anything else (a traceback) fails the test."""
    try:
        ProxyTypesConfig(str(config_file), raise_errors=True)
    except ConfigurationError as error:
        message = str(error)
        assert "\n" not in message, message
        return message
    return "ok"


@pytest.mark.parametrize("key", ProxyTypesConfig.KEYS)
def test_every_key_with_every_wrong_toml_value(tmp_path: Path, key: str) -> None:
    config = tmp_path / "pyproject.toml"
    errors = 0
    for value in TOML_VALUES:
        config.write_text(f"[tool.mypy]\n[tool.proxy_types]\n{key} = {value}\n")
        answer = outcome(config)
        if answer != "ok":
            errors += 1
            assert answer.startswith(f"{config}:3: error: [proxy_types] {key}"), (value, answer)
    assert errors >= 5  # most of these are wrong for any key


@pytest.mark.parametrize("key", ProxyTypesConfig.KEYS)
def test_every_key_with_every_wrong_ini_value(tmp_path: Path, key: str) -> None:
    config = tmp_path / "mypy.ini"
    errors = 0
    for value in INI_VALUES:
        config.write_text(f"[mypy]\n[mypy.plugins.proxy_types]\n{key} = {value}\n")
        answer = outcome(config)
        if answer != "ok":
            errors += 1
            assert answer.startswith(f"{config}:3: error: [proxy_types] {key}"), (value, answer)
    assert errors >= 3


@pytest.mark.parametrize("key", ProxyTypesConfig.KEYS)
def test_a_key_given_twice_is_one_line(tmp_path: Path, key: str) -> None:
    ini = tmp_path / "mypy.ini"
    ini.write_text(f"[mypy]\n[mypy.plugins.proxy_types]\n{key} = a\n{key} = b\n")
    assert outcome(ini).startswith(f"{ini}:4: error: [proxy_types] cannot read the config file")
    toml = tmp_path / "pyproject.toml"
    toml.write_text(f'[tool.mypy]\n[tool.proxy_types]\n{key} = "a"\n{key} = "b"\n')
    assert outcome(toml).startswith(f"{toml}: error: [proxy_types] cannot read the config file")


@pytest.mark.parametrize("name", ["colour", "strict-isinstance", "Strict_Isinstance", "é", "x" * 80])
def test_unknown_names_are_one_line_listing_the_known_keys(tmp_path: Path, name: str) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text(f'[tool.mypy]\n[tool.proxy_types]\n"{name}" = true\n')
    answer = outcome(config)
    assert answer.startswith(f'{config}:3: error: [proxy_types] unknown setting "{name}" = true')
    assert all(key in answer for key in ProxyTypesConfig.KEYS)


@pytest.mark.parametrize("key", ProxyTypesConfig.KEYS)
def test_mypy_stops_with_one_line_and_status_2_on_a_wrong_value(tmp_path: Path, key: str) -> None:
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\nplugins = mypy_plugin\n[mypy.plugins.proxy_types]\n{key} = :\n")
    (tmp_path / "sample.py").write_text("x = 1\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
         str(tmp_path / "cache"), "sample.py"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [outcome(config)]
    assert "Traceback" not in result.stdout + result.stderr
