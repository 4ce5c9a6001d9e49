"""Every error code of the plugin and every message it emits."""

from __future__ import annotations

from dataclasses import replace

from mypy.nodes import Context
from mypy.plugin import (
    CheckerPluginInterface,
    SemanticAnalyzerPluginInterface,
    TypeAnalyzerPluginInterface,
)

from . import collectors, findings, reporting
from ._mypy_compat import AnyPluginInterface, current_path, error_code_enabled
from .findings import Reason, Report
from .number_table import table as _table

from .codes import (  # noqa: E402  (re-exported: errors.PROXY_ISINSTANCE, ...)
    ALL_CODES as ALL_CODES,
    CATEGORY as CATEGORY,
    PROXY_BASE as PROXY_BASE,
    PROXY_CAST as PROXY_CAST,
    PROXY_CONCRETIZE as PROXY_CONCRETIZE,
    PROXY_CONFIG as PROXY_CONFIG,
    PROXY_HIDDEN as PROXY_HIDDEN,
    PROXY_INTERNAL as PROXY_INTERNAL,
    PROXY_ISINSTANCE as PROXY_ISINSTANCE,
    PROXY_SPECIALIZE as PROXY_SPECIALIZE,
)


def _short(fullname: str) -> str:
    """``int`` for ``builtins.int``; other classes keep their module."""
    return fullname.rpartition(".")[2] if fullname.startswith("builtins.") else fullname


def _shown_classes(classes: tuple[str, ...]) -> str:
    """The checked classes as users read them, each once, in their order."""
    return ", ".join(dict.fromkeys(_short(name) for name in classes))


_GUARDS = "use proxy_types.is_static_number() / is_dynamic_number()"
_RECORD = "use proxy_types.check(...) to record it, or to_static() explicitly"
_EXPLICIT = "use proxy_types.to_static() to make the conversion explicit"
_GUARD_EFFECT = "installs a guard that specializes the program on the traced value"
#: What a tracer that needs the text of a SymInt as a constant does, by the table's outcome.
_FORMAT_TEXT_EFFECTS = {
    "guards": "guards on its value (a recompile for each value)",
    "breaks": "cannot trace it (a graph break, an error with fullgraph=True)",
}


#: Reasons shown in messages: those a declared type does not already tell.
_SHOWN_REASONS = frozenset({"flow", "shape", "base"})


def render(report: Report) -> str:
    """The message of ``report``: the one place where findings become text.

    A report that fails under some of torch's tracers only names them (those the
    ``tracers`` setting lists).  A report whose value is dynamic for a reason its type
    does not show (a traced function's parameter, a tensor size, a base class) ends
    with that reason.
    """
    message = _render(report)
    if report.tracers:
        message += f" (fails under {', '.join(report.tracers)})"
    reason = report.reason
    if reason is not None and reason.source in _SHOWN_REASONS and reason.detail:
        message += f" (reason: {reason.detail})"
    return message


#: Settings whose entries name functions, not classes.
_FUNCTION_SETTINGS = frozenset({"isinstance_functions", "concretizing_functions"})


def _in(config_file: str) -> str:
    return f"{config_file}: " if config_file else ""


