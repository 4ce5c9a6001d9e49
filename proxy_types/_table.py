"""The one table of number kinds and concretizing operations.

Pure data: the runtime layer (``proxy_types``) and the mypy plugin
(``mypy_plugin``) both read it, so neither can drift from the other.  Nothing
here may import anything beyond the standard library: the plugin loads this
module inside mypy, where importing torch (or any analyzed package) is banned.
Classes are named by their fully qualified name, never by reference.
"""

# No ``from __future__ import annotations``: NamedTuple compiles each string
# annotation, which tripled the time the plugin takes to load this table.
from typing import NamedTuple

# -- static numbers ---------------------------------------------------------

#: Builtin number classes, narrowest first, with the Python type each stands for.
STATIC_BUILTIN_TYPES: dict[str, str] = {
    "builtins.bool": "bool",
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.complex": "complex",
}

#: The ``numbers`` ABCs; a proxy registered with any of them would pass as static.
STATIC_ABC_TYPES: tuple[str, ...] = (
    "numbers.Number",
    "numbers.Complex",
    "numbers.Real",
    "numbers.Rational",
    "numbers.Integral",
)

STATIC_NUMBER_TYPES: tuple[str, ...] = (*STATIC_BUILTIN_TYPES, *STATIC_ABC_TYPES)

#: Which static classes a value of each Python type is an instance of.
#: ``isinstance(x, C)`` for C in the list is what a check *means* for that kind.
STATIC_CLASSES_OF: dict[str, tuple[str, ...]] = {
    "bool": ("builtins.bool", "builtins.int", "numbers.Integral", "numbers.Rational",
             "numbers.Real", "numbers.Complex", "numbers.Number"),
    "int": ("builtins.int", "numbers.Integral", "numbers.Rational", "numbers.Real",
            "numbers.Complex", "numbers.Number"),
    "float": ("builtins.float", "numbers.Real", "numbers.Complex", "numbers.Number"),
    "complex": ("builtins.complex", "numbers.Complex", "numbers.Number"),
}

# -- dynamic numbers --------------------------------------------------------


class DynamicNumberType(NamedTuple):
    """A class whose instances are dynamic numbers standing for ``python_type``."""

    module: str
    name: str
    python_type: str  # "bool" | "int" | "float" | "complex" | "number" (any of them)

    @property
    def fullname(self) -> str:
        return f"{self.module}.{self.name}"


#: Our own proxies.  Subclasses of these are dynamic too.
OWN_DYNAMIC_TYPES: tuple[DynamicNumberType, ...] = (
    DynamicNumberType("proxy_types._proxies", "NumberProxy", "number"),
    DynamicNumberType("proxy_types._proxies", "IntegerProxy", "int"),
    DynamicNumberType("proxy_types._proxies", "FloatProxy", "float"),
    DynamicNumberType("proxy_types._proxies", "ComplexProxy", "complex"),
    DynamicNumberType("proxy_types._proxies", "BoolProxy", "bool"),
    DynamicNumberType("proxy_types._guards", "DynamicNumber", "number"),
)

#: Foreign dynamic numbers recognized by name; their module is never imported.
FOREIGN_DYNAMIC_TYPES: tuple[DynamicNumberType, ...] = (
    DynamicNumberType("torch", "SymInt", "int"),
    DynamicNumberType("torch", "SymFloat", "float"),
    DynamicNumberType("torch", "SymBool", "bool"),
)

DYNAMIC_NUMBER_TYPES: tuple[DynamicNumberType, ...] = OWN_DYNAMIC_TYPES + FOREIGN_DYNAMIC_TYPES

# -- operations -------------------------------------------------------------


class Concretizer(NamedTuple):
    """A dunder that turns a dynamic number into a plain Python value."""

    dunder: str
    operation: str  # how users spell it, for messages
    result: str  # the Python type produced


