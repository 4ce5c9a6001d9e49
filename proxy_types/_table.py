"""The one table of number kinds and concretizing operations.

Data plus a few pure lookups (``outcome``, ``conversion``, ``dynamic_kind``):
the runtime layer (``proxy_types``) and the mypy plugin (``mypy_plugin``) both
read it, so neither can drift from the other, and
tests/runtime/test_table_behaviour.py runs every row against the real
runtime (our proxies, torch's Sym types, model configured classes).  Nothing
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
_OWN_NAMES: frozenset[str] = frozenset(t.fullname for t in OWN_DYNAMIC_TYPES)
_TORCH_NAMES: frozenset[str] = frozenset(t.fullname for t in FOREIGN_DYNAMIC_TYPES if t.module == "torch")

# -- what each conversion does to each kind of dynamic class ----------------
#
# A conversion is a protocol Python runs on a number: ``int(x)`` calls
# ``x.__int__`` (with Python's fallbacks), ``xs[x]`` calls ``x.__index__``.
# Each one is recorded once, with what it does to each *kind* of dynamic
# class; the callables and syntax that perform it point at it by name.

#: How a dynamic class answers a conversion.
DYNAMIC_KINDS: dict[str, str] = {
    "own": "our proxies (OWN_DYNAMIC_TYPES): a conversion raises ConcretizationError",
    "torch": "torch.SymInt / SymFloat / SymBool: a conversion installs a guard in the ShapeEnv",
    "silent": "configured classes (dynamic_number_classes), like thunder's NumberProxy: "
              "a conversion returns the trace-time value, recording nothing",
    "guarded": "configured classes also listed in guarded_number_classes: they behave like torch",
}

#: What a conversion does, judged against a static number of the same Python type.
OUTCOMES: dict[str, str] = {
    "raises": "fails at run time where a static number works (ConcretizationError from "
              "our proxies, TypeError from other classes)",
    "silent": "returns the trace-time value and records nothing: the program silently "
              "bakes in a constant",
    "guards": "returns the value and installs a guard: sound, but the program is "
              "specialized on the value (on an unbacked torch symbol: torch's data-dependent error)",
    "symbolic": "returns a dynamic number: nothing is forced",
    "names": "returns the text of the dynamic number (its name or expression), not its value",
    "breaks": "torch.compile cannot trace it: an error under fullgraph=True, else a graph "
              "break after which the text is a constant (specialized on the value)",
    "unsupported": "a static number of the same Python type fails too (TypeError): a type "
                   "error, not a concretization",
    "misclassifies": "an isinstance check against static number classes is False: the code "
                     "takes the branch meant for other values",
    "static": "the tracer answers it as for a static number of the same Python type: "
              "nothing goes wrong",
}

#: The plugin's error code for each outcome (None: nothing to report).
FINDING_CODES: dict[str, str | None] = {
    "raises": "proxy-concretize",
    "silent": "proxy-concretize",
    "guards": "proxy-specialize",
    "symbolic": None,
    "names": None,
    "breaks": "proxy-specialize",
    "unsupported": None,
    "misclassifies": "proxy-isinstance",
    "static": None,
}

#: The Python types torch has Sym classes for (there is no SymComplex).
TORCH_PYTHON_TYPES: tuple[str, ...] = ("bool", "int", "float")
_NUMBER_TYPES: tuple[str, ...] = ("bool", "int", "float", "complex")
_REAL: tuple[str, ...] = ("bool", "int", "float")
_INTEGRAL: tuple[str, ...] = ("bool", "int")


class Conversion(NamedTuple):
    """What one conversion does to each kind of dynamic class."""

    name: str  # the key: the dunder, or "__format__:spec" for a non-empty format spec
    dunder: str  # the method Python calls
    operation: str  # how users spell it, for messages
    result: str  # the Python type a static number converts to
    accepts: tuple[str, ...]  # Python types whose static numbers support it
    # Per kind: one outcome for every accepted type, or one per Python type.
    own: str | dict[str, str]
    torch: str | dict[str, str]
    silent: str | dict[str, str]
    guarded: str | dict[str, str]


# torch 2.13: SymBool has only __bool__, __int__ and __hash__; SymInt refuses
# hash(); round/trunc/floor/ceil of SymInt and SymFloat are sympy expressions.
_TORCH_REAL_GUARDS = {"bool": "raises", "int": "guards", "float": "guards"}
_TORCH_REAL_SYMBOLIC = {"bool": "raises", "int": "symbolic", "float": "symbolic"}

CONVERSIONS: tuple[Conversion, ...] = (
    Conversion("__bool__", "__bool__", "bool() / truth test", "bool", _NUMBER_TYPES,
               own="raises", torch="guards", silent="silent", guarded="guards"),
    Conversion("__int__", "__int__", "int()", "int", _REAL,
               own="raises", torch="guards", silent="silent", guarded="guards"),
    Conversion("__float__", "__float__", "float()", "float", _REAL,
               own="raises", torch=_TORCH_REAL_GUARDS, silent="silent", guarded="guards"),
    Conversion("__complex__", "__complex__", "complex()", "complex", _NUMBER_TYPES,
               own="raises", torch=_TORCH_REAL_GUARDS, silent="silent", guarded="guards"),
    Conversion("__index__", "__index__", "operator.index() / indexing / range()", "int", _INTEGRAL,
               own="raises", torch={"bool": "raises", "int": "guards"}, silent="silent",
               guarded="guards"),
    Conversion("__round__", "__round__", "round()", "int", _REAL,
               own="raises", torch=_TORCH_REAL_SYMBOLIC, silent="symbolic", guarded="symbolic"),
    Conversion("__trunc__", "__trunc__", "math.trunc()", "int", _REAL,
               own="raises", torch=_TORCH_REAL_SYMBOLIC, silent="symbolic", guarded="symbolic"),
    Conversion("__floor__", "__floor__", "math.floor()", "int", _REAL,
               own="raises", torch=_TORCH_REAL_SYMBOLIC, silent="symbolic", guarded="symbolic"),
    Conversion("__ceil__", "__ceil__", "math.ceil()", "int", _REAL,
               own="raises", torch=_TORCH_REAL_SYMBOLIC, silent="symbolic", guarded="symbolic"),
    Conversion("__hash__", "__hash__", "hash()", "int", _NUMBER_TYPES,
               own="raises", torch={"bool": "guards", "int": "raises", "float": "guards"},
               silent="silent", guarded="guards"),
    Conversion("__format__", "__format__", "format() / f-string without a format spec", "str",
               _NUMBER_TYPES, own="names", torch="names", silent="names", guarded="names"),
    Conversion("__format__:spec", "__format__", "format() / f-string with a format spec", "str",
               _NUMBER_TYPES, own="raises", torch="raises", silent="raises", guarded="raises"),
    Conversion("__str__", "__str__", "str()", "str",
               _NUMBER_TYPES, own="names", torch="names", silent="names", guarded="names"),
)

_CONVERSION_BY_NAME: dict[str, Conversion] = {c.name: c for c in CONVERSIONS}


class ConvertingCall(NamedTuple):
    """A callable or a piece of syntax that converts its number argument."""

    operation: str  # how users spell it, for messages
    conversion: str  # the Conversion.name it performs


#: Callables by fully qualified name (as mypy sees them), each with the conversion it runs.
CONVERTING_FUNCTIONS: dict[str, ConvertingCall] = {
    "builtins.bool": ConvertingCall("bool()", "__bool__"),
    "builtins.int": ConvertingCall("int()", "__int__"),
    "builtins.float": ConvertingCall("float()", "__float__"),
    "builtins.complex": ConvertingCall("complex()", "__complex__"),
    "builtins.round": ConvertingCall("round()", "__round__"),
    "builtins.range": ConvertingCall("range()", "__index__"),
    "builtins.hex": ConvertingCall("hex()", "__index__"),
    "builtins.oct": ConvertingCall("oct()", "__index__"),
    "builtins.bin": ConvertingCall("bin()", "__index__"),
    "builtins.hash": ConvertingCall("hash()", "__hash__"),
    "builtins.chr": ConvertingCall("chr()", "__index__"),
    "builtins.format": ConvertingCall("format()", "__format__"),
    "builtins.str": ConvertingCall("str()", "__str__"),
    "_operator.index": ConvertingCall("operator.index()", "__index__"),
    "operator.index": ConvertingCall("operator.index()", "__index__"),
    "_operator.truth": ConvertingCall("operator.truth()", "__bool__"),
    "operator.truth": ConvertingCall("operator.truth()", "__bool__"),
    "_operator.not_": ConvertingCall("operator.not_()", "__bool__"),
    "operator.not_": ConvertingCall("operator.not_()", "__bool__"),
    "math.floor": ConvertingCall("math.floor()", "__floor__"),
    "math.ceil": ConvertingCall("math.ceil()", "__ceil__"),
    "math.trunc": ConvertingCall("math.trunc()", "__trunc__"),
    # The integer functions of math take their arguments through __index__.
    **{f"math.{name}": ConvertingCall(f"math.{name}()", "__index__")
       for name in ("comb", "factorial", "gcd", "isqrt", "lcm", "perm")},
}

#: Modules whose every other public function converts its number arguments
#: (``math.sqrt(x)`` calls ``x.__float__``, ``cmath.exp(x)`` ``x.__complex__``).
CONVERTING_MODULES: dict[str, str] = {"math": "__float__", "cmath": "__complex__"}
#: Their functions that convert nothing: ``math.prod`` multiplies with ``*``.
NON_CONVERTING_FUNCTIONS: frozenset[str] = frozenset({"math.prod"})

#: Conversions run by syntax rather than by a call.
CONVERTING_SYNTAX: dict[str, ConvertingCall] = {
    "truth test": ConvertingCall("truth test (if / while / not / and / or)", "__bool__"),
    "indexing": ConvertingCall("indexing / slicing", "__index__"),
    "sequence repetition": ConvertingCall("sequence repetition (seq * n)", "__index__"),
    "f-string": ConvertingCall('f-string without a format spec (f"{n}")', "__format__"),
    "str.format": ConvertingCall('str.format() without a format spec ("{}".format(n))',
                                 "__format__"),
    "%s": ConvertingCall('%-formatting with %s ("%s" % n)', "__str__"),
}

# -- what differs between torch's tracers ----------------------------------------
#
# The ``torch`` column says what a conversion does to a Sym type in the ShapeEnv as
# make_fx(tracing_mode="symbolic") and torch.export.export(strict=False) use it.
# torch.compile runs Dynamo first, which treats some spellings its own way
# (tests/runtime/test_tracer_formatting.py traces each of them the three ways).

#: The tracers that make torch Sym types.
TORCH_TRACERS: dict[str, str] = {
    "make_fx": 'make_fx(f, tracing_mode="symbolic")',
    "export": "torch.export.export(m, ..., strict=False) with Dims",
    "compile": "torch.compile(f, dynamic=True, fullgraph=True)",
}

#: Where torch.compile differs from the ``torch`` column, by operation (for torch 2.13).
#: Text built without a spec names the symbol under make_fx and export; Dynamo needs
#: it as a constant: f-strings guard on the value (a recompile for each size), str(),
#: "{}".format() and %-formatting are graph breaks, and format() fails outright
#: (InternalTorchDynamoError, with or without fullgraph).
TORCH_COMPILE_OUTCOMES: dict[str, str] = {
    "f-string": "guards",
    "str.format": "breaks",
    "builtins.format": "raises",
    "builtins.str": "breaks",
    "%s": "breaks",
}


#: What each torch tracer does at the operations other than conversions that the plugin
#: reports on a torch Sym number, where the tracers differ (torch 2.13;
#: tests/runtime/test_tracer_outcomes_runtime.py traces each row the three ways).
#: ``isinstance``: a SymInt is no ``int`` to make_fx and export, so ``isinstance(n, int)``
#: (or ``numbers.Integral``) sends it down the other branch; Dynamo answers the check
#: itself, as for an int.  ``torch.tensor`` of a size: make_fx specializes the size, export
#: and torch.compile keep it symbolic (``aten.scalar_tensor``).  ``torch.as_tensor`` of a
#: size: make_fx specializes it, export rejects that ("specialized it to be a constant"),
#: torch.compile recompiles for each size.  ``tensor assert``: ``assert (t > 0).all()``
#: on tensor data, where make_fx and export fail (GuardOnDataDependentSymNode, the
#: data-dependent form of a guard) and torch.compile turns the test into ``torch._assert``.
TORCH_TRACER_OUTCOMES: dict[str, dict[str, str]] = {
    "isinstance": {"make_fx": "misclassifies", "export": "misclassifies", "compile": "static"},
    "torch.tensor": {"make_fx": "guards", "export": "symbolic", "compile": "symbolic"},
    "torch.as_tensor": {"make_fx": "guards", "export": "guards", "compile": "guards"},
    "tensor assert": {"make_fx": "guards", "export": "guards", "compile": "symbolic"},
}


def tracer_outcomes(operation: str, python_type: str = "number", *,
                    format_spec: bool = False) -> dict[str, str]:
    """What ``operation`` does to a torch dynamic number under each of TORCH_TRACERS.

    ``operation`` is a TORCH_TRACER_OUTCOMES key or anything :func:`outcome` takes;
    returns an OUTCOMES key per tracer, in TORCH_TRACERS' order.
    """
    row = TORCH_TRACER_OUTCOMES.get(operation)
    if row is not None:
        return {tracer: row[tracer] for tracer in TORCH_TRACERS}
    return {tracer: outcome(operation, "torch", python_type, format_spec=format_spec,
                            tracer=tracer) for tracer in TORCH_TRACERS}


def failing_tracers(operation: str, python_type: str = "number", *,
                    format_spec: bool = False) -> tuple[str, ...]:
    """The TORCH_TRACERS under which ``operation`` on a torch dynamic number is a finding."""
    outcomes = tracer_outcomes(operation, python_type, format_spec=format_spec)
    return tuple(tracer for tracer, found in outcomes.items() if FINDING_CODES[found] is not None)


def conversion(operation: str) -> Conversion | None:
    """The conversion ``operation`` performs, or None when it performs none.

    ``operation`` is a Conversion name (``"__int__"``, ``"__format__:spec"``), a
    callable's fully qualified name (``"builtins.round"``, ``"math.sqrt"``) or a
    CONVERTING_SYNTAX key (``"indexing"``).
    """
    found = _CONVERSION_BY_NAME.get(operation)
    if found is not None:
        return found
    call = CONVERTING_FUNCTIONS.get(operation) or CONVERTING_SYNTAX.get(operation)
    if call is not None:
        return _CONVERSION_BY_NAME[call.conversion]
    module, _, name = operation.rpartition(".")
    if operation in NON_CONVERTING_FUNCTIONS:
        return None
    if module in CONVERTING_MODULES and name and not name.startswith("_"):
        return _CONVERSION_BY_NAME[CONVERTING_MODULES[module]]
    return None


def operation_spelling(operation: str) -> str:
    """How users spell ``operation`` in messages (``"math.sqrt()"``, ``"range()"``)."""
    call = CONVERTING_FUNCTIONS.get(operation) or CONVERTING_SYNTAX.get(operation)
    if call is not None:
        return call.operation
    found = _CONVERSION_BY_NAME.get(operation)
    if found is not None:
        return found.operation
    if conversion(operation) is not None:
        return f"{operation}()"
    raise KeyError(f"{operation!r} is no converting operation of the proxy_types table")


#: Most serious first: which outcome a value of unknown Python type ("number") gets.
SEVERITY: tuple[str, ...] = ("raises", "silent", "misclassifies", "breaks", "guards", "names",
                             "symbolic", "static", "unsupported")


def outcome(operation: str, kind: str, python_type: str, *, format_spec: bool = False,
            tracer: str | None = None) -> str:
    """What ``operation`` does to a dynamic number of ``kind`` standing for ``python_type``.

    ``kind`` is a DYNAMIC_KINDS key, ``python_type`` "bool", "int", "float",
    "complex" or "number" (unknown: the most serious outcome over the types
    that support the operation).  ``format_spec``: a non-empty format spec is
    (or may be) passed, for ``format()`` and ``__format__``.  ``tracer``: a
    TORCH_TRACERS key, for the torch kind; None: the most serious outcome over
    them.  Returns an OUTCOMES key; raises KeyError for an operation the table
    does not know (test with ``conversion()`` first) and ValueError for a bad
    kind, type or tracer.
    """
    if tracer is not None and tracer not in TORCH_TRACERS:
        raise ValueError(f"unknown tracer {tracer!r}; expected one of {', '.join(TORCH_TRACERS)}")
    shape_env = _outcome(operation, kind, python_type, format_spec)
    compiled = TORCH_COMPILE_OUTCOMES.get(operation)
    if kind != "torch" or format_spec or compiled is None or shape_env == "unsupported" \
            or tracer in ("make_fx", "export"):
        return shape_env
    if tracer == "compile" or SEVERITY.index(compiled) < SEVERITY.index(shape_env):
        return compiled
    return shape_env


def _outcome(operation: str, kind: str, python_type: str, format_spec: bool) -> str:
    found = conversion(operation)
    if found is None:
        raise KeyError(f"{operation!r} is no converting operation of the proxy_types table")
    if format_spec and found.dunder == "__format__":
        found = _CONVERSION_BY_NAME["__format__:spec"]
    if kind not in DYNAMIC_KINDS:
        raise ValueError(f"unknown dynamic kind {kind!r}; expected one of {', '.join(DYNAMIC_KINDS)}")
    possible = TORCH_PYTHON_TYPES if kind == "torch" else _NUMBER_TYPES
    if python_type == "number":
        outcomes = {_outcome_for(found, kind, each) for each in possible}
        return next(each for each in SEVERITY if each in outcomes)
    if python_type not in possible:
        raise ValueError(f"no {kind} dynamic class stands for {python_type!r}; expected one of "
                         f"{', '.join(possible)} or number")
    return _outcome_for(found, kind, python_type)


def _outcome_for(found: Conversion, kind: str, python_type: str) -> str:
    if python_type not in found.accepts:
        return "unsupported"
    per_kind: str | dict[str, str] = getattr(found, kind)
    return per_kind if isinstance(per_kind, str) else per_kind[python_type]


def finding_code(outcome_name: str) -> str | None:
    """The plugin's error code for an outcome, None when there is nothing to report."""
    return FINDING_CODES[outcome_name]