def _render(report: Report) -> str:
    kind, dynamic, subject = report.kind, report.dynamic, report.subject
    classes = _shown_classes(report.classes)
    if kind == findings.ISINSTANCE:
        return (f"{report.operation}() against static number classes ({classes}) misclassifies "
                f'dynamic number "{dynamic}"; {_GUARDS} or include proxy_types.NumberClasses')
    if kind == findings.ISINSTANCE_LEGACY_BASE:
        return (f"{report.operation}() against static number classes ({classes}) is True at "
                f'runtime for legacy proxy "{dynamic}" only through its legacy base '
                f'"{subject}"; {_GUARDS} before removing the base')
    if kind == findings.ISINSTANCE_MAYBE_LEGACY:
        return (f"{report.operation}() against static number classes ({classes}) may see a "
                f'legacy proxy typed "{dynamic}" (migrate_classes: legacy proxies still subclass '
                f"builtin numbers at runtime); {_GUARDS}")
    guards = report.code == PROXY_SPECIALIZE.code
    if kind == findings.CONVERSION and guards:
        return (f'{report.operation} installs a guard on dynamic number "{dynamic}": sound, but '
                f"the program is specialized on its traced value; {_EXPLICIT}")
    if kind == findings.CONVERSION:
        return (f'{report.operation} turns dynamic number "{dynamic}" into a static value fixed '
                f"at trace time; {_EXPLICIT}")
    if kind == findings.CONDITION:
        effect = _GUARD_EFFECT if guards else "specializes on the traced value"
        return f'Condition on a comparison of dynamic number "{dynamic}" {effect}; {_RECORD}'
    if kind == findings.BOOL_CONDITION:
        effect = _GUARD_EFFECT if guards else "specializes on the traced value"
        return f'Condition on dynamic bool "{subject}" ("{dynamic}") {effect}; {_RECORD}'
    if kind == findings.ITEMS_TRUTH:
        effect = _GUARD_EFFECT if guards else "specializes on the traced value"
        return (f'{report.operation} tests each item for truth, which for dynamic number '
                f'"{dynamic}" {effect}; {_RECORD}')
    if kind == findings.CONCRETIZING_CALL:
        effect = ("installs a guard: the program is specialized on it" if guards
                  else "fixed at trace time")
        return (f'{report.operation} reads the value of dynamic number "{dynamic}" '
                f"(concretizing_functions), {effect}; keep the value dynamic, or convert it "
                "explicitly with proxy_types.to_static()")
    if kind == findings.HASHING:
        effect = (_GUARD_EFFECT if guards else
                  "needs a static value: the hash fails or bakes in the traced value")
        return (f'{report.operation} hashes dynamic number "{dynamic}", which {effect}; key by '
                "something static, or use proxy_types.to_static() explicitly")
    if kind == findings.FORMAT_SPEC:
        return (f'Format spec "{subject}" needs the value of dynamic number "{dynamic}" (without '
                "a spec, formatting shows its name); use proxy_types.to_static() to format the "
                "value explicitly")
    if kind == findings.FORMAT_TEXT:
        effect = _FORMAT_TEXT_EFFECTS.get(report.extra[0] if report.extra else "", "fails on it")
        return (f'{report.operation} turns dynamic number "{dynamic}" into text: a tracer that '
                f"needs the text as a constant {effect}; keep the text out of traced code, or "
                "build it only on failure (an assert message, a raise)")
    if kind == findings.TYPE_COMPARISON:
        return (f"{report.operation} against static number classes ({classes}) misclassifies "
                f'dynamic number "{dynamic}": its type is never a static number class; '
                f"{_GUARDS}")
    if kind == findings.CAST:
        targets = " | ".join(report.classes)
        return (f'cast() to static number type "{targets}" hides dynamic number "{dynamic}" (the '
                "value stays dynamic at runtime); use proxy_types.to_static() to convert it, or "
                "cast to proxy_types.NumberLike")
    if kind == findings.STATIC_AND_DYNAMIC_BASES:
        static = report.classes[0]
        return (f'Class "{subject}" inherits from dynamic number "{dynamic}" and static number '
                f'"{static}", so it passes isinstance checks for static numbers; drop "{static}" '
                "and use proxy_types.register_dynamic_type()")
    if kind == findings.LEGACY_STATIC_BASE:
        return (f'Legacy proxy class "{subject}" (migrate_classes: "{dynamic}") still inherits '
                f'from static number "{", ".join(report.classes)}"; mypy checks it without that '
                "base; remove the base to finish the migration")
    if kind == findings.ABC_REGISTER:
        return (f'{subject}.register() makes dynamic number "{dynamic}" pass as a static number; '
                "use proxy_types.register_dynamic_type() instead")
    # Reported at the settings' own line (proxy-types check), config_file is "": no prefix.
    if kind == findings.CONFIG_NOT_A_CLASS:
        config_file, setting, what = report.extra
        wanted = "function" if setting in _FUNCTION_SETTINGS else "class"
        return (f'{_in(config_file)}{setting} entry "{subject}" is a {what}, not a {wanted}; '
                f"list {'functions' if wanted == 'function' else 'classes'} only")
    if kind == findings.CONFIG_NO_SUCH_CLASS:
        config_file, setting = report.extra
        module, _, attribute = subject.rpartition(".")
        wanted = "function" if setting in _FUNCTION_SETTINGS else "class"
        return (f'{_in(config_file)}{setting} entry "{subject}": no such {wanted} in module '
                f'"{module}" (module has no attribute "{attribute}"); check the spelling')
    if kind == findings.UNRESOLVED_MODULE and report.extra[:1] == ("setting",):
        return (f'{report.extra[1]} entry "{report.classes[0]}": cannot find module "{subject}"; '
                "install it where mypy runs, or add its directory to mypy_path")
    if kind == findings.UNRESOLVED_MODULE and report.extra == ("skipped",):
        return (f'Module "{subject}", which defines dynamic number classes ({classes}), is '
                "skipped (follow_imports = skip): mypy sees them as Any here and the proxy "
                f'checks stay silent; use follow_imports = silent for "{subject}"')
    if kind == findings.UNRESOLVED_MODULE:
        return (f'Cannot find module "{subject}", which defines dynamic number classes '
                f"({classes}): mypy sees them as Any here and the proxy checks stay silent; "
                "install it where mypy runs (for an editable install use a non-editable one or "
                "editable_mode=compat), or add its directory to MYPYPATH")
    if kind == findings.CALL_REACHES_SINK:
        sink, function, where, via, effect = report.extra[:5]
        return (f'{report.operation}: argument "{subject}" reaches {sink} in {function} ({where}) '
                f'via {via}, {effect} "{dynamic}"; pass a static number, or make the callee '
                "accept dynamic numbers")
    if kind == findings.RANDOM_CALL:
        return (f"{report.operation}() in traced code is drawn once at trace time: make_fx and "
                "torch.export bake the value into the traced program, torch.compile"
                "(fullgraph=True) cannot trace it; use torch.rand / torch.randint (traced as "
                "graph ops) instead")
    if kind == findings.STATIC_SCHEMA_ARGUMENT:
        aten = report.operation.rpartition(".")[2]
        return (f"{report.operation}({subject}=...): aten::{aten} types \"{subject}\" as "
                f'"{report.extra[0]}", not SymInt, so the tracer makes dynamic number '
                f'"{dynamic}" a constant (make_fx specializes it, export fails, torch.compile '
                "recompiles per value); pass a static number, or get the result without this "
                "argument")
    if kind == findings.TENSOR_CONDITION:
        return (f"Condition on {report.operation} is data-dependent control flow, which a "
                "tracer cannot decide (GuardOnDataDependentSymNode, or no branch under "
                "fullgraph=True); use torch.where or torch.cond, or decide it outside the "
                "traced code")
    if kind == findings.INTERNAL_ERROR:
        where, exception = report.extra
        return (f'Internal error in check "{subject}" while checking {where}: {exception}; '
                "findings of this check may be missing (PROXY_TYPES_DEBUG=1 raises it)")
    if kind == findings.FLOW_TOO_LARGE:
        (limit,) = report.extra
        return (f'Function "{subject}" is too large to follow the flow of traced values: '
                f"{limit}; values computed in it are not followed from there on and findings "
                "may be missing (split the function, or leave it out of traced_functions)")
    raise ValueError(f"no message for report kind {kind!r}")


