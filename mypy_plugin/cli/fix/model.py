"""What ``fix`` plans: its options, one outcome per finding, one plan per file.

Shared by every rewrite module; imports none of them.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import libcst as cst

from proxy_types import _table
from proxy_types._files import WriteFailed, write_atomically

from ..check import Finding
from ..common import CommandLineError, one_line

RUNTIME_MODULE = "proxy_types"

# What a rewrite produced, as counted in the summary.
KIND_STATIC_GUARD = "isinstance -> is_static_number()"
KIND_NUMBER_GUARD = "isinstance -> static or dynamic guard"
KIND_NUMBER_CLASSES = "isinstance -> classes with DynamicNumber"
KIND_EXTERNAL = "isinstance -> external_isinstance()"
KIND_CONVERSION = "conversion -> to_static()"
KIND_INDEX = "index -> to_static()"
KIND_ANNOTATION = "annotation -> NumberLike"
KIND_REGISTRATION = "register_dynamic_type() added"
SUMMARY_KINDS = (KIND_STATIC_GUARD, KIND_NUMBER_GUARD, KIND_NUMBER_CLASSES, KIND_EXTERNAL,
                 KIND_CONVERSION, KIND_INDEX, KIND_ANNOTATION, KIND_REGISTRATION)

# What the fix knows of a dynamic class at run time, by the name the plugin shows.
OWN, TORCH = "own", "torch"  # proxy_types' proxies, torch's Sym types (the table's kinds)
LEGACY = "legacy"  # migrate_classes: still subclasses a builtin number at run time
CONFIGURED = "configured"  # dynamic_number_classes: proxy_types knows it only if registered
UNKNOWN = "unknown"  # a name of none of these (a subclass of one, under its own name)
#: What the plugin names a value typed Any or object (strict_isinstance): not a class to register.
UNTYPED = frozenset({"Any", "object"})

_TABLE_KINDS = {t.name: (OWN if t in _table.OWN_DYNAMIC_TYPES else TORCH, t.python_type)
                for t in _table.DYNAMIC_NUMBER_TYPES}
TABLE_CLASSES = frozenset(_TABLE_KINDS)


class FixError(CommandLineError):
    """A file that cannot be fixed (syntax error, unwritable); shown as one line."""


@dataclass(frozen=True)
class DynamicClass:
    """A dynamic class as the fix sees it: what it is at run time."""

    name: str  # as the plugin shows it (the short class name)
    kind: str  # OWN, TORCH, LEGACY, CONFIGURED or UNKNOWN
    python_type: str  # "bool", "int", "float", "complex" or "number" (not known)
    registered: bool  # register_dynamic_type() is called on it in the checked files

    @property
    def known_at_run_time(self) -> bool:
        """True if proxy_types' guards and to_static() know it for a dynamic number."""
        return self.kind in (OWN, TORCH) or self.registered

    def registration_step(self) -> str:
        """The manual step that makes proxy_types know the class at run time."""
        if self.name in UNTYPED:
            return "annotate it with the dynamic class it may hold, or rewrite the check by hand"
        python_type = self.python_type if self.python_type != "number" else "float"
        return (f"register {self.name} with register_dynamic_type({self.name}, {python_type}) "
                "first (proxy-types fix --register adds it where the class is defined)")


