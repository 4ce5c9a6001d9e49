"""How a check runs inside mypy: isolated, gated, and past mypy's trials.

- *Isolation*: an error inside a check becomes one proxy-internal report and
  mypy gets its own default answer (``PROXY_TYPES_DEBUG=1``: it propagates).
- *Gating*: a check runs only in modules whose verdict (``gate.py``) is among
  those its :class:`~.hooks.Hook` declares.
- *Trials*: reports made while mypy tries an overload are settled
  (``reporting.py``) before a checker hook runs and after each part of it.

Several checks hooked by the same name run as the parts of one hook, in the
registry's order; the first answer that is not None is mypy's.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface
from mypy.semanal import SemanticAnalyzer

from . import _mypy_compat as compat
from .config import ProxyTypesConfig
from .gate import RUNS_EVERYWHERE, RUNS_WHERE_VISIBLE, ReportGate, Verdict, VerdictName
from .hooks import (
    BASE_CLASS,
    CUSTOMIZE_CLASS_MRO,
    FUNCTION,
    FUNCTION_SIGNATURE,
    METHOD,
    METHOD_SIGNATURE,
    Env,
    HookKind,
)

if TYPE_CHECKING:
    from .daemon_deps import SourceReads
    from mypy.plugin import (
        AnalyzeTypeContext,
        FunctionContext,
        FunctionSigContext,
        MethodContext,
        MethodSigContext,
    )
    from mypy.types import FunctionLike, Type

_Ctx = TypeVar("_Ctx")
_Result = TypeVar("_Result")

#: ``PROXY_TYPES_DEBUG=1``: an error inside a check propagates (a traceback) instead
#: of becoming a proxy-internal report.  The test suite runs with it on.
DEBUG_VARIABLE = "PROXY_TYPES_DEBUG"


def debugging() -> bool:
    """True if internal errors should propagate (``PROXY_TYPES_DEBUG=1``)."""
    return os.environ.get(DEBUG_VARIABLE, "") not in ("", "0")


class Part(NamedTuple):
    """One check's share of a hook: its name (as internal errors show it), its entry
    and hooked environment, and the verdicts it runs under."""

    name: str
    check: Callable[[Any, Env], Any]
    env: Env
    runs: frozenset[VerdictName]


def _context_of(ctx: Any) -> Context:
    """Where a hook's code stands: ``ctx.context``, or the class of a class hook."""
    context = getattr(ctx, "context", None)
    return context if isinstance(context, Context) else ctx.cls


def _raised_at(error: Exception) -> str:
    """`` (casts.py:42)``: where the error was raised (the last frame)."""
    frames = traceback.extract_tb(error.__traceback__)
    return f" ({os.path.basename(frames[-1].filename)}:{frames[-1].lineno})" if frames else ""


def _explained(error: Exception) -> str:
    """``ValueError: message (casts.py:42)``: the exception and where it was raised."""
    message = " ".join(str(error).split())
    shown = f"{type(error).__name__}: {message}" if message else type(error).__name__
    return shown + _raised_at(error)