_CODES = {code.code: code for code in (*ALL_CODES, PROXY_HIDDEN)}
#: After a hidden finding's code: the ``tracers`` setting hid it, not the code's state.
HIDDEN_BY_TRACERS = "(tracers)"


def emit(api: AnyPluginInterface, context: Context, report: Report) -> None:
    """Render ``report``, report it to mypy at ``context`` and keep it for collectors.

    A report under a disabled code (proxy-specialize by default), or harmless under
    each tracer the ``tracers`` setting names (``report.tracers`` empty), is neither
    rendered nor kept: mypy would drop it, and collectors must see what mypy shows.
    While the command line counts hidden findings, it goes to mypy under the
    internal code proxy-hidden instead, its message prefixed with its own code (and
    ``(tracers)`` when only the ``tracers`` setting hides it).
    Never through mypy's trial checks (overloads, lambdas, operators): see
    :mod:`.reporting`, which also reports each finding once.
    """
    code = _CODES[report.code]
    enabled = error_code_enabled(api, code)
    # Off: the code is disabled, or the report is harmless under every tracer run.
    if not enabled or report.tracers == ():
        if collectors.counts_hidden():  # the command line counts what the settings hide
            why = "" if not enabled else f" {HIDDEN_BY_TRACERS}"
            hidden = replace(report, code=PROXY_HIDDEN.code, file=current_path(api),
                             line=context.line, column=context.column,
                             message=f"{code.code}{why}: {render(report)}")
            reporting.deliver(api, context, hidden, PROXY_HIDDEN)
        return
    located = replace(report, file=current_path(api), line=context.line,
                      column=context.column, message=render(report))
    reporting.deliver(api, context, located, code)


