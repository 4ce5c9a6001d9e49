"""What the cross-call analysis follows, as data: sinks, propagation and safe checks.

A *sink* is an operation in a callee's body that goes wrong for a dynamic number
reaching it through a parameter.  Each entry says what the tracing compiler does
there, checked with torch 2.13 on CPU (``tests/runtime/test_cross_call_runtime.py``):

* ``isinstance(p, numbers.Integral)`` (any static number class, without a dynamic
  one beside it) is False for a ``torch.SymInt``: the code takes its non-number
  branch.  ``torch.nn.LayerNorm(x.shape[-1])`` then fails with ``TypeError:
  'SymInt' object is not iterable`` under ``make_fx(tracing_mode="symbolic")`` and
  ``torch.export.export(strict=False)`` with a ``Dim``.
* ``int(p)``, ``float(p)``, ``bool(p)`` read the value: torch guards on it (the
  program is specialized), a proxy of ours raises.
* ``if p:`` / ``while p:`` on the value itself is a truth test, which guards
  ``p != 0`` the same way.
* ``cached(p)``, a call of a function under ``functools.lru_cache`` or
  ``functools.cache`` (``constants.CACHING_DECORATORS``), hashes ``p`` into the cache
  key: ``TypeError: unhashable type: non-nested SymInt`` under make_fx and export;
  torch.compile traces through the cache wrapper
  (``tests/runtime/test_cached_calls_runtime.py``).

The kinds map to the plugin's report codes through ``proxy_types/_table.py`` (the
``isinstance`` kind is always ``proxy-isinstance``).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..constants import DEFAULT_DYNAMIC_CLASSES, STATIC_NUMBER_CLASSES

ISINSTANCE: Final = "isinstance"
CONVERSION: Final = "conversion"
TRUTH: Final = "truth"
HASH: Final = "hash"


class SinkKind(NamedTuple):
    """One kind of sink: what it is called and the operation the shared table knows it by."""

    kind: str
    #: ``proxy_types/_table.py``'s operation name (``isinstance``: a row of
    #: ``TORCH_TRACER_OUTCOMES``, reported as proxy-isinstance).
    table_operation: str
    #: What a dynamic number does there, as shown in the report.
    effect: str


SINK_KINDS: Final[dict[str, SinkKind]] = {
    ISINSTANCE: SinkKind(ISINSTANCE, ISINSTANCE, "which is False for dynamic number"),
    CONVERSION: SinkKind(CONVERSION, "truth test", "which reads the traced value of dynamic number"),
    TRUTH: SinkKind(TRUTH, "truth test", "which reads the traced value of dynamic number"),
    HASH: SinkKind(HASH, "__hash__", "a call of a functools cache, which hashes dynamic number"),
}

#: Calls whose argument is read as a value: the builtin conversions.
CONVERSION_FUNCTIONS: Final = frozenset({"builtins.int", "builtins.float", "builtins.bool"})

#: Classes a sink's isinstance checks against (fully qualified, as mypy resolves them).
STATIC_CLASSES: Final = STATIC_NUMBER_CLASSES
#: Classes whose presence in an isinstance check means the code handles dynamic numbers
#: (``isinstance(n, (int, torch.SymInt))``); a parameter checked against one of them
#: anywhere in the callee is taken as handled there.  Not ``Tensor``: a SymInt is no
#: Tensor either.  torch 2.13, a parameter declared ``int | Tensor``: ``isinstance(n,
#: int)`` then ``n.dim()``, ``isinstance(n, (int, Tensor))`` and ``isinstance(n, Tensor)``
#: then ``elif isinstance(n, int)`` all send a SymInt to the wrong branch under make_fx
#: and export (strict=False); only a Tensor check with no static-class check after it
#: works (tests/runtime/test_cross_call_params_runtime.py).
HANDLING_CLASSES: Final = DEFAULT_DYNAMIC_CLASSES | frozenset({
    "torch.types.py_sym_types", "torch.types.IntLikeType", "torch.types.FloatLikeType",
})

#: Calls through which a parameter's value passes unchanged as far as sinks care.
VALUE_PRESERVING_CALLS: Final = frozenset({"builtins.abs"})

#: Tensor methods whose result is a data-dependent number (under ``symbolic_shapes``):
#: ``True`` for the value itself (``t.item()``), ``False`` for its items (``t.tolist()``).
#: torch 2.13: a condition on ``t.sum().item() > 0`` raises GuardOnDataDependentSymNode
#: under ``make_fx(tracing_mode="symbolic")`` and a UserError under
#: ``torch.compile(dynamic=True, fullgraph=True)``; ``int(t.max().item())`` raises
#: under make_fx ("Could not extract specialized integer from data-dependent
#: expression"); export makes these values unbacked symbols
#: (tests/runtime/test_cross_call_runtime.py).
DATA_DEPENDENT_METHODS: Final = {"item": True, "tolist": False}

#: Tests that are True only where no tracing compiler runs the code: under TorchScript
#: (``is_scripting``), or False while torch.compile/export trace it.  torch 2.13:
#: ``torch.compiler.is_compiling()`` and ``torch._dynamo.is_compiling()`` are True under
#: ``torch.compile`` and ``torch.export.export(strict=False)``, False under ``make_fx``
#: and in eager code; ``torch.jit.is_tracing()`` is True under ``torch.jit.trace`` only.
#: A branch only eager code takes (``if not is_compiling():``) is left out of summaries,
#: like ``TYPE_CHECKING`` code (issue #27: treat them alike).
SCRIPTING_TESTS: Final = frozenset({"torch._jit_internal.is_scripting", "torch.jit.is_scripting"})
COMPILING_TESTS: Final = frozenset({
    "torch.compiler.is_compiling", "torch.compiler.is_dynamo_compiling",
    "torch._dynamo.external_utils.is_compiling", "torch._dynamo.is_compiling",
    "torch._utils.is_compiling", "torch.jit._trace.is_tracing", "torch.jit.is_tracing",
})

#: Builtins that use tensor sizes as Python values, under ``symbolic_shapes``, in
#: traced code.  torch 2.13, ``make_fx(tracing_mode="symbolic")``:
#: ``x.new_zeros(len(x))`` installs ``Eq(s0, 3)`` (``len()`` must return an int, so the
#: first size is specialized).  Builtin ``min``/``max`` over sizes are not here: export
#: (strict=False) and torch.compile keep them symbolic (no guard, no recompile), and
#: make_fx guards only their order (``s1 < s0``), which pins no value
#: (tests/runtime/test_sink_rules_runtime.py).  Name -> what the report says the call does.
SIZE_SINK_FUNCTIONS: Final = {
    "builtins.len": "len() of a tensor (its first size, as an int)",
}

#: Builtins that test each item of an iterable for truth: of a tensor, each item is a
#: 0-d tensor whose truth reads its data.  torch 2.13, ``if all(x.sum(1) > 0):`` in
#: traced code: make_fx and export raise ``GuardOnDataDependentSymNode``,
#: torch.compile(fullgraph=True) refuses the branch; ``torch.all(t)`` used as data
#: traces (tests/runtime/test_tensor_truth_iteration_runtime.py).  A ``tensor-condition``
#: sink where the call is a condition.  Name -> what the report says is tested.
TENSOR_TRUTH_BUILTINS: Final = {
    "builtins.all": "all() of a tensor",
    "builtins.any": "any() of a tensor",
}
#: Iterating a tensor gives 0-d tensors: one used as a condition in the loop's body
#: (``for layer, drop in zip(layers, to_drop): if drop:``) fails the same way.  The
#: calls that iterate it: its ``__iter__`` (``for drop in t``), or ``zip()`` of it.
TENSOR_ITERATIONS: Final = frozenset({
    "torch._tensor.Tensor.__iter__", "torch._C.TensorBase.__iter__", "builtins.zip",
})

#: Tensor constructors from Python data: each dynamic number in the data (the first
#: argument: a number, a list or tuple of them, a ``torch.Size``) is read as a value,
#: under ``symbolic_shapes``, in traced code.  What each tracer does there is a row of
#: ``proxy_types/_table.py``'s ``TORCH_TRACER_OUTCOMES`` (tests/runtime/
#: test_tensor_data_runtime.py).  Name (as mypy resolves it) -> the table's operation.
TENSOR_DATA_SINK_FUNCTIONS: Final = {
    "torch._C._VariableFunctions.tensor": "torch.tensor",
    "torch._C._VariableFunctions.as_tensor": "torch.as_tensor",
}

#: Calls of Python's ``random`` module in traced code, under ``symbolic_shapes``.
#: torch 2.13 (tests/runtime/test_random_calls_runtime.py): make_fx(tracing_mode=
#: "symbolic") and export (strict=False) draw the value once at trace time and bake it
#: in (``if random() < 0.5:`` keeps the side it took); torch.compile(fullgraph=True)
#: stops ("Attempted to call function marked as skipped ... Random.random").
#: ``torch.rand``/``torch.randint`` are graph ops, drawn per call.  Module functions
#: as mypy resolves them, and ``random.Random`` methods (a seeded instance).
_PYTHON_RANDOM: Final = frozenset(
    f"random.{name}" for name in (
        "random", "uniform", "randint", "choice", "choices", "randrange", "gauss",
        "normalvariate", "shuffle", "sample", "getrandbits", "triangular", "betavariate",
        "expovariate",
    )
)
#: numpy's random numbers, the same way (tests/runtime/test_random_calls_runtime.py):
#: make_fx and export call numpy at trace time and bake the value in;
#: torch.compile(fullgraph=True) fails on the functions of ``np.random`` ("Attempted to
#: call function marked as skipped") and bakes a ``Generator``'s draw in as a constant.
#: The legacy functions are ``numpy.random.mtrand``'s, as mypy resolves them.
_NUMPY_LEGACY = (
    "rand", "randn", "randint", "random", "random_sample", "ranf", "sample", "uniform",
    "normal", "standard_normal", "choice", "shuffle", "permutation", "beta", "binomial",
    "exponential", "gamma", "poisson", "lognormal", "laplace", "bytes",
)
NUMPY_RANDOM_FUNCTIONS: Final = frozenset(f"numpy.random.mtrand.{name}" for name in _NUMPY_LEGACY)
NUMPY_RANDOM_METHODS: Final = frozenset(
    {f"numpy.random.mtrand.RandomState.{name}" for name in _NUMPY_LEGACY}
    | {f"numpy.random._generator.Generator.{name}" for name in (
        "random", "integers", "uniform", "normal", "standard_normal", "choice", "shuffle",
        "permutation", "permuted", "beta", "binomial", "exponential", "gamma", "poisson",
        "lognormal", "laplace", "bytes")})
RANDOM_FUNCTIONS: Final = _PYTHON_RANDOM | NUMPY_RANDOM_FUNCTIONS
RANDOM_METHODS: Final = frozenset(
    f"random.Random.{name.rpartition('.')[2]}" for name in _PYTHON_RANDOM
) | NUMPY_RANDOM_METHODS

#: torch's checks that take their message as a function, called only when the check
#: fails: name -> the position of ``message`` (also passed by that keyword).  torch 2.13
#: (tests/runtime/test_check_messages_runtime.py): make_fx and export never call it, so
#: text built there guards nowhere; torch.compile(fullgraph=True) refuses a message
#: function that closes over a traced value, whatever it builds.
CHECK_MESSAGE_POSITIONS: Final = {
    "torch._check": 1,
    "torch._check_is_size": 1,
    "torch._check_index": 1,
    "torch._check_value": 1,
    "torch._check_type": 1,
    "torch._check_not_implemented": 1,
    "torch._check_with": 2,
}

#: How many calls deep a summary follows callees (the user's call is not counted).
MAX_CALL_DEPTH: Final = 4