class Runner:
    """Wraps checks into mypy hooks; one per plugin."""

    def __init__(self, config: ProxyTypesConfig, gate: ReportGate,
                 module_start: Callable[[], Sequence[Part]]) -> None:
        self.config = config
        self.gate = gate
        self.debug = debugging()
        #: The parts that run at the start of each module's check (asked on first use).
        self.module_start = module_start
        # Internal errors already reported: (check or lookup, exception and where it was
        # raised, file).
        self._internal_errors: set[tuple[str, str, str]] = set()
        #: dmypy: told which type checker runs each hook (``daemon_deps``); else None.
        self.source_reads: SourceReads | None = None

    # -- semantic-analysis hooks ----------------------------------------------

    def analysis_hook(self, parts: Sequence[Part], default: Callable[[_Ctx], _Result]
                      ) -> Callable[[_Ctx], _Result]:
        """``parts`` as a semantic-analysis hook (class hooks): each part runs in
        modules whose verdict it names; mypy gets ``default`` unless a part answers."""
        everywhere = all(part.runs == RUNS_EVERYWHERE for part in parts)

        def hook(ctx: _Ctx) -> _Result:
            api = ctx.api  # type: ignore[attr-defined]  # every hook context has one
            try:
                verdict = Verdict.REPORTED if everywhere else self._analysis_verdict(api)
            except Exception as error:
                self.failed(api, ctx, parts[0].name, error)
                return default(ctx)
            answer = self._run_parts(ctx, api, parts, verdict)
            return default(ctx) if answer is None else answer

        return hook

    def type_analysis_hook(self, parts: Sequence[Part],
                           default_analysis: Callable[[AnalyzeTypeContext], Type],
                           ) -> Callable[[AnalyzeTypeContext], Type]:
        """A type-analysis hook: mypy's own analysis of the name, then ``parts``."""
        checks = self.analysis_hook(parts, _nothing)

        def hook(ctx: AnalyzeTypeContext) -> Type:
            analyzed = default_analysis(ctx)
            checks(ctx)
            return analyzed

        return hook

    def unresolved_type_hook(self, parts: Sequence[Part],
                             default_analysis: Callable[[AnalyzeTypeContext], Type],
                             ) -> Callable[[AnalyzeTypeContext], Type]:
        """A type-analysis hook for a name mypy may not resolve: its own analysis, then
        ``parts`` if it made the name the Any of a module it cannot find."""
        from mypy.types import AnyType, TypeOfAny, get_proper_type

        checks = self.analysis_hook(parts, _nothing)

        def hook(ctx: AnalyzeTypeContext) -> Type:
            analyzed = default_analysis(ctx)
            proper = get_proper_type(analyzed)
            if isinstance(proper, AnyType) and proper.type_of_any == TypeOfAny.from_unimported_type:
                checks(ctx)
            return analyzed

        return hook

    def _analysis_verdict(self, api: Any) -> VerdictName:
        """The gate's verdict for a semantic-analysis hook (its API is the analyzer or a
        type analyzer); REPORTED when the analyzer cannot be found (the check decides)."""
        semanal = api if isinstance(api, SemanticAnalyzer) else compat.semantic_analyzer_of(api)
        return Verdict.REPORTED if semanal is None else self.gate.in_analyzer(semanal)

    # -- checker hooks ----------------------------------------------------------

    def checker_hook(self, parts: Sequence[Part], default: Callable[[_Ctx], _Result]
                     ) -> Callable[[_Ctx], _Result]:
        """``parts`` as a checker hook (function, method and signature hooks).

        Checker hooks also settle reports made during mypy's trials, once before
        anything runs, and report modules defining dynamic classes that the module
        imports but mypy cannot find.

        The gate is asked once per module: the same tree as the last hook's means the
        same verdict, and a new one is the module's first hook.
        """
        from . import reporting

        provisional = reporting.provisional
        gate = self.gate
        checked_tree = compat.checked_tree_getter()
        runs_somewhere = frozenset().union(*(part.runs for part in parts))
        name = parts[0].name

        def first_in_module(ctx: _Ctx, api: CheckerPluginInterface) -> VerdictName:
            verdict = self.gate.in_checker(api)
            if verdict in RUNS_WHERE_VISIBLE:
                self._run_parts(ctx, api, self.module_start(), verdict)
            return verdict

        def hook(ctx: _Ctx) -> _Result:
            api = ctx.api  # type: ignore[attr-defined]  # every hook context has one
            try:
                if provisional:
                    reporting.settle_at_hook(api)
                verdict = gate.checked_verdict if checked_tree(api) is gate.checked_tree \
                    else first_in_module(ctx, api)
            except Exception as error:
                self.failed(api, ctx, name, error)
                return default(ctx)
            if verdict not in runs_somewhere:
                return default(ctx)  # torch's own code, mostly: nothing can be reported
            if self.source_reads is not None:
                self.source_reads.checker = api
            start = len(provisional)
            answer = self._run_parts(ctx, api, parts, verdict)
            if len(provisional) > start:
                try:  # after every part: a part may rewrite a type another one reported on
                    reporting.hook_done(start, _context_of(ctx))
                except Exception as error:
                    self.failed(api, ctx, name, error)
            return default(ctx) if answer is None else answer

        return hook

    # -- isolation ----------------------------------------------------------------

    def _run_parts(self, ctx: Any, api: Any, parts: Sequence[Part], verdict: VerdictName
                   ) -> Any:
        """Each part that runs under ``verdict``, its errors reported; the first answer."""
        answer = None
        for part in parts:
            if verdict not in part.runs:
                continue
            try:
                result = part.check(ctx, part.env)
            except Exception as error:
                self.failed(api, ctx, part.name, error)
                continue
            if answer is None:
                answer = result
        return answer

    def failed(self, api: Any, ctx: Any, check: str, error: Exception) -> None:
        """An error in a hook's part: one proxy-internal report (``PROXY_TYPES_DEBUG=1``:
        the error propagates)."""
        if self.debug:
            raise error
        self._internal_error(api, _context_of(ctx), check, error)

    def _internal_error(self, api: Any, context: Context, check: str, error: Exception) -> None:
        """One proxy-internal line per distinct error and file: the check, the place, the
        exception.  None in files whose errors mypy hides (nobody would see it)."""
        explained = _explained(error)
        from . import errors

        try:
            path = compat.current_path(api)
            if compat.file_hidden(compat.errors_of(api), path):
                return
            if (check, explained, path) in self._internal_errors:
                return
            self._internal_errors.add((check, explained, path))
            errors.internal_error(api, context, check, f"{path}:{context.line}", explained)
        except Exception as reporting_error:  # even reporting failed: mypy's stderr, once
            print(f"proxy-types: internal error in check {check!r}: {explained}; reporting it "
                  f"failed too: {_explained(reporting_error)}", file=sys.stderr)

    def lookup_failed(self, lookup: str, fullname: str, error: Exception) -> None:
        """One stderr line per lookup and kind of error (the first name it failed for)."""
        if self.debug:
            raise error
        explained = _explained(error)
        kind = type(error).__name__ + _raised_at(error)
        if (lookup, kind, "") not in self._internal_errors:
            self._internal_errors.add((lookup, kind, ""))
            print(f"proxy-types: internal error in {lookup}({fullname!r}): {explained}; "
                  "checks of this name are off", file=sys.stderr)


def _nothing(ctx: Any) -> None:
    return None


def _default_return(ctx: FunctionContext | MethodContext) -> Type:
    return ctx.default_return_type


def _default_signature(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    return ctx.default_signature


#: What mypy gets from a hook of each kind when no check answers.
DEFAULTS: dict[HookKind, Callable[[Any], Any]] = {
    FUNCTION: _default_return, METHOD: _default_return,
    FUNCTION_SIGNATURE: _default_signature, METHOD_SIGNATURE: _default_signature,
    BASE_CLASS: _nothing, CUSTOMIZE_CLASS_MRO: _nothing,
}