def code_of(outcome: str) -> str | None:
    """The error code reporting a conversion's outcome (a ``_table.OUTCOMES`` key), or None."""
    return _table.finding_code(outcome)


def code_shown(api: AnyPluginInterface, name: str) -> bool:
    """Whether mypy would show a report under code ``name`` in the module being checked
    (always, while the command line counts hidden findings)."""
    code = _CODES[name]
    return code.default_enabled or error_code_enabled(api, code) or collectors.counts_hidden()


def shown_code(api: AnyPluginInterface, outcome: str) -> str | None:
    """Like :func:`code_of`, but None also where mypy would drop the report: its code is
    off by default (proxy-specialize) and not enabled for the module being checked.

    Lets a check skip the costlier questions it asks only to hold a report back.
    """
    name = _table.finding_code(outcome)
    return name if name is not None and code_shown(api, name) else None


# -- the reports, one function per kind ----------------------------------------


def misclassifying_isinstance(
    api: CheckerPluginInterface, context: Context, function: str, classes: tuple[str, ...],
    dynamic: str, reason: Reason | None = None, tracers: tuple[str, ...] | None = None,
) -> None:
    """proxy-isinstance: the check sorts a dynamic number into the wrong branch."""
    emit(api, context, Report(PROXY_ISINSTANCE.code, findings.ISINSTANCE, dynamic, function,
                              classes, reason=reason, tracers=tracers))


def true_through_legacy_base(
    api: CheckerPluginInterface, context: Context, function: str, classes: tuple[str, ...],
    legacy: str, base: str,
) -> None:
    """proxy-isinstance: a check that only a legacy proxy's hidden base makes True."""
    emit(api, context, Report(PROXY_ISINSTANCE.code, findings.ISINSTANCE_LEGACY_BASE, legacy,
                              function, classes, subject=base))


def may_be_legacy_proxy(
    api: CheckerPluginInterface, context: Context, function: str, classes: tuple[str, ...],
    shown: str,
) -> None:
    """proxy-isinstance (strict, migration mode): a static-typed value may be a legacy proxy."""
    emit(api, context, Report(PROXY_ISINSTANCE.code, findings.ISINSTANCE_MAYBE_LEGACY, shown,
                              function, classes))


def _code(outcome: str) -> str:
    code = code_of(outcome)
    if code is None:
        raise ValueError(f"outcome {outcome!r} is not a finding")
    return code


def implicit_conversion(
    api: CheckerPluginInterface, context: Context, operation: str, dynamic: str,
    *, outcome: str = "raises", reason: Reason | None = None,
    tracers: tuple[str, ...] | None = None,
) -> None:
    """proxy-concretize (proxy-specialize when it guards): a conversion call or index."""
    emit(api, context, Report(_code(outcome), findings.CONVERSION, dynamic, operation,
                              reason=reason, tracers=tracers))


def dynamic_condition(
    api: CheckerPluginInterface, context: Context, dynamic: str,
    *, outcome: str = "raises", reason: Reason | None = None,
) -> None:
    """proxy-concretize (proxy-specialize when it guards): a dynamic comparison as condition."""
    emit(api, context, Report(_code(outcome), findings.CONDITION, dynamic, "condition",
                              reason=reason))


def items_tested_for_truth(
    api: CheckerPluginInterface, context: Context, function: str, dynamic: str,
    *, outcome: str, reason: Reason | None = None,
) -> None:
    """proxy-concretize / proxy-specialize: ``all(s > 0 for s in shape)``."""
    emit(api, context, Report(_code(outcome), findings.ITEMS_TRUTH, dynamic,
                                           function, reason=reason))


