"""What the plugin found, as data: the one record every report is rendered from.

The checks never format a message themselves: they build a :class:`Report`, and
``errors.emit`` renders it (``render``) and hands it to mypy.  While a caller
collects (the command line runs mypy in its own process, see
``collectors.collecting``), each emitted report is also kept there, so
``proxy-types check`` and ``fix`` read the kind, the classes and the reason as
data and never parse a message back.

Nothing here imports mypy: the command line reads these records too.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# -- what a report is about (``Report.kind``) --------------------------------

ISINSTANCE = "isinstance"  # a check against static classes misclassifies a dynamic number
ISINSTANCE_LEGACY_BASE = "isinstance-legacy-base"  # True only through a legacy builtin base
ISINSTANCE_MAYBE_LEGACY = "isinstance-maybe-legacy"  # a static-typed value may be a legacy proxy
CONVERSION = "conversion"  # float(p), math.sqrt(p), xs[p]
CONDITION = "condition"  # a comparison with a dynamic operand tested for truth
BOOL_CONDITION = "bool-condition"  # `if flag:` on a dynamic bool parameter
CAST = "cast"  # typing.cast() of a dynamic number to a static type
ITEMS_TRUTH = "items-truth"  # all()/any() over dynamic numbers or their comparisons
CONCRETIZING_CALL = "concretizing-call"  # a concretizing_functions helper such as pyval(p)
HASHING = "hashing"  # a dynamic number as dict key or set member
FORMAT_SPEC = "format-spec"  # f"{p:.2f}", "{:d}".format(p), format(p, "d")
TYPE_COMPARISON = "type-comparison"  # type(x) is int, type(x) in (int, float)
STATIC_AND_DYNAMIC_BASES = "static-and-dynamic-bases"
LEGACY_STATIC_BASE = "legacy-static-base"
ABC_REGISTER = "abc-register"
CONFIG_NOT_A_CLASS = "config-not-a-class"
CONFIG_NO_SUCH_CLASS = "config-no-such-class"
UNRESOLVED_MODULE = "unresolved-module"  # a module defining dynamic classes mypy cannot find
INTERNAL_ERROR = "internal-error"  # a check failed; its findings may be missing
FLOW_TOO_LARGE = "flow-too-large"  # a function too large to follow its flows
CALL_REACHES_SINK = "call-reaches-sink"  # an argument reaches a sink inside the callee
TENSOR_CONDITION = "tensor-condition"  # tensor data tested for truth in traced code
RANDOM_CALL = "random-call"  # random.random() in traced code: drawn once, at trace time
FORMAT_TEXT = "format-text"  # f"{n}", str(n), format(n) of a torch SymInt: no spec
#: torch.istft(length=n): the operator's schema types the parameter int, not SymInt
STATIC_SCHEMA_ARGUMENT = "static-schema-argument"

ALL_KINDS: tuple[str, ...] = (
    ISINSTANCE, ISINSTANCE_LEGACY_BASE, ISINSTANCE_MAYBE_LEGACY, CONVERSION, CONDITION,
    BOOL_CONDITION, CAST, ITEMS_TRUTH, CONCRETIZING_CALL, HASHING, FORMAT_SPEC, TYPE_COMPARISON,
    STATIC_AND_DYNAMIC_BASES, LEGACY_STATIC_BASE, ABC_REGISTER,
    CONFIG_NOT_A_CLASS, CONFIG_NO_SUCH_CLASS, UNRESOLVED_MODULE, INTERNAL_ERROR,
    FLOW_TOO_LARGE,
    CALL_REACHES_SINK, TENSOR_CONDITION, FORMAT_TEXT, STATIC_SCHEMA_ARGUMENT,
)


@dataclass(frozen=True)
class Reason:
    """Why a value may be a dynamic number.

    ``source`` is one of ``declared`` (its type names a dynamic class), ``flow``
    (computed from a parameter of a traced function), ``shape`` (a symbolic
    tensor size), ``base`` (typed as a base class of dynamic classes) or ``any``
    (``Any``/``object`` under ``strict_isinstance``).  ``detail`` is the human
    part: the parameter and function, the base's subclasses...
    """

    source: str
    detail: str = ""
    #: A ``flow`` from the items of a sequence-of-int parameter: sizes, in torch's code
    #: (``output_size: tuple[int, int]``).  Not shown: it only tunes pins_a_value.
    sizes: bool = field(default=False, compare=False)
    #: A ``shape`` read from tensor data (``t.item()``): no hint to guard on, so an order
    #: comparison fails when traced as an equality does.  Not shown either.
    data: bool = field(default=False, compare=False)
    #: How the value got to the report, ``file:line: note`` each, before the report's
    #: own line (a size returned by a callee); SARIF shows them as ``codeFlows``.
    steps: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))  # read back from JSON: a list

    def as_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"source": self.source, "detail": self.detail}
        if self.steps:
            data["steps"] = list(self.steps)
        return data


@dataclass(frozen=True)
class Report:
    """One finding of the plugin, before and after it is rendered.

    ``operation`` is how the code spells what it does (``isinstance``,
    ``float()``, ``indexing list``); ``classes`` are the static classes (fully
    qualified) a check or cast names; ``dynamic`` is the dynamic class (short
    name) the value may hold; ``subject`` is one more name a kind needs (the
    class defined, the legacy base, the config setting...).
    """

    code: str
    kind: str
    dynamic: str = ""
    operation: str = ""
    classes: tuple[str, ...] = ()
    subject: str = ""
    extra: tuple[str, ...] = ()
    reason: Reason | None = None
    #: The torch tracers it fails under, of those the ``tracers`` setting names, where the
    #: tracers differ (``proxy_types/_table.py``); None where they do not, or for other
    #: numbers.  Empty: harmless under each tracer the project runs (a hidden finding).
    tracers: tuple[str, ...] | None = None
    # Where it was reported (filled in by ``errors.emit``); line and column as mypy has them.
    file: str = ""
    line: int = 0
    column: int = 0
    message: str = field(default="", compare=False)

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["reason"] = self.reason.as_dict() if self.reason is not None else None
        data["classes"] = list(self.classes)
        data["extra"] = list(self.extra)
        data["tracers"] = list(self.tracers) if self.tracers is not None else None
        return data


@dataclass(frozen=True)
class PassedArgument:
    """A dynamic number passed where the callee's parameter names a static number type.

    mypy reports such a call itself (``arg-type``), in words; ``proxy-types fix``
    needs its parts to rewrite the parameter's annotation, so the plugin records
    them while a caller collects arguments.  ``function`` and ``cls`` are the
    callee as mypy names it (``cls`` None for a function or a constructor call),
    ``number`` the argument's 1-based position in the call, ``keyword`` its
    name when passed by keyword, ``dynamic`` the dynamic classes of its type.
    ``file``, ``line`` and ``column`` are the argument's, as mypy has them.
    ``unsupported`` says why the call cannot be followed to one parameter (an
    overloaded callee...): ``fix`` then lists the error with that reason.
    """

    function: str
    cls: str | None
    number: int
    keyword: str | None
    dynamic: tuple[str, ...]
    file: str
    line: int
    column: int
    unsupported: str | None = None

