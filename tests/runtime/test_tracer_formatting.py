"""Text of a torch dynamic number built without a format spec, under each of torch's tracers.

``proxy_types/_table.py`` records what ``f"{n}"``, ``str(n)``, ``"{}".format(n)``,
``"%s" % n`` and ``format(n)`` do to a SymInt / SymFloat: the ``torch`` column for
make_fx and torch.export (both give the symbol's name, no guard) and
``TORCH_COMPILE_OUTCOMES`` for torch.compile (Dynamo needs the text as a constant).
Each spelling is traced here the three ways, in a function that uses the text (compares
it with a constant, as a lookup or a branch would), and what happens is named with the
table's words; the test fails when the table says otherwise.  Text built only on
failure (an assert message, a raise in a branch not taken) guards nowhere.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from proxy_types import _table

torch = pytest.importorskip("torch")
from tests.runtime.tracers import compile_counted, export_with_dims, make_fx_symbolic  # noqa: E402

Spell = Callable[[Any], str]

#: How each table operation is spelled here.
SPELLINGS: dict[str, tuple[Spell, ...]] = {
    "f-string": (lambda n: f"{n}", lambda n: f"height ({n}) is odd", lambda n: f"{n!r}"),
    "str.format": (lambda n: "{}".format(n),),
    "builtins.format": (format,),
    "builtins.str": (str,),
    "%s": (lambda n: "%s" % n,),
}

#: The dynamic number of each Python type, from an input of shape (n, 3).
NUMBERS: dict[str, Callable[[Any], Any]] = {
    "int": lambda x: x.shape[0],
    "float": lambda x: x.shape[0] / 2,
}


def _using(spell: Spell, number: Callable[[Any], Any], seen: list[str]) -> Callable[[Any], Any]:
    def traced(x: Any) -> Any:
        text = spell(number(x))
        seen.append(text)
        return x * 2 if text == "never this text" else x * 3

    return traced


def _shape_env_outcome(guards: int, seen: list[str], static_text: str) -> str:
    """"names" when the traced text is never the text of the traced value."""
    if guards:
        return "guards"
    return "names" if seen and static_text not in seen else f"baked {seen}"


def under_make_fx(spell: Spell, python_type: str) -> str:
    seen: list[str] = []
    x = torch.randn(5, 3)
    try:
        graph: Any = make_fx_symbolic(_using(spell, NUMBERS[python_type], seen), x)
    except Exception:  # noqa: BLE001 - any failure is the outcome "raises"
        return "raises"
    return _shape_env_outcome(len(graph.shape_env.guards), seen, spell(NUMBERS[python_type](x)))


def under_export(spell: Spell, python_type: str) -> str:
    seen: list[str] = []
    x = torch.randn(5, 3)

    try:
        export_with_dims(_using(spell, NUMBERS[python_type], seen), x,
                         {0: torch.export.Dim("n", min=2, max=64)})
    except torch._dynamo.exc.UserError as error:  # "Constraints violated": specialized
        return "guards" if "specialized" in str(error) else "raises"
    except Exception:  # noqa: BLE001
        return "raises"
    return _shape_env_outcome(0, seen, spell(NUMBERS[python_type](x)))


def under_compile(spell: Spell, python_type: str, *, fullgraph: bool = True) -> str:
    """fullgraph=True over two sizes: a second frame is a recompile, Unsupported a break."""
    traced = _using(spell, NUMBERS[python_type], [])
    compiled, counter = compile_counted(traced, fullgraph=fullgraph)
    try:
        for size in (5, 7):
            x = torch.randn(size, 3)
            assert torch.equal(compiled(x), traced(x))
    except torch._dynamo.exc.Unsupported:
        return "breaks"
    except Exception:  # noqa: BLE001
        return "raises"
    return "guards" if counter.frame_count > 1 else "names"


CASES = [
    pytest.param(operation, python_type, index, id=f"{operation}-{python_type}-{index}")
    for operation, spells in SPELLINGS.items()
    for index in range(len(spells))
    for python_type in NUMBERS
]


@pytest.mark.parametrize(("operation", "python_type", "index"), CASES)
def test_make_fx_and_export_name_the_symbol(operation: str, python_type: str, index: int) -> None:
    spell = SPELLINGS[operation][index]
    for tracer, run in (("make_fx", under_make_fx), ("export", under_export)):
        expected = _table.outcome(operation, "torch", python_type, tracer=tracer)
        assert run(spell, python_type) == expected, f"{operation} under {tracer}"


@pytest.mark.parametrize(("operation", "python_type", "index"), CASES)
def test_torch_compile_does_what_the_table_says(operation: str, python_type: str,
                                                index: int) -> None:
    spell = SPELLINGS[operation][index]
    expected = _table.outcome(operation, "torch", python_type, tracer="compile")
    assert under_compile(spell, python_type) == expected
    if expected == "breaks":  # a graph break, not an error, without fullgraph
        assert under_compile(spell, python_type, fullgraph=False) in ("names", "guards")


def test_every_compile_difference_is_traced_here() -> None:
    assert set(_table.TORCH_COMPILE_OUTCOMES) == set(SPELLINGS)
    # The plugin's view, no tracer named: the most serious of the three.
    assert _table.outcome("f-string", "torch", "int") == "guards"
    assert _table.outcome("builtins.str", "torch", "int") == "breaks"
    assert _table.outcome("f-string", "own", "int", tracer="compile") == "names"
    assert _table.outcome("builtins.format", "torch", "int", format_spec=True,
                          tracer="make_fx") == "raises"
    with pytest.raises(ValueError, match="unknown tracer 'jit'"):
        _table.outcome("f-string", "torch", "int", tracer="jit")


# -- text built only on failure, and the control ---------------------------------------


def _assert_message(x: Any) -> Any:
    assert x.shape[0] > 1, f"got {x.shape[0]} rows"
    return x * 2


def _raise_not_taken(x: Any) -> Any:
    if x.shape[0] < 1:
        raise ValueError("bad size " + str(x.shape[0]) + f" ({x.shape[0]})")
    return x * 2


def _no_text(x: Any) -> Any:
    return x * x.shape[0]


def _formatted(x: Any) -> Any:
    return x * 2 if f"{x.shape[0]}" == "never this text" else x * 3


@pytest.mark.parametrize("function", [_assert_message, _raise_not_taken, _no_text])
def test_text_built_only_on_failure_specializes_nowhere(function: Callable[[Any], Any]) -> None:
    graph: Any = make_fx_symbolic(function, torch.randn(5, 3))
    assert list(graph.shape_env.guards) == []
    compiled, counter = compile_counted(function)
    for size in (5, 7, 9):
        compiled(torch.randn(size, 3))
    assert counter.frame_count == 1


def test_the_control_formats_and_recompiles() -> None:
    """The same counting sees the recompile of an f-string that is used."""
    compiled, counter = compile_counted(_formatted)
    for size in (5, 7, 9):
        compiled(torch.randn(size, 3))
    assert counter.frame_count == 3


def test_percent_d_converts_with_int_under_make_fx() -> None:
    """``"%d" % n`` runs ``__int__``: it guards where int() does (the plugin sees no % yet)."""
    graph: Any = make_fx_symbolic(_using(lambda n: "%d" % n, NUMBERS["int"], []),
                                  torch.randn(5, 3))
    assert _table.outcome("builtins.int", "torch", "int", tracer="make_fx") == "guards"
    assert [str(guard.expr) for guard in graph.shape_env.guards] != []
