"""Fully qualified names the plugin reacts to, all derived from ``proxy_types._table``."""

from __future__ import annotations

from .number_table import table as _table

#: The plugin's error codes (``codes.py`` makes them mypy's; named here without mypy,
#: for the settings that turn them on and off).
PLUGIN_CODE_NAMES = (
    "proxy-isinstance", "proxy-concretize", "proxy-base", "proxy-config", "proxy-cast",
    "proxy-specialize", "proxy-internal",
)

STATIC_NUMBER_CLASSES: frozenset[str] = frozenset(_table.STATIC_NUMBER_TYPES)
STATIC_NUMBER_ABCS: frozenset[str] = frozenset(_table.STATIC_ABC_TYPES)
#: The builtin number classes a class can inherit from (``bool`` cannot be subclassed).
SUBCLASSABLE_NUMBER_BUILTINS: frozenset[str] = frozenset(_table.STATIC_BUILTIN_TYPES) - {"builtins.bool"}

#: Dynamic number classes known without any configuration.
DEFAULT_DYNAMIC_CLASSES: frozenset[str] = frozenset(
    t.fullname for t in _table.DYNAMIC_NUMBER_TYPES
)

COMPARISON_DUNDERS: frozenset[str] = _table.COMPARISON_DUNDERS

#: torch's tracers, as the ``tracers`` setting names them (make_fx, export, compile).
TORCH_TRACER_NAMES: tuple[str, ...] = tuple(_table.TORCH_TRACERS)

ISINSTANCE_FUNCTIONS: dict[str, str] = {
    "builtins.isinstance": "isinstance",
    "builtins.issubclass": "issubclass",
}

#: Builtin sequence methods whose index argument goes through ``__index__``.
INDEXING_METHODS: dict[str, str] = {
    f"builtins.{container}.{method}": f"indexing {container}"
    for container, methods in (
        ("list", ("__getitem__", "__setitem__", "__delitem__")),
        ("tuple", ("__getitem__",)),
        ("str", ("__getitem__",)),
        ("bytes", ("__getitem__",)),
        ("bytearray", ("__getitem__", "__setitem__", "__delitem__")),
        ("range", ("__getitem__",)),
        ("memoryview", ("__getitem__", "__setitem__")),
    )
    for method in methods
}

#: ``register`` as mypy names it when called on each static ABC (or on ABCMeta).
ABC_REGISTER_METHODS: frozenset[str] = frozenset(
    {"abc.ABCMeta.register", *(f"{abc}.register" for abc in _table.STATIC_ABC_TYPES)}
)

def concretizing_operation(fullname: str) -> str | None:
    """How users spell the converting callable ``fullname``, or None if it is not one.

    ``fullname`` is also the operation the table's ``outcome()`` takes.
    """
    if _table.conversion(fullname) is None:
        return None
    return _table.operation_spelling(fullname)


#: The table's operation for indexing a builtin sequence (``xs[p]`` calls ``p.__index__``).
INDEXING_OPERATION = "indexing"
#: The table's operation for a truth test (``if``, ``all()``...).
TRUTH_TEST_OPERATION = "truth test"
#: The table's operation for hashing (dict keys, set members).
HASH_OPERATION = "__hash__"
#: The table's operation for formatting (``format(p, spec)``, f-strings, ``str.format``).
FORMAT_OPERATION = "__format__"
#: The table's operations for text built without a spec: an f-string field, ``str.format``.
F_STRING_OPERATION = "f-string"
#: The table's operation for an ``assert`` on tensor data (``TORCH_TRACER_OUTCOMES``).
TENSOR_ASSERT_OPERATION = "tensor assert"
STR_FORMAT_OPERATION = "str.format"

#: Methods of the builtin hash containers that hash their key argument, with the spelling.
HASHING_METHODS: dict[str, str] = {
    f"builtins.{container}.{method}": spelling
    for container, spelling, methods in (
        ("dict", "dict key", ("__getitem__", "__setitem__", "__delitem__", "__contains__",
                              "get", "pop", "setdefault")),
        ("set", "set member", ("add", "discard", "remove", "__contains__")),
        ("frozenset", "set member", ("__contains__",)),
    )
    for method in methods
}