def concretizing_call(
    api: CheckerPluginInterface, context: Context, function: str, dynamic: str,
    *, outcome: str, reason: Reason | None = None,
) -> None:
    """proxy-concretize / proxy-specialize: a ``concretizing_functions`` helper's argument."""
    emit(api, context, Report(_code(outcome), findings.CONCRETIZING_CALL,
                                           dynamic, function, reason=reason))


def hashed(
    api: CheckerPluginInterface, context: Context, operation: str, dynamic: str,
    *, outcome: str, reason: Reason | None = None,
) -> None:
    """proxy-concretize / proxy-specialize: a dynamic number as dict key or set member."""
    emit(api, context, Report(_code(outcome), findings.HASHING, dynamic,
                                           operation, reason=reason))


def format_spec(
    api: CheckerPluginInterface, context: Context, spec: str, dynamic: str,
    *, outcome: str, reason: Reason | None = None,
) -> None:
    """proxy-concretize: a dynamic number formatted with a format spec (``f"{p:.2f}"``)."""
    emit(api, context, Report(_code(outcome), findings.FORMAT_SPEC, dynamic,
                                           "format", subject=spec, reason=reason))


def formatted_text(
    api: CheckerPluginInterface, context: Context, operation: str, dynamic: str,
    *, outcome: str, reason: Reason | None = None, tracers: tuple[str, ...] | None = None,
) -> None:
    """proxy-specialize (proxy-concretize where torch.compile fails): text of a torch
    dynamic number built without a format spec (``f"{n}"``, ``str(n)``, ``format(n)``)."""
    emit(api, context, Report(_code(outcome), findings.FORMAT_TEXT, dynamic, operation,
                              extra=(outcome,), reason=reason, tracers=tracers))


def static_type_comparison(
    api: CheckerPluginInterface, context: Context, operation: str, classes: tuple[str, ...],
    dynamic: str, *, reason: Reason | None = None,
) -> None:
    """proxy-isinstance: ``type(x) is int`` misclassifies like isinstance."""
    emit(api, context, Report(PROXY_ISINSTANCE.code, findings.TYPE_COMPARISON,
                                           dynamic, operation, classes, reason=reason))


def static_and_dynamic_bases(
    api: SemanticAnalyzerPluginInterface,
    context: Context,
    class_name: str,
    dynamic: str,
    static: str,
) -> None:
    """proxy-base: a class with both a dynamic and a static number base."""
    emit(api, context, Report(PROXY_BASE.code, findings.STATIC_AND_DYNAMIC_BASES, dynamic,
                              "inheritance", (static,), subject=class_name))


def legacy_static_base(
    api: SemanticAnalyzerPluginInterface,
    context: Context,
    class_name: str,
    migrate_class: str,
    bases: tuple[str, ...],
) -> None:
    """proxy-base (migration mode): a legacy proxy class still inherits a static number."""
    emit(api, context, Report(PROXY_BASE.code, findings.LEGACY_STATIC_BASE, migrate_class,
                              "inheritance", bases, subject=class_name))


def registered_as_static(
    api: CheckerPluginInterface, context: Context, abc_name: str, dynamic: str
) -> None:
    """proxy-base: a dynamic number class registered with a ``numbers`` ABC."""
    emit(api, context, Report(PROXY_BASE.code, findings.ABC_REGISTER, dynamic, "register()",
                              (abc_name,), subject=abc_name))


def dynamic_bool_condition(
    api: TypeAnalyzerPluginInterface, context: Context, name: str, dynamic: str,
    *, outcome: str = "raises",
) -> None:
    """proxy-concretize (proxy-specialize when it guards): ``if flag:`` on a dynamic bool."""
    emit(api, context, Report(_code(outcome), findings.BOOL_CONDITION, dynamic,
                              "condition", subject=name))


def static_cast(
    api: TypeAnalyzerPluginInterface, context: Context, targets: tuple[str, ...], dynamic: str,
    reason: Reason | None = None,
) -> None:
    """proxy-cast: cast() of a dynamic number to a static number type."""
    emit(api, context, Report(PROXY_CAST.code, findings.CAST, dynamic, "cast()", targets,
                              reason=reason))


def not_a_class(
    api: CheckerPluginInterface,
    context: Context,
    config_file: str,
    name: str,
    kind: str,
    setting: str = "dynamic_number_classes",
) -> None:
    """proxy-config: a configured dynamic number or migrate class is not a class."""
    emit(api, context, Report(PROXY_CONFIG.code, findings.CONFIG_NOT_A_CLASS, subject=name,
                              extra=(config_file, setting, kind)))


