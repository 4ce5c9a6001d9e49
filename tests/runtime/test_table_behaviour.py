"""Every conversion row of proxy_types._table, run against the real runtime.

For each operation the table knows (a conversion, a converting callable, a
module function, a piece of syntax), each kind of dynamic class and each
Python type, the operation is performed on a real dynamic number and on a
static number of the same type, and what happens is named with the table's
vocabulary (``observe``).  The test fails when the name differs from
``_table.outcome``.

The dynamic numbers: our proxies (``proxy()`` inside ``trace()``), torch
SymInt / SymFloat / SymBool of a fresh ShapeEnv (unbounded symbols, so that
no answer is known without a guard), and two model configured classes.
``Silent*`` is modelled on thunder's NumberProxy (thunder/core/proxies.py):
``__bool__``, ``__int__``, ``__float__``, ``__complex__`` and ``__hash__``
return the conversion of the trace-time value, int-like proxies also
``__index__``, round/trunc/floor/ceil give new proxies, and there is no
``__format__``.  ``Guarded*`` is the same but records a guard, as a class
listed in guarded_number_classes is expected to.
"""

from __future__ import annotations

import _operator
import cmath
import itertools
import math
import operator
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from proxy_types import (
    ConcretizationError,
    Trace,
    current_recorder,
    is_dynamic_number,
    proxy,
    register_dynamic_type,
    trace,
)
from proxy_types import _table

#: The static number standing for each Python type; every dynamic number below has it as value.
STATIC: dict[str, Any] = {"bool": True, "int": 5, "float": 2.5, "complex": 1 + 2j}
SEQUENCE = [10, 11, 12, 13, 14, 15, 16]

Perform = Callable[[Any], Any]

#: How the test performs each operation; each spelling must behave as the table says.
PERFORM: dict[str, tuple[Perform, ...]] = {
    # the conversions, by the syntax or builtin that runs each
    "__bool__": (lambda x: 1 if x else 0,),
    "__int__": (int,),
    "__float__": (float,),
    "__complex__": (complex,),
    "__index__": (operator.index,),
    "__round__": (round, lambda x: round(x, 1)),
    "__trunc__": (math.trunc,),
    "__floor__": (math.floor,),
    "__ceil__": (math.ceil,),
    "__hash__": (hash,),
    "__format__": (format, lambda x: format(x, ""), lambda x: f"{x}"),
    "__format__:spec": (lambda x: format(x, ">8"), lambda x: f"{x:>8}"),
    "__str__": (str, lambda x: "%s" % x, lambda x: f"{x!s}"),
    # the converting callables
    "builtins.bool": (bool,),
    "builtins.int": (int,),
    "builtins.float": (float,),
    "builtins.complex": (complex,),
    "builtins.round": (round, lambda x: round(x, 1)),
    "builtins.range": (range, lambda x: range(0, x, 2)),
    "builtins.hex": (hex,),
    "builtins.oct": (oct,),
    "builtins.bin": (bin,),
    "builtins.hash": (hash,),
    "builtins.chr": (chr,),
    "builtins.format": (format,),
    "builtins.str": (str,),
    "_operator.index": (_operator.index,),
    "operator.index": (operator.index,),
    "_operator.truth": (_operator.truth,),
    "operator.truth": (operator.truth,),
    "_operator.not_": (_operator.not_,),
    "operator.not_": (operator.not_,),
    "math.floor": (math.floor,),
    "math.ceil": (math.ceil,),
    "math.trunc": (math.trunc,),
    "math.comb": (lambda x: math.comb(x, 2),),
    "math.factorial": (math.factorial,),
    "math.gcd": (lambda x: math.gcd(x, 4),),
    "math.isqrt": (math.isqrt,),
    "math.lcm": (lambda x: math.lcm(x, 4),),
    "math.perm": (math.perm,),
    # samples of the modules whose every function converts
    "math.sqrt": (math.sqrt,),
    "math.exp": (math.exp,),
    "math.isclose": (lambda x: math.isclose(x, 1.0),),
    "math.isfinite": (math.isfinite,),
    "cmath.sqrt": (cmath.sqrt,),
    "cmath.phase": (cmath.phase,),
    # syntax
    "truth test": (lambda x: 1 if x else 0, lambda x: not x, lambda x: x and 1),
    "indexing": (lambda x: SEQUENCE[x], lambda x: SEQUENCE[:x]),
    "sequence repetition": (lambda x: [0] * x, lambda x: "ab" * x),
    "f-string": (lambda x: f"{x}", lambda x: f"n = {x}!"[4:-1]),
    "str.format": (lambda x: "{}".format(x), lambda x: "{0}".format(x)),
    "%s": (lambda x: "%s" % x, lambda x: "%s" % (x,)),
}