#: Calling a function under ``functools.lru_cache``/``functools.cache`` (typeshed types it
#: ``functools._lru_cache_wrapper[T]``) hashes each argument into the cache key.
CACHED_CALL_METHOD = "functools._lru_cache_wrapper.__call__"
#: The decorators that make such a function (bare, or called: ``@lru_cache(maxsize=8)``).
CACHING_DECORATORS = frozenset({"functools.lru_cache", "functools.cache"})

#: mypy checks displays and comprehensions as calls of these made-up functions
#: (a dict display only when it has a type context or, before mypy 2.0, non-Instance
#: keys: otherwise mypy infers it without any call).  Each with what its item is.
DISPLAY_FUNCTIONS: dict[str, str] = {
    "<dict>": "dict key",
    "<set>": "set member",
    "<dictionary-comprehension>": "dict key",
    "<set-comprehension>": "set member",
}

#: Functions that test every item of their iterable for truth.
ITEMS_TRUTH_FUNCTIONS: dict[str, str] = {"builtins.any": "any()", "builtins.all": "all()"}

#: ``type(x)``: compared with a static class, it misclassifies like isinstance.
TYPE_FUNCTION = "builtins.type"

#: ``"...".format(...)``; mypy also checks every f-string replacement field as a call of it.
STR_FORMAT_METHOD = "builtins.str.format"


def is_comparison_method(fullname: str) -> bool:
    """True for ``Class.__lt__`` and the other rich comparisons."""
    return fullname.rpartition(".")[2] in COMPARISON_DUNDERS


def static_classes_of(base: str) -> frozenset[str]:
    """Static number classes an instance of a subclass of ``base`` passes at runtime."""
    kind = _table.STATIC_BUILTIN_TYPES.get(base)
    if kind is not None:
        return frozenset(_table.STATIC_CLASSES_OF[kind])
    if base in _table.STATIC_ABC_TYPES:
        # STATIC_ABC_TYPES lists each ABC after all of its ancestors.
        return frozenset(_table.STATIC_ABC_TYPES[: _table.STATIC_ABC_TYPES.index(base) + 1])
    return frozenset()


STATIC_BUILTIN_TYPES: dict[str, str] = dict(_table.STATIC_BUILTIN_TYPES)

#: Dynamic bool classes whose annotation starts the bare-condition search, with the shown name.
DYNAMIC_BOOL_CLASSES: dict[str, str] = {
    t.fullname: t.name for t in _table.DYNAMIC_NUMBER_TYPES if t.python_type == "bool"
}

def _python_type_of_static(static_class: str) -> str:
    """The Python number a value of a static number class is at run time.

    ``numbers.Integral`` is an int: a compiler's SymInt is no ``numbers.Integral``
    at run time, so an Integral value is an int (bools, which code excludes with
    ``not isinstance(n, bool)``, left out); ``numbers.Real`` may be several
    ("number")."""
    if static_class in _table.STATIC_BUILTIN_TYPES:
        return _table.STATIC_BUILTIN_TYPES[static_class]
    passing = [python_type for python_type, classes in _table.STATIC_CLASSES_OF.items()
               if static_class in classes and python_type != "bool"]
    return passing[0] if len(passing) == 1 else "number"


#: Static number class -> the Python type its values are ("number": several): the one
#: "python type of" for static classes (flow sources, values a check converts or tests).
STATIC_PYTHON_TYPES: dict[str, str] = {
    name: _python_type_of_static(name) for name in _table.STATIC_NUMBER_TYPES}

#: Known dynamic class -> the Python type it stands for ("number": any of them).
DYNAMIC_PYTHON_TYPES: dict[str, str] = {
    t.fullname: t.python_type for t in _table.DYNAMIC_NUMBER_TYPES
}
