"""torch operator schemas: parameters the dispatcher has made static before Python runs.

A decomposition, reference or meta function registered for an aten operator
(``@register_decomposition(aten.native_dropout)``) receives its arguments after the
dispatcher converted them to the schema's types.  A parameter the schema types
``int``, ``float``, ``bool`` or a list of those (``int[]``) is then a plain Python
number, even while tracing with symbolic shapes: only ``SymInt``, ``SymInt[]``,
``Scalar`` and ``SymFloat`` can be symbolic.  ``native_dropout(Tensor input,
float p, bool? train)``: ``p`` is static, so ``if p == 0`` there is no guard.

The schemas are read as data from the ``native_functions.yaml`` that torch's
wheel ships (in the ``torchgen`` package next to ``torch``), found with
``importlib.util.find_spec`` (which imports nothing for a top-level package) and
never by importing torch.  Each operator's schema is the one-line ``- func:``
entry, read line by line: no YAML parser needed (the whole file takes about
16 ms this way).  When the file is missing, one note says so on stderr, and
every parameter stays as the settings make it.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Iterator

from mypy.nodes import CallExpr, Decorator, Expression, FuncDef, ListExpr, MemberExpr, MypyFile
from mypy.nodes import NameExpr, TupleExpr

from .walk import walk

#: Where torch's wheel keeps the schemas, under the ``torchgen`` package.
SCHEMA_FILE = os.path.join("packaged", "ATen", "native", "native_functions.yaml")
#: Schema types whose values are plain Python numbers in the registered function.
STATIC_SCHEMA_TYPES = re.compile(r"^(int|float|bool)(\[\d*\])?\??$")
_FUNC_LINE = re.compile(r"^- func: (?P<name>[A-Za-z0-9_]+)(\.(?P<overload>[A-Za-z0-9_]+))?"
                        r"\((?P<arguments>.*)\) ->")
NOTE = ("proxy-types: note: torch's operator schemas (torchgen/{file}) were not found; "
        "parameters of registered decompositions are not narrowed by their schema types")


class Schemas:
    """The static parameters of each aten operator, read on first use."""

    def __init__(self, locate: bool = True) -> None:
        self._locate = locate
        #: operator -> overload ("" for the default) -> static parameter names and positions
        self._static: dict[str, dict[str, tuple[frozenset[str], frozenset[int]]]] | None = None
        #: operator -> parameter name -> its schema type in each overload that has it
        self._declared: dict[str, dict[str, list[str]]] = {}
        self._decorators: dict[str, tuple[MypyFile, dict[FuncDef, Decorator]]] = {}
        self.missing: str | None = None

    def _load(self) -> dict[str, dict[str, tuple[frozenset[str], frozenset[int]]]]:
        if self._static is not None:
            return self._static
        self._static = {}
        path = schema_path() if self._locate else None
        try:
            if path is None:
                raise OSError("not found")
            with open(path, encoding="utf-8") as file:
                for line in file:
                    if line.startswith("- func:"):
                        self._read(line)
        except OSError:
            self.missing = NOTE.format(file=SCHEMA_FILE.replace(os.sep, "/"))
            if "mypy.build_worker.worker" not in sys.modules:  # the coordinator says it
                print(self.missing, file=sys.stderr)
        return self._static

    def _read(self, line: str) -> None:
        match = _FUNC_LINE.match(line)
        if match is None or self._static is None:
            return
        names: set[str] = set()
        positions: set[int] = set()
        position = 0
        for argument in _split(match["arguments"]):
            if argument == "*":
                continue
            declared, _, name = argument.partition("=")[0].strip().rpartition(" ")
            self._declared.setdefault(match["name"], {}).setdefault(name, []).append(declared)
            if STATIC_SCHEMA_TYPES.match(declared):
                names.add(name)
                positions.add(position)
            position += 1
        self._static.setdefault(match["name"], {})[match["overload"] or ""] = (
            frozenset(names), frozenset(positions))

    def static_parameters(self, function: FuncDef, tree: MypyFile) -> frozenset[str]:
        """Parameters of ``function`` that every operator it is registered for types as a
        static number (by name, else by position); empty if it is registered for none."""
        decorator = self._decorator_of(function, tree)
        operators = registered_operators(decorator) if decorator is not None else []
        if not operators:
            return frozenset()
        static = self._load()
        parameters = [argument.variable.name for argument in function.arguments]
        found: frozenset[str] | None = None
        for name, overload in operators:
            overloads = static.get(name)
            if not overloads:
                return frozenset()  # an operator whose schema is unknown: nothing is known
            chosen = [overloads[overload]] if overload is not None and overload in overloads \
                else list(overloads.values())
            for names, positions in chosen:
                here = frozenset(parameter for index, parameter in enumerate(parameters)
                                 if parameter in names or (index in positions and not names
                                                           & set(parameters)))
                found = here if found is None else found & here
        return found or frozenset()

    def static_argument_type(self, operator: str, parameter: str) -> str | None:
        """The schema type of ``operator``'s parameter ``parameter`` (``int?``) if every
        overload of the operator that has the parameter types it as a static number; None
        if one types it otherwise (``SymInt``, ``Scalar``) or the schemas do not know it."""
        self._load()
        declared = self._declared.get(operator, {}).get(parameter)
        if not declared or not all(STATIC_SCHEMA_TYPES.match(typ) for typ in declared):
            return None
        return declared[0] if len(set(declared)) == 1 else " / ".join(sorted(set(declared)))

    def _decorator_of(self, function: FuncDef, tree: MypyFile) -> Decorator | None:
        known = self._decorators.get(tree.fullname)
        if known is None or known[0] is not tree:
            found = {node.func: node for node in walk(tree.defs, _enters)
                     if isinstance(node, Decorator)}
            known = self._decorators[tree.fullname] = (tree, found)
        return known[1].get(function)


def _enters(node: object) -> bool:
    return not isinstance(node, Expression)


def schema_path() -> str | None:
    """``native_functions.yaml`` of the installed ``torchgen``, found without importing it."""
    try:
        spec = importlib.util.find_spec("torchgen")
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for location in locations:
        path = os.path.join(location, SCHEMA_FILE)
        if os.path.isfile(path):
            return path
    return None


def _split(arguments: str) -> Iterator[str]:
    """The comma-separated arguments of a schema, commas inside brackets kept."""
    depth, start = 0, 0
    for index, character in enumerate(arguments):
        if character in "([":
            depth += 1
        elif character in ")]":
            depth -= 1
        elif character == "," and depth == 0:
            yield arguments[start:index].strip()
            start = index + 1
    if arguments[start:].strip():
        yield arguments[start:].strip()


def registered_operators(decorator: Decorator) -> list[tuple[str, str | None]]:
    """The aten operators the decorators register the function for, as (name, overload or
    None for every overload): ``register_decomposition(aten.rot90)``,
    ``register_meta([aten.x.default, torch.ops.aten.y])``, ``@aten.z.default.py_impl(...)``."""
    found: list[tuple[str, str | None]] = []
    for expr in decorator.decorators:
        if not isinstance(expr, CallExpr):
            continue
        candidates: list[Expression] = [expr.callee]
        for argument in expr.args:
            candidates += argument.items if isinstance(argument, (ListExpr, TupleExpr)) \
                else [argument]
        for candidate in candidates:
            operator = _aten_operator(candidate)
            if operator is not None:
                found.append(operator)
    return found


def _aten_operator(expr: Expression) -> tuple[str, str | None] | None:
    parts: list[str] = []
    while isinstance(expr, MemberExpr):
        parts.insert(0, expr.name)
        expr = expr.expr
    if not isinstance(expr, NameExpr):
        return None
    parts.insert(0, expr.name)
    if "aten" not in parts:
        return None
    rest = [part for part in parts[parts.index("aten") + 1:] if part != "py_impl"]
    if not rest:
        return None
    overload = rest[1] if len(rest) > 1 else None
    return rest[0], "" if overload == "default" else overload