def no_such_class(
    api: CheckerPluginInterface,
    context: Context,
    config_file: str,
    name: str,
    setting: str,
) -> None:
    """proxy-config: a configured class's module is in the build but lacks the name."""
    emit(api, context, Report(PROXY_CONFIG.code, findings.CONFIG_NO_SUCH_CLASS, subject=name,
                              extra=(config_file, setting)))


def unresolved_module(
    api: AnyPluginInterface, context: Context, module: str, classes: tuple[str, ...],
    skipped: bool,
) -> None:
    """proxy-config: checked code imports a module defining dynamic classes that mypy cannot
    find, or that the config makes it skip."""
    emit(api, context, Report(PROXY_CONFIG.code, findings.UNRESOLVED_MODULE, classes=classes,
                              subject=module, extra=("skipped" if skipped else "missing",)))


def call_reaches_sink(
    api: CheckerPluginInterface, context: Context, callee: str, argument: str, dynamic: str,
    code: str, path: tuple[str, ...], reason: Reason | None = None,
    tracers: tuple[str, ...] | None = None,
) -> None:
    """An argument that reaches a sink in the callee, reported at the call; ``path`` is
    (sink, function, where, via, effect, then one "file:line: note" per step)."""
    emit(api, context, Report(code, findings.CALL_REACHES_SINK, dynamic, callee,
                              subject=argument, extra=path, reason=reason, tracers=tracers))


def tensor_condition(api: CheckerPluginInterface, context: Context, operation: str,
                     outcome: str, *, tracers: tuple[str, ...] | None = None) -> None:
    """proxy-specialize: tensor data tested for truth in traced code (``if t.sum() > 0:``);
    ``operation`` says what is tested (``a tensor comparison``, ``Tensor.any()``)."""
    emit(api, context, Report(_code(outcome), findings.TENSOR_CONDITION, "SymBool", operation,
                              tracers=tracers))


def random_call(api: CheckerPluginInterface, context: Context, function: str) -> None:
    """proxy-specialize: a call of Python's ``random`` in traced code (``random.random``)."""
    emit(api, context, Report(PROXY_SPECIALIZE.code, findings.RANDOM_CALL, operation=function))


def static_schema_argument(api: CheckerPluginInterface, context: Context, operator: str,
                           parameter: str, declared: str, dynamic: str, *,
                           reason: Reason | None = None) -> None:
    """proxy-specialize: a dynamic number passed to a parameter that the aten operator's
    schema types as a static number (``torch.istft(length=n)``, ``int? length``)."""
    emit(api, context, Report(PROXY_SPECIALIZE.code, findings.STATIC_SCHEMA_ARGUMENT, dynamic,
                              operator, subject=parameter, extra=(declared,), reason=reason))


def internal_error(
    api: AnyPluginInterface, context: Context, check: str, where: str, exception: str
) -> None:
    """proxy-internal: a check raised; what it would have found here may be missing."""
    emit(api, context, Report(PROXY_INTERNAL.code, findings.INTERNAL_ERROR, subject=check,
                              extra=(where, exception)))


def flow_too_large(api: AnyPluginInterface, function: Context, name: str, limit: str) -> None:
    """proxy-internal at a function's definition: following its flows passed ``limit``."""
    emit(api, function, Report(PROXY_INTERNAL.code, findings.FLOW_TOO_LARGE, subject=name,
                               extra=(limit,)))


# -- configuration problems: one line each, exit status 2 ---------------------


def config_error_line(config_file: str, problem: str, line: int | None = None) -> str:
    """The one line that reports a bad ``[proxy_types]`` setting, at its line when known.

    A value quoted in ``problem`` may span lines (an ini continuation): shown escaped.
    """
    shown = problem.replace("\r", "\\r").replace("\n", "\\n")
    where = config_file if line is None else f"{config_file}:{line}"
    return f"{where}: error: [proxy_types] {shown}"


def config_unreadable(reason: str) -> str:
    """The config file cannot be read or parsed."""
    return f"cannot read the config file: {reason}".splitlines()[0]