# -- model configured classes --------------------------------------------------


class _Model:
    """A configured dynamic number holding its trace-time value."""

    python_type: ClassVar[type]
    family: ClassVar[dict[str, type[_Model]]]

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.value!r}>"

    def _convert(self, to: Callable[[Any], Any]) -> Any:
        return to(self.value)

    def _symbolic(self, function: Callable[..., Any], *args: Any) -> _Model:
        result = function(self.value, *args)
        return self.family[type(result).__name__](result)

    def __bool__(self) -> bool:
        return bool(self._convert(bool))

    def __int__(self) -> int:
        return int(self._convert(int))

    def __float__(self) -> float:
        return float(self._convert(float))

    def __complex__(self) -> complex:
        return complex(self._convert(complex))

    def __hash__(self) -> int:
        return int(self._convert(hash))

    def __round__(self, ndigits: int | None = None) -> _Model:
        return self._symbolic(round, ndigits)

    def __trunc__(self) -> _Model:
        return self._symbolic(math.trunc)

    def __floor__(self) -> _Model:
        return self._symbolic(math.floor)

    def __ceil__(self) -> _Model:
        return self._symbolic(math.ceil)


class SilentNumber(_Model):
    """thunder-like: a conversion returns the value and records nothing."""


class GuardedNumber(_Model):
    """A conversion returns the value after recording a guard in the active trace."""

    def _convert(self, to: Callable[[Any], Any]) -> Any:
        converted = to(self.value)
        recorder = current_recorder()
        assert recorder is not None, "model guarded numbers are used inside trace() only"
        recorder.record_guard(self, self.value)
        return converted


def _index(self: _Model) -> int:
    return int(self._convert(operator.index))


def _make_family(base: type[_Model]) -> None:
    """One registered subclass of ``base`` per Python type; int-like ones have ``__index__``."""
    base.family = {}
    for python_type in (bool, int, float, complex):
        namespace: dict[str, Any] = {"python_type": python_type}
        if python_type in (bool, int):
            namespace["__index__"] = _index
        cls = type(f"{base.__name__[:-len('Number')]}{python_type.__name__.title()}", (base,), namespace)
        base.family[python_type.__name__] = register_dynamic_type(cls, python_type=python_type)


_make_family(SilentNumber)
_make_family(GuardedNumber)


# -- dynamic numbers of each kind ----------------------------------------------


class Subject:
    """A dynamic number and a count of the guards installed so far."""

    def __init__(self, value: Any, guards: Callable[[], int], symbolic: Callable[[Any], bool]) -> None:
        self.value = value
        self.guards = guards
        self.is_symbolic = symbolic


def _torch_subject(python_type: str) -> Subject:
    pytest.importorskip("torch")
    from torch._dynamo.source import ConstantSource
    from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv, free_symbols

    # Unbounded symbols: with a size-like one (range [2, oo]) torch proves bool(n) without a guard.
    shape_env = ShapeEnv()

    def symbol(hint: float, name: str) -> Any:
        return shape_env.create_symbol(hint, ConstantSource(name), dynamic_dim=DimDynamic.DYNAMIC,
                                       positive=None)

    n = shape_env.create_symintnode(symbol(STATIC["int"], "n"), hint=STATIC["int"])
    values = {
        "int": n,
        "bool": n > 2,  # True, as STATIC["bool"]
        "float": shape_env.create_symfloatnode(symbol(STATIC["float"], "f"), hint=STATIC["float"]),
    }
    return Subject(values[python_type], lambda: len(shape_env.guards),
                   lambda result: is_dynamic_number(result) and bool(free_symbols(result)))


def _subject(kind: str, python_type: str, active: Trace) -> Subject:
    def guards_in_trace() -> int:
        return len(active.guards)

    if kind == "own":
        return Subject(proxy(STATIC[python_type], "x"), guards_in_trace, is_dynamic_number)
    if kind == "torch":
        return _torch_subject(python_type)
    family = {"silent": SilentNumber, "guarded": GuardedNumber}[kind].family
    return Subject(family[python_type](STATIC[python_type]), guards_in_trace, is_dynamic_number)


# -- naming what happened ------------------------------------------------------