def dynamic_kind(fullname: str, guarded_classes: frozenset[str] | tuple[str, ...] = ()) -> str:
    """The DYNAMIC_KINDS key of the dynamic class ``fullname``.

    Our proxies are "own", torch's Sym types "torch", classes named in
    ``guarded_classes`` (the guarded_number_classes setting) "guarded", and any
    other (configured) dynamic class "silent".  Pass the class the value is an
    instance of, or the dynamic base class it was recognized by.
    """
    if fullname in _OWN_NAMES:
        return "own"
    if fullname in _TORCH_NAMES:
        return "torch"
    return "guarded" if fullname in guarded_classes else "silent"


# -- the names the runtime and the plugin have always read -------------------


class Concretizer(NamedTuple):
    """A dunder that turns a dynamic number into a plain Python value."""

    dunder: str
    operation: str  # how users spell it, for messages
    result: str  # the Python type produced


# __format__ is not one: with an empty spec it names the proxy.
_ALWAYS_REFUSED: frozenset[str] = frozenset(c.dunder for c in CONVERSIONS) - frozenset(
    c.dunder for c in CONVERSIONS if c.own != "raises"
)

#: Every dunder our proxies always refuse: the runtime makes each raise
#: ``ConcretizationError``, the stubs leave each out.
CONCRETIZING_DUNDERS: tuple[Concretizer, ...] = tuple(
    Concretizer(c.dunder, c.operation, c.result) for c in CONVERSIONS if c.dunder in _ALWAYS_REFUSED
)

#: Dunders that concretize only where a class defines them: object's default
#: ``__format__`` formats ``str(x)`` (a proxy's name), so proxies keep it.  The
#: runtime audit watches them on classes that override object's version.
CLASS_CONCRETIZING_DUNDERS: tuple[Concretizer, ...] = tuple(
    Concretizer(c.dunder, "format() / f-string", c.result)
    for c in CONVERSIONS if c.name == c.dunder == "__format__"
)

#: Every converting callable, mapped to the spelling used in messages.
CONCRETIZING_FUNCTIONS: dict[str, str] = {
    name: call.operation for name, call in CONVERTING_FUNCTIONS.items()
}

#: Modules whose every public function converts number arguments.
CONCRETIZING_MODULES: tuple[str, ...] = tuple(CONVERTING_MODULES)


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