def config_not_a_table() -> str:
    """``[tool.proxy_types]`` is not a TOML table."""
    return "[tool.proxy_types] must be a table"


def config_unknown_setting(key: str, value: object, known: tuple[str, ...], from_ini: bool
                           ) -> str:
    """A key the plugin does not know, with the value it was given (ini text as written)."""
    given = value if from_ini and isinstance(value, str) else shown_value(value)
    return f'unknown setting "{key}" = {given} (known: {", ".join(known)})'


def config_not_a_plugin_code(key: str, code: str, known: tuple[str, ...]) -> str:
    """An error code setting of the plugin's section naming no plugin code."""
    return (f'{key}: "{code}" is not a proxy-types code (known: {", ".join(known)}); '
            "mypy's own codes go in the [mypy] section")


def config_code_on_and_off(code: str) -> str:
    """One code both in ``enable_error_code`` and ``disable_error_code``."""
    return f'enable_error_code and disable_error_code both list "{code}"; keep one'


def config_not_a_class_name(key: str, name: str) -> str:
    """A class list entry without a module part."""
    return f'{key}: "{name}" is not a fully qualified class name like pkg.Class'


def config_not_a_function_name(key: str, name: str) -> str:
    """A function list entry without a module part."""
    return f'{key}: "{name}" is not a fully qualified function name like pkg.mod.function'


def config_guarded_not_dynamic(name: str) -> str:
    """A ``guarded_number_classes`` entry that is no configured dynamic class."""
    return (f'guarded_number_classes: "{name}" is not listed in dynamic_number_classes '
            "(or migrate_classes); list it there too")


def config_not_a_module_pattern(key: str, name: str) -> str:
    """A module list entry that is neither a module name nor ``pkg.*``."""
    return f'{key}: "{name}" is not a module name or pkg.* pattern'


def config_bad_isinstance_function(entry: str) -> str:
    """A malformed ``isinstance_functions`` entry."""
    return (f'isinstance_functions: "{entry}" is not pkg.mod.function or '
            "pkg.mod.function:VALUE_INDEX:CLASSES_INDEX")


def config_same_argument(entry: str, index: int) -> str:
    """An ``isinstance_functions`` entry whose value and classes share one argument."""
    return (f'isinstance_functions: "{entry}" uses argument {index} for both the '
            "value and the classes")


def config_bad_traced_function(entry: str) -> str:
    """A ``traced_functions`` entry that is no dotted name pattern."""
    return (f'traced_functions: "{entry}" is not a function name pattern like pkg.mod.* or '
            "pkg.mod.Class.method, a decorator like @pkg.mod.decorator, nor an exclusion like "
            "!pkg.mod._check_*")


def config_bad_parameter_pattern(entry: str) -> str:
    """A ``static_parameters`` entry that is no parameter name pattern."""
    return f'static_parameters: "{entry}" is not a parameter name or pattern like dim or *_dim'


def config_unknown_tracer(entry: str, known: tuple[str, ...]) -> str:
    """A ``tracers`` entry that names no torch tracer."""
    return f'tracers: "{entry}" is not a torch tracer (known: {", ".join(known)})'


def config_no_tracer(known: tuple[str, ...]) -> str:
    """A ``tracers`` setting that names none."""
    return (f"tracers: names no tracer; list those the project runs ({', '.join(known)}), "
            "or remove the setting for all of them")


def config_empty_entry(key: str, value: object) -> str:
    """An empty entry in a list setting (``a,,b``)."""
    return f"{key}: empty entry in {shown_value(value)}"


def shown_value(value: object) -> str:
    """A setting's value as the user wrote it: ini text quoted, TOML values as TOML."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(shown_value(item) for item in value) + "]"
    return repr(value)


def config_duplicate_entry(key: str, entry: str) -> str:
    """An entry listed twice."""
    return f'{key}: "{entry}" is listed twice'


def config_expected_boolean(key: str, value: object) -> str:
    """A boolean setting with another value."""
    return f'{key}: expected true or false, got "{value}"'


def config_expected_list(key: str, value: object) -> str:
    """A list setting with another value."""
    return f"{key}: expected a list of strings, got {value!r}"


def config_needs_tomli() -> str:
    """pyproject.toml on Python 3.10 without tomli installed."""
    return "reading pyproject.toml on Python 3.10 needs tomli (pip install tomli)"