def observe(perform: Perform, kind: str, python_type: str) -> str:
    """What ``perform`` does to a dynamic number, in the table's words (else a description)."""
    expected: Any = None
    try:
        expected = perform(STATIC[python_type])
        static_fails = False
    except TypeError:
        static_fails = True
    with trace() as active:
        subject = _subject(kind, python_type, active)
        before = subject.guards()
        try:
            result = perform(subject.value)
        except TypeError as error:
            if static_fails:
                return "unsupported"
            if kind == "own" and not isinstance(error, ConcretizationError):
                return f"raises a plain {type(error).__name__}, not ConcretizationError: {error}"
            return "raises"
        added = subject.guards() - before
    if static_fails:
        return f"returns {result!r} where a static {python_type} raises TypeError"
    if is_dynamic_number(result):
        if not subject.is_symbolic(result):
            return f"returns the constant dynamic number {result!r}"
        return "symbolic" if added == 0 else f"symbolic but adds {added} guard(s)"
    if isinstance(result, str) and result == str(subject.value) and result != expected:
        return "names" if added == 0 else f"names but adds {added} guard(s)"
    if result != expected or type(result) is not type(expected):
        return f"returns {result!r}, not the value's {expected!r}"
    return "guards" if added else "silent"


def _kinds_and_types() -> Iterator[tuple[str, str]]:
    for kind in _table.DYNAMIC_KINDS:
        possible = _table.TORCH_PYTHON_TYPES if kind == "torch" else tuple(STATIC)
        for python_type in possible:
            yield kind, python_type


ROWS = [
    pytest.param(operation, kind, python_type,
                 id=f"{operation.replace(' ', '_')}-{kind}-{python_type}")
    for operation in PERFORM
    for kind, python_type in _kinds_and_types()
]


@pytest.mark.parametrize(("operation", "kind", "python_type"), ROWS)
def test_table_row_matches_the_runtime(operation: str, kind: str, python_type: str) -> None:
    # A bare ShapeEnv is what make_fx and export use; tests/runtime/test_tracer_formatting.py
    # runs what torch.compile does differently.
    expected = _table.outcome(operation, kind, python_type, tracer="make_fx")
    observed = [observe(perform, kind, python_type) for perform in PERFORM[operation]]
    assert observed == [expected] * len(observed), (
        f"{_table.operation_spelling(operation)} on a dynamic {python_type} of kind {kind!r}: "
        f"the table says {expected!r}, the runtime does {observed}")


# -- the table's own consistency and lookups ---------------------------------------


def test_every_operation_of_the_table_is_performed() -> None:
    keys = {c.name for c in _table.CONVERSIONS} | set(_table.CONVERTING_FUNCTIONS)
    keys |= set(_table.CONVERTING_SYNTAX)
    assert keys - set(PERFORM) == set()
    assert all(_table.conversion(key) is not None for key in PERFORM), "PERFORM has unknown keys"
    sampled_modules = {key.partition(".")[0] for key in PERFORM if key not in keys}
    assert sampled_modules == set(_table.CONVERTING_MODULES)


def test_observe_tells_the_outcomes_apart() -> None:
    # A guard recorded by hand is seen; a wrong value is not taken for a silent conversion.
    def guard_then_int(x: Any) -> int:
        recorder = current_recorder()
        if recorder is not None:  # None for the static number, run outside the trace
            recorder.record_guard(x, 5)
        return 5

    assert observe(guard_then_int, "silent", "int") == "guards"
    assert observe(lambda x: 4 if is_dynamic_number(x) else x, "silent", "int").startswith("returns 4, not the value's 5")
    assert observe(lambda x: x, "own", "int") == "symbolic"
    assert observe(str, "own", "int") == "names"
    assert observe(lambda x: x + "a", "silent", "int") == "unsupported"


def test_unknown_python_type_gets_the_most_serious_outcome() -> None:
    assert _table.outcome("builtins.round", "own", "number") == "raises"
    assert _table.outcome("builtins.round", "silent", "number") == "symbolic"
    assert _table.outcome("builtins.round", "torch", "number") == "raises"  # SymBool
    assert _table.outcome("builtins.range", "silent", "number") == "silent"
    assert _table.outcome("builtins.hash", "torch", "float") == "guards"
    assert _table.outcome("builtins.hash", "torch", "number") == "raises"  # SymInt


def test_format_spec_selects_the_spec_row() -> None:
    assert _table.outcome("builtins.format", "own", "float") == "names"
    assert _table.outcome("builtins.format", "own", "float", format_spec=True) == "raises"
    assert _table.outcome("__format__", "torch", "int", format_spec=True) == "raises"
    assert _table.outcome("builtins.int", "torch", "int", format_spec=True) == "guards"