@dataclass(frozen=True)
class Options:
    """How to rewrite, and what the project's configuration and code say."""

    style: str = "guards"
    intent: str = "auto"
    register: bool = False  # add register_dynamic_type() for configured classes
    legacy_classes: tuple[str, ...] = ()  # migrate_classes, fully qualified
    configured_classes: tuple[str, ...] = ()  # dynamic_number_classes, fully qualified
    #: Classes registered in the checked files: short name -> Python type (or "number").
    registered: Mapping[str, str] = field(default_factory=dict)
    #: Classes of the checked files with a builtin number base: short name -> that type.
    builtin_bases: Mapping[str, str] = field(default_factory=dict)
    #: Classes of the checked files derived from a class the table knows: name -> that class.
    table_subclasses: Mapping[str, str] = field(default_factory=dict)

    @property
    def migration(self) -> bool:
        return bool(self.legacy_classes)

    def dynamic_class(self, name: str, origins: Mapping[str, str] | None = None) -> DynamicClass:
        """What the plugin's dynamic class ``name`` is at run time.

        The plugin shows a short name, and thunder's ``NumberProxy`` (or a legacy
        ``FloatProxy``) shares it with ours: treating theirs as ours is the bug to
        avoid.  ``origins`` (name -> fully qualified name the module imports it
        as) settles it; without it a configured class wins.
        """
        registered = name in self.registered
        registered_type = self.registered.get(name) or self.builtin_bases.get(name, "number")
        origin = (origins or {}).get(name)

        def named(classes: tuple[str, ...]) -> bool:
            if origin is not None:
                return origin in classes
            return any(full.rpartition(".")[2] == name for full in classes)

        if named(self.legacy_classes):
            return DynamicClass(name, LEGACY, registered_type, registered)
        if named(self.configured_classes):
            return DynamicClass(name, CONFIGURED, registered_type, registered)
        ours = origin is None or origin.startswith(("proxy_types.", "torch."))
        if name in _TABLE_KINDS and ours:
            kind, python_type = _TABLE_KINDS[name]
            return DynamicClass(name, kind, python_type, True)
        if name in self.table_subclasses:  # class MyProxy(FloatProxy): ours at run time
            kind, python_type = _TABLE_KINDS[self.table_subclasses[name]]
            return DynamicClass(name, kind, python_type, True)
        return DynamicClass(name, UNKNOWN, registered_type, registered)


@dataclass
class Outcome:
    """What happened to one finding: the kind of rewrite, or why it was left."""

    finding: Finding
    source: str  # the text the finding's position refers to
    kind: str | None = None
    reason: str | None = None


@dataclass
class FilePlan:
    """The rewritten text of one file and the outcome of each of its findings."""

    path: str
    original: str
    rewritten: str
    outcomes: list[Outcome] = field(default_factory=list)
    registrations: list[str] = field(default_factory=list)  # classes registered (--register)

    @property
    def changed(self) -> bool:
        return self.rewritten != self.original


@dataclass(frozen=True)
class Build:
    """A planned replacement: its summary kind, the names it imports, its builder."""

    kind: str
    imports: tuple[str, ...]
    builder: Callable[[cst.CSTNode], cst.CSTNode]


Plan = tuple[cst.CSTNode, Build]  # the node to replace and how
Position = tuple[int, int]  # 1-based line, 0-based column, as libcst counts


def start_of(finding: Finding) -> Position:
    return (finding.line, finding.column - 1)


def end_of(finding: Finding) -> Position | None:
    if finding.end_line is None or finding.end_column is None:
        return None
    return (finding.end_line, finding.end_column - 1)


def source_encoding(data: bytes) -> str:
    """The encoding Python reads ``data`` with: a BOM ("utf-8-sig") or a PEP 263 line."""
    return tokenize.detect_encoding(io.BytesIO(data).readline)[0]


def read_source(path: str) -> str:
    """The text of a source file as Python reads it, without a BOM, newlines as they are."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        return data.decode(source_encoding(data)).removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError, SyntaxError, LookupError) as error:
        reason = getattr(error, "strerror", None) or one_line(str(error))
        raise FixError(f"cannot read {path}: {reason}") from None


def write_source(path: str, text: str) -> None:
    """Replace ``path`` with ``text`` in the file's own encoding (BOM, coding line), atomically."""
    try:
        with open(path, "rb") as handle:
            encoding = source_encoding(handle.read())
        write_atomically(path, text, encoding)
    except WriteFailed as error:
        raise FixError(str(error)) from None
    except (OSError, SyntaxError, LookupError) as error:
        reason = getattr(error, "strerror", None) or one_line(str(error))
        raise FixError(f"cannot write {path}: {reason}; nothing was written") from None