#: Every implicit concretization.  The runtime makes each raise
#: ``ConcretizationError``; the stubs leave each out; the plugin reports each.
CONCRETIZING_DUNDERS: tuple[Concretizer, ...] = (
    Concretizer("__bool__", "bool() / truth test", "bool"),
    Concretizer("__int__", "int()", "int"),
    Concretizer("__float__", "float()", "float"),
    Concretizer("__complex__", "complex()", "complex"),
    Concretizer("__index__", "operator.index() / indexing / range()", "int"),
    Concretizer("__round__", "round()", "int"),
    Concretizer("__trunc__", "math.trunc()", "int"),
    Concretizer("__floor__", "math.floor()", "int"),
    Concretizer("__ceil__", "math.ceil()", "int"),
    Concretizer("__hash__", "hash()", "int"),
)

#: Dunders that concretize only where a class defines them: object's default
#: ``__format__`` formats ``str(x)`` (a proxy's name), so proxies keep it.  The
#: runtime audit watches them on classes that override object's version.
CLASS_CONCRETIZING_DUNDERS: tuple[Concretizer, ...] = (
    Concretizer("__format__", "format() / f-string", "str"),
)

#: Callables (by fully qualified name, as mypy sees them) that concretize
#: a number argument implicitly, mapped to the spelling used in messages.
CONCRETIZING_FUNCTIONS: dict[str, str] = {
    "builtins.bool": "bool()",
    "builtins.int": "int()",
    "builtins.float": "float()",
    "builtins.complex": "complex()",
    "builtins.round": "round()",
    "builtins.range": "range()",
    "builtins.hex": "hex()",
    "builtins.oct": "oct()",
    "builtins.bin": "bin()",
    "builtins.hash": "hash()",
    "builtins.chr": "chr()",
    "builtins.format": "format()",
    "_operator.index": "operator.index()",
    "operator.index": "operator.index()",
    "_operator.truth": "operator.truth()",
    "operator.truth": "operator.truth()",
    "_operator.not_": "operator.not_()",
    "operator.not_": "operator.not_()",
}

#: Module whose every function concretizes number arguments (``math.sqrt(p)``
#: calls ``p.__float__``).
CONCRETIZING_MODULES: tuple[str, ...] = ("math", "cmath")


class Operator(NamedTuple):
    """A Python operator that proxies implement and record."""

    name: str  # attribute of the ``operator`` module that computes it
    dunder: str
    reflected: str | None  # None for unary operators and comparisons
    symbol: str  # how the trace prints it
    kind: str  # "arith" | "true_div" | "compare" | "bitwise" | "unary" | "pow"


#: Every operator of number proxies; the runtime builds its methods from this
#: table and the plugin reads the comparison dunders from it.
OPERATORS: tuple[Operator, ...] = (
    Operator("add", "__add__", "__radd__", "+", "arith"),
    Operator("sub", "__sub__", "__rsub__", "-", "arith"),
    Operator("mul", "__mul__", "__rmul__", "*", "arith"),
    Operator("truediv", "__truediv__", "__rtruediv__", "/", "true_div"),
    Operator("floordiv", "__floordiv__", "__rfloordiv__", "//", "arith"),
    Operator("mod", "__mod__", "__rmod__", "%", "arith"),
    Operator("pow", "__pow__", "__rpow__", "**", "pow"),
    Operator("and_", "__and__", "__rand__", "&", "bitwise"),
    Operator("or_", "__or__", "__ror__", "|", "bitwise"),
    Operator("xor", "__xor__", "__rxor__", "^", "bitwise"),
    Operator("lshift", "__lshift__", "__rlshift__", "<<", "bitwise"),
    Operator("rshift", "__rshift__", "__rrshift__", ">>", "bitwise"),
    Operator("eq", "__eq__", None, "==", "compare"),
    Operator("ne", "__ne__", None, "!=", "compare"),
    Operator("lt", "__lt__", None, "<", "compare"),
    Operator("le", "__le__", None, "<=", "compare"),
    Operator("gt", "__gt__", None, ">", "compare"),
    Operator("ge", "__ge__", None, ">=", "compare"),
    Operator("neg", "__neg__", None, "-", "unary"),
    Operator("pos", "__pos__", None, "+", "unary"),
    Operator("abs", "__abs__", None, "abs", "unary"),
    Operator("invert", "__invert__", None, "~", "unary"),
)

COMPARISON_DUNDERS: frozenset[str] = frozenset(o.dunder for o in OPERATORS if o.kind == "compare")
