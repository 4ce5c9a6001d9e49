"""How a report reaches mypy without changing what mypy infers (issue #19).

mypy decides several things by trying: each overload of a call, a lambda
against a type context, an operator's methods.  It checks the candidate with
its errors watched, and a candidate that produced an error loses.  A report of
the plugin made during such a trial would count as that error: the right
overload loses and mypy infers something else (``list[Any]`` instead of
``list[int | IntegerProxy]``, plus errors of its own).  So every report:

1. goes past mypy's error watchers: no trial ever sees it;
2. is recorded once: trials check the same code several times, and a report
   equal to one already recorded (place, code, message) is not added again;
3. if made while a trial runs, is provisional.  It remembers the types its
   expression and that expression's operands had then (except the expression the
   hook runs for: mypy types it after the hook).  When the trial is
   over, mypy has either kept its types (they are now the module's) or thrown
   them away; a report whose types differ from the module's came from a
   discarded trial and is withdrawn, unless the same report was also made
   from the kept types.

Provisional reports are settled at the end of their module (mypy calls
``get_additional_indirect_deps`` there) or, on mypy releases without that
hook, at the next plugin hook of the same module outside any trial; a report
never settled is kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mypy.nodes import Context, Expression, MypyFile
from mypy.plugin import CheckerPluginInterface

from . import _mypy_compat as compat
from . import collectors
from .findings import Report

if TYPE_CHECKING:
    from mypy.errorcodes import ErrorCode
    from mypy.errors import ErrorInfo, Errors
    from mypy.types import Type


@dataclass(eq=False)
class _Provisional:
    """A report made during a trial, with what decides whether mypy kept that trial."""

    checker: CheckerPluginInterface
    errors: Errors
    report: Report
    info: ErrorInfo | None  # None: mypy ignored it (`# type: ignore`): nothing to withdraw
    evidence: tuple[tuple[Expression, Type], ...]  # (expression, its type then)

    def kept(self, module_types: dict[Expression, Type]) -> bool:
        """True if the module's types are the ones the report was made from."""
        return all(module_types.get(expr) == typ for expr, typ in self.evidence)


#: The error mypy recorded for each report, by what makes two reports the same one.
#: (A report on a `# type: ignore` line is never recorded: mypy marks the comment
#: used each time it is reported again.)
_recorded: dict[tuple[str, int, int, str, str], ErrorInfo] = {}
#: The reports waiting to be settled, oldest first.  Never rebound (changed in
#: place), so the routing layer keeps a reference and tests it at every hook call.
provisional: list[_Provisional] = []


def deliver(api: compat.AnyPluginInterface, context: Context, report: Report,
            code: ErrorCode) -> None:
    """Report ``report`` (already located and rendered) to mypy at ``context``."""
    errors = compat.errors_of(api)
    key = _key(report)
    in_trial = compat.trial_depth(errors) > 0
    info = _still_recorded(errors, key)
    if info is None:
        recorded = compat.reported_in(errors, report.file)
        before = len(recorded)
        with compat.outside_trials(errors):
            api.fail(report.message, context, code=code)
        recorded = compat.reported_in(errors, report.file)
        if len(recorded) > before:
            info = _recorded[key] = recorded[-1]
        collectors.keep(report)
    if not isinstance(api, CheckerPluginInterface):
        return  # semantic analysis runs no trials
    maps = compat.type_maps(api)
    if maps is None:
        return
    if in_trial:
        provisional.append(_Provisional(api, errors, report, info, _evidence(maps, context)))
    elif provisional:  # made outside any trial: kept whatever the trials did
        provisional.append(_Provisional(api, errors, report, info, ()))


def _key(report: Report) -> tuple[str, int, int, str, str]:
    return (report.file, report.line, report.column, report.code, report.message)


def _still_recorded(errors: Errors, key: tuple[str, int, int, str, str]) -> ErrorInfo | None:
    """The error recorded for an equal report, if mypy still has it (a daemon drops some)."""
    info = _recorded.get(key)
    if info is None or info in compat.reported_in(errors, key[0]):
        return info
    del _recorded[key]
    return None


def _evidence(maps: list[dict[Expression, Type]],
              context: Context) -> tuple[tuple[Expression, Type], ...]:
    """The types mypy has now for ``context`` and its operands (innermost trial first)."""
    from .analysis.walk import walk

    found: list[tuple[Expression, Type]] = []
    for node in walk(context, lambda node: False) if isinstance(context, Expression) else ():
        if isinstance(node, Expression):
            typ = _latest(maps, node)
            if typ is not None:
                found.append((node, typ))
    return tuple(found)


def pending() -> bool:
    """True while some report waits to be settled."""
    return bool(provisional)


def hook_done(start: int, hooked: Context) -> None:
    """Take the evidence of the reports a hook made again, now that it has finished.

    A hook may rewrite the type it reported on (migration mode widens the class
    operand of an isinstance check); mypy keeps the rewritten type.

    The expression the hook ran for (``hooked``) is left out: mypy types it from the
    hook's answer, after the hook.  A type it has now was stored by an earlier check
    of the same code, such as the first pass over a function mypy deferred, where
    the call was ``Any``; it would withdraw a report of the final pass.
    """
    for record in provisional[start:]:
        maps = compat.type_maps(record.checker)
        if maps is not None and record.evidence:
            record.evidence = tuple(
                (expr, _latest(maps, expr) or typ) for expr, typ in record.evidence
                if expr is not hooked
            )


def _latest(maps: list[dict[Expression, Type]], expr: Expression) -> Type | None:
    for types in reversed(maps):
        typ = types.get(expr)
        if typ is not None:
            return typ
    return None


def settle_at_hook(api: CheckerPluginInterface) -> None:
    """Settle the provisional reports of ``api``'s module if no trial is running.

    Inside a trial mypy may still be between a first and a final pass over an
    expression.  Without the end-of-module hook, reports of other modules are
    given up (kept as they are): their checker may have been reset already.
    """
    maps = compat.type_maps(api)
    if maps is None or len(maps) > 1 or compat.trial_depth(compat.errors_of(api)):
        return
    _settle([record for record in provisional if record.checker is api], maps[0])
    if not compat.AVAILABLE["end-of-module confirmation"]:
        provisional.clear()


def settle_module(tree: MypyFile) -> None:
    """Settle every provisional report of module ``tree``: mypy has finished checking it."""
    mine = [record for record in provisional if compat.checked_tree(record.checker) is tree]
    if not mine:
        return
    maps = compat.type_maps(mine[0].checker)
    if maps is not None:
        _settle(mine, maps[0])
    file = mine[0].report.file
    left = {id(record) for record in mine}
    provisional[:] = [record for record in provisional if id(record) not in left]
    for key in [key for key in _recorded if key[0] == file]:
        del _recorded[key]  # mypy shows the module's errors next; a later run starts afresh


def _settle(records: list[_Provisional], module_types: dict[Expression, Type]) -> None:
    """Withdraw the reports that only discarded trials made; forget the records."""
    kept: dict[tuple[str, Report], bool] = {}
    first: dict[tuple[str, Report], _Provisional] = {}
    for record in records:
        key = (record.report.file, record.report)
        kept[key] = kept.get(key, False) or record.kept(module_types)
        first.setdefault(key, record)
    settled = {id(record) for record in records}
    provisional[:] = [record for record in provisional if id(record) not in settled]
    for key, record in first.items():
        if kept[key]:
            continue
        if record.info is not None:
            compat.withdraw(record.errors, record.report.file, record.info)
        _recorded.pop(_key(record.report), None)
        collectors.withdraw(record.report)
