"""Fully qualified names the plugin reacts to, all derived from ``proxy_types._table``."""

from __future__ import annotations

from .number_table import table as _table

PLUGIN_SECTION_INI = "mypy.plugins.proxy_types"
PLUGIN_SECTION_TOML = ("tool", "proxy_types")

STATIC_NUMBER_CLASSES: frozenset[str] = frozenset(_table.STATIC_NUMBER_TYPES)
STATIC_NUMBER_ABCS: frozenset[str] = frozenset(_table.STATIC_ABC_TYPES)
#: The builtin number classes a class can inherit from (``bool`` cannot be subclassed).
SUBCLASSABLE_NUMBER_BUILTINS: frozenset[str] = frozenset(_table.STATIC_BUILTIN_TYPES) - {"builtins.bool"}

#: Dynamic number classes known without any configuration.
DEFAULT_DYNAMIC_CLASSES: frozenset[str] = frozenset(
    t.fullname for t in _table.DYNAMIC_NUMBER_TYPES
)

COMPARISON_DUNDERS: frozenset[str] = _table.COMPARISON_DUNDERS

ISINSTANCE_FUNCTIONS: dict[str, str] = {
    "builtins.isinstance": "isinstance",
    "builtins.issubclass": "issubclass",
}

CONCRETIZING_FUNCTIONS: dict[str, str] = dict(_table.CONCRETIZING_FUNCTIONS)
CONCRETIZING_MODULES: tuple[str, ...] = _table.CONCRETIZING_MODULES

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

DEFAULT_EXEMPT_MODULES: tuple[str, ...] = ("proxy_types", "proxy_types.*")


def concretizing_operation(fullname: str) -> str | None:
    """How users spell the concretizing callable ``fullname``, or None if it is not one."""
    if fullname in CONCRETIZING_FUNCTIONS:
        return CONCRETIZING_FUNCTIONS[fullname]
    module, _, name = fullname.rpartition(".")
    if module in CONCRETIZING_MODULES and not name.startswith("_"):
        return f"{fullname}()"
    return None


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

#: Known dynamic class -> the Python type it stands for ("number": any of them).
DYNAMIC_PYTHON_TYPES: dict[str, str] = {
    t.fullname: t.python_type for t in _table.DYNAMIC_NUMBER_TYPES
}