def test_lookups_name_bad_arguments() -> None:
    assert _table.conversion("builtins.print") is None
    assert _table.conversion("math._private") is None and _table.conversion("math.") is None
    with pytest.raises(KeyError, match="'builtins.print' is no converting operation"):
        _table.outcome("builtins.print", "own", "int")
    with pytest.raises(ValueError, match="unknown dynamic kind 'jax'"):
        _table.outcome("builtins.int", "jax", "int")
    with pytest.raises(ValueError, match="no torch dynamic class stands for 'complex'"):
        _table.outcome("builtins.int", "torch", "complex")
    with pytest.raises(KeyError, match="'len' is no converting operation"):
        _table.operation_spelling("len")


def test_spellings_and_finding_codes() -> None:
    assert _table.operation_spelling("math.sqrt") == "math.sqrt()"
    assert _table.operation_spelling("math.floor") == "math.floor()"
    assert _table.operation_spelling("operator.index") == "operator.index()"
    assert _table.operation_spelling("indexing") == "indexing / slicing"
    assert _table.finding_code("guards") == "proxy-specialize"
    assert _table.finding_code("silent") == _table.finding_code("raises") == "proxy-concretize"
    assert _table.finding_code("symbolic") is None and _table.finding_code("names") is None
    assert set(_table.FINDING_CODES) == set(_table.OUTCOMES)


def test_dynamic_kind_of_a_class() -> None:
    assert _table.dynamic_kind("proxy_types._proxies.FloatProxy") == "own"
    assert _table.dynamic_kind("torch.SymFloat") == "torch"
    assert _table.dynamic_kind("thunder.core.proxies.NumberProxy") == "silent"
    assert _table.dynamic_kind("mylib.SymScalar", frozenset({"mylib.SymScalar"})) == "guarded"
    assert _table.dynamic_kind("torch.SymInt", ("torch.SymInt",)) == "torch"


def test_guards_on_an_unbacked_torch_symbol_are_torchs_data_dependent_error() -> None:
    pytest.importorskip("torch")
    from torch.fx.experimental.symbolic_shapes import GuardOnDataDependentSymNode, ShapeEnv

    unbacked = ShapeEnv().create_unbacked_symint()
    assert _table.outcome("builtins.int", "torch", "int") == "guards"
    with pytest.raises(GuardOnDataDependentSymNode):
        int(unbacked)
    assert _table.outcome("builtins.round", "torch", "int") == "symbolic"
    assert is_dynamic_number(round(unbacked))


def test_math_prod_multiplies_so_symbolic_sizes_stay_symbolic() -> None:
    pytest.importorskip("torch")
    from torch._dynamo.source import ConstantSource
    from torch.fx.experimental.symbolic_shapes import ShapeEnv

    shape_env = ShapeEnv()
    rows, columns = (shape_env.create_symintnode(
        shape_env.create_symbol(value, ConstantSource(name)), hint=value)
        for name, value in (("rows", 4), ("columns", 5)))
    assert _table.conversion("math.prod") is None
    assert is_dynamic_number(math.prod([rows, columns], start=rows))
    assert not shape_env.guards
    assert _table.conversion("math.sqrt") is not None  # the rest of math still converts


DOC = Path(__file__).resolve().parents[2] / "docs" / "runtime.md"
#: The operation each row of the documentation's conversion table stands for, in order.
DOC_ROWS: list[tuple[str, bool]] = [
    ("truth test", False), ("builtins.int", False), ("builtins.float", False),
    ("builtins.complex", False), ("indexing", False), ("builtins.round", False),
    ("builtins.hash", False), ("builtins.format", False), ("builtins.format", True),
]


def test_documented_conversion_table_says_what_the_table_says() -> None:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| conversion | own proxies |"))
    rows = list(itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2:]))
    assert len(rows) == len(DOC_ROWS), "docs/runtime.md conversion table: rows added or removed"
    columns = [("own", "int"), ("torch", "int"), ("torch", "float"), ("torch", "bool"),
               ("silent", "int"), ("guarded", "int")]
    for (operation, spec), row in zip(DOC_ROWS, rows):
        cells = [cell.strip() for cell in row.strip("|").split("|")][1:]
        expected = [_table.outcome(operation, kind, python_type, format_spec=spec,
                                   tracer="make_fx") for kind, python_type in columns]
        assert cells == expected, f"docs/runtime.md, row {row.split('|')[1].strip()!r}"
