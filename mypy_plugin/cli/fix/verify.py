"""Check every rewrite with mypy, undo the harmful ones, and fix what rewrites uncover.

When files are written, mypy runs again; a rewrite after which mypy reports a
new error is undone (with every rewrite of the same outermost function: narrowing
flows through a function) and listed.  A rewrite can also make mypy check a
branch it skipped before; a second pass fixes what appears there.
"""

from __future__ import annotations

import ast
import difflib
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from ..check import ARG_TYPE_CODE, CheckResult, Finding
from .annotations import AnnotationFinding
from .imports import import_style
from .model import FilePlan, FixError, Options, Position, read_source, start_of, write_source
from .plan import (
    PlanSettings,
    blocking_problems,
    configured_options,
    fix_file,
    fixable,
    plan_fixes,
    planned_registrations,
    python_files,
)
from .progress import MypyRuns


@dataclass
class FixReport:
    plans: list[FilePlan]
    failures: list[str]
    new_errors: list[str] = field(default_factory=list)
    mypy_runs: int = 0
    #: mypy's findings before any rewrite, and after the last (None with --diff).
    before: CheckResult | None = None
    final: CheckResult | None = None


LINE_NUMBER = re.compile(r"\bline \d+")
MAX_VERIFY_ROUNDS = 3


def error_key(finding: Finding) -> tuple[str, str | None, str]:
    passed = finding.passed
    if passed is not None:
        # A widened annotation rewords an error it does not cause ("expected float"
        # becomes "expected int | float | complex | DynamicNumber" for a SymInt): the
        # plugin's record of the call is the same.
        return (finding.file, finding.code, repr((passed.function, passed.cls, passed.number,
                                                  passed.keyword, passed.dynamic)))
    # "already defined on line 12" moves with every added import line.
    return (finding.file, finding.code, LINE_NUMBER.sub("line N", finding.message))


def new_errors(before: CheckResult, after: CheckResult) -> list[Finding]:
    """Errors of ``after`` unlike any of ``before`` (compared without positions).

    Compared as sets: mypy may repeat an error once more or less between a cold
    and a warm cache, which is no sign of a harmful rewrite.
    """
    old = {error_key(f) for f in before.findings if f.severity == "error"}
    return [f for f in after.findings if f.severity == "error" and error_key(f) not in old]


@functools.lru_cache(maxsize=8)
def line_changes(original: str, rewritten: str) -> tuple[tuple[str, int, int, int, int], ...]:
    """difflib's opcodes between the lines of two texts (cached: asked once per finding)."""
    matcher = difflib.SequenceMatcher(
        None, original.splitlines(), rewritten.splitlines(), autojunk=False)
    return tuple(matcher.get_opcodes())


def original_line(plan: FilePlan, line: int) -> int:
    """The line of the original text that line ``line`` of the rewrite came from."""
    for tag, old_start, old_end, new_start, new_end in line_changes(plan.original, plan.rewritten):
        if new_start < line <= new_end:
            if tag == "equal" or old_end - old_start == new_end - new_start:
                return old_start + (line - new_start)
            return old_start + 1
    return line


def rewritten_line(original: str, rewritten: str, line: int) -> int:
    """Where line ``line`` of ``original`` went in ``rewritten``."""
    if original is rewritten:
        return line
    for tag, old_start, old_end, new_start, new_end in line_changes(original, rewritten):
        if old_start < line <= old_end:
            if tag == "equal" or old_end - old_start == new_end - new_start:
                return new_start + (line - old_start)
            return new_start + 1
    return line


@functools.lru_cache(maxsize=8)
def outermost_functions(source: str) -> tuple[tuple[int, int], ...]:
    """Line spans of the functions and methods not nested in another function."""
    wrapper = MetadataWrapper(cst.parse_module(source))
    parents = wrapper.resolve(ParentNodeProvider)
    spans = []
    for node, where in wrapper.resolve(PositionProvider).items():
        if not isinstance(node, cst.FunctionDef):
            continue
        parent = parents.get(node)
        while parent is not None and not isinstance(parent, cst.FunctionDef):
            parent = parents.get(parent)
        if parent is None:
            spans.append((where.start.line, where.end.line))
    return tuple(spans)


def outermost_function(source: str, line: int) -> tuple[int, int] | None:
    """Lines of the outermost function (or method) around ``line``; None at module level."""
    return next((s for s in outermost_functions(source) if s[0] <= line <= s[1]), None)


def module_name(path: str) -> str:
    parts = list(Path(path).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.lru_cache(maxsize=64)
def imported_modules(path: str) -> frozenset[str]:
    """Modules ``path`` imports by absolute name (empty if it cannot be read)."""
    try:
        tree = ast.parse(read_source(path), filename=path)
    except (FixError, SyntaxError, ValueError):
        return frozenset()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(found)


def imports_module(importer: str, imported: str) -> bool:
    """True if file ``importer`` imports the module of file ``imported`` (by name suffix)."""
    target = module_name(imported)
    # "pkg.mod" or "pkg.mod.name" (from pkg.mod import name); the path may add a prefix.
    candidates = {c for name in imported_modules(importer) for c in (name, name.rpartition(".")[0])}
    return any(c and (target == c or target.endswith("." + c)) for c in candidates)


def rewrites_to_undo(plans: Sequence[FilePlan], harmful: Sequence[Finding]
                     ) -> dict[str, set[Position]]:
    """The rewrites a new error may come from: those in the same outermost function.

    Narrowing flows through a whole function, so an error can appear lines away
    from the rewrite that caused it.  An error outside any changed function
    undoes every rewrite of its file, or of every file if its file was not changed.
    An error in a file that calls a function whose annotation was rewritten
    undoes that rewrite; an error with no rewrite around it undoes the annotation
    rewrites of its module and of the modules it imports.
    """
    plan_of = {plan.path: plan for plan in plans if plan.changed}
    undo: dict[str, set[Position]] = {}

    def add(plan: FilePlan, span: tuple[int, int] | None) -> None:
        undo.setdefault(plan.path, set()).update(
            start_of(o.finding) for o in plan.outcomes if o.kind is not None
            and (span is None or span[0] <= o.finding.line <= span[1])
        )

    for finding in harmful:
        # A widened annotation changes what its callers may pass: an error at a
        # call site undoes the annotation rewrites that call site led to.
        for other in plan_of.values():
            undo.setdefault(other.path, set()).update(
                start_of(o.finding) for o in other.outcomes if o.kind is not None
                and isinstance(o.finding, AnnotationFinding)
                and finding.file in o.finding.call_files)
        plan = plan_of.get(finding.file)
        if plan is None:
            # An unchanged module sees the changed ones through its imports.  Only
            # direct imports count: mypy's incremental mode can word an error in an
            # untouched module differently from one run to the next on its own.
            for other in plan_of.values():
                if imports_module(finding.file, other.path):
                    add(other, None)
            continue
        span = outermost_function(plan.original, original_line(plan, finding.line))
        add(plan, span)
        if span is None or not any(o.kind is not None and span[0] <= o.finding.line <= span[1]
                                   for o in plan.outcomes):
            # Nothing rewritten around the error: a widened annotation may reach it
            # through an attribute or an override, from this module or one it imports.
            for other in plan_of.values():
                if other is plan or imports_module(finding.file, other.path):
                    undo.setdefault(other.path, set()).update(
                        start_of(o.finding) for o in other.outcomes if o.kind is not None
                        and isinstance(o.finding, AnnotationFinding))
    return undo


MAX_PASSES = 2


def run_fix(paths: Sequence[str], config: str | None, cache_dir: str | None,
            options: Options, write: bool) -> FixReport:
    """Check, rewrite, and (when writing) check again and undo harmful rewrites.

    A rewrite can make mypy see a check it skipped before (a branch that was
    unreachable), so a second pass fixes what the first one uncovered; a run
    right after this one then has nothing left to do.  Annotations come last,
    planned from the latest run and verified on their own: a widened parameter
    reaches into other modules, and undoing it must not undo unrelated rewrites.
    """
    runs = MypyRuns(paths, config, cache_dir)
    with runs.phase("checking"):
        before = runs.check()
    problems = blocking_problems(before)
    if problems:
        raise FixError(problems[0])
    checked = python_files(paths)
    options = configured_options(options, before, checked)
    settings = PlanSettings(options, import_style(Path.cwd()), checked)
    if options.register:
        registrations = planned_registrations(before.findings, options, checked)
        added = {r.name: r.python_type for found in registrations.values() for r in found}
        settings.options = replace(options, registered={**options.registered, **added})
        settings.registrations = registrations
    plans, failures = plan_fixes(before.findings, settings, annotations=not write)
    report = FixReport(plans, failures, mypy_runs=runs.count, before=before)
    if not write:
        return report
    later = replace(settings, registrations={})  # registrations are made by the first pass
    current = before
    for number in range(MAX_PASSES):
        if not write_plans(plans, failures):
            break
        with runs.phase(f"rewriting and checking again, pass {number + 1}"):
            plans, current = verify(runs, settings, before, plans, report)
        report.plans = plans if number == 0 else merge_passes(report.plans, plans)
        plans, _ = plan_fixes(uncovered_findings(plans, current), later, annotations=False)
        plans = [plan for plan in plans if plan.changed]
        settings = later
    plans, more_failures = plan_fixes(current.findings, later, plugin=False)
    failures += more_failures
    if write_plans(plans, failures):
        with runs.phase("widening annotations and checking again"):
            plans, current = verify(runs, later, current, plans, report)
    report.final = current
    report.plans = merge_passes(report.plans, plans)
    report.mypy_runs = runs.count
    return report


def useless_annotation_rewrites(plans: Sequence[FilePlan], after: CheckResult
                                ) -> dict[str, set[Position]]:
    """Annotation rewrites whose calls mypy still reports (it does not count the
    passed class as NumberLike, a legacy proxy for one): they fix nothing."""
    remaining = {error_key(f) for f in after.findings if f.code == ARG_TYPE_CODE}
    useless: dict[str, set[Position]] = {}
    for plan in plans:
        for outcome in plan.outcomes:
            finding = outcome.finding
            if (outcome.kind is not None and isinstance(finding, AnnotationFinding)
                    and any(error_key(call) in remaining for call in finding.calls)):
                useless.setdefault(plan.path, set()).add(start_of(finding))
    return useless


def verify(runs: MypyRuns, settings: PlanSettings, before: CheckResult, plans: list[FilePlan],
           report: FixReport) -> tuple[list[FilePlan], CheckResult]:
    """Undo the rewrites after which mypy reports errors it did not report before."""
    skips: dict[str, set[Position]] = {}
    for _ in range(MAX_VERIFY_ROUNDS):
        after = runs.check()
        harmful = new_errors(before, after)
        useless = useless_annotation_rewrites(plans, after)
        if not harmful and not any(useless.values()):
            return plans, after
        report.new_errors += [
            f"{f.file}:{f.line}:{f.column}: {f.message}  [{f.code}]" for f in harmful
        ]
        undo = rewrites_to_undo(plans, harmful)
        for path, starts in useless.items():
            undo.setdefault(path, set()).update(starts)
        if not any(undo.values()):
            return plans, after  # nothing of ours left to undo
        for path, starts in undo.items():
            skips.setdefault(path, set()).update(starts)
        redone = []
        for plan in plans:
            if undo.get(plan.path):
                findings: list[Finding] = [o.finding for o in plan.outcomes]
                plan = fix_file(plan.path, plan.original, findings, settings.options,
                                frozenset(skips[plan.path]), settings.style,
                                settings.registrations.get(plan.path, ()))
                write_source_or_record(plan, report.failures)
            redone.append(plan)
        plans = redone
    return plans, runs.check()


def uncovered_findings(plans: Sequence[FilePlan], after: CheckResult) -> list[Finding]:
    """Findings in functions whose rewrites were kept: checks those rewrites uncovered.

    Functions whose rewrites were undone are left out, or the next pass would
    only repeat the same rewrites and undo them again.
    """
    plan_of = {plan.path: plan for plan in plans if plan.changed}
    found = []
    for finding in after.findings:
        plan = plan_of.get(finding.file)
        if plan is None or not fixable(finding):
            continue
        kept = [o.finding.line for o in plan.outcomes if o.kind is not None]
        known = {(o.finding.line, o.finding.code, o.finding.message) for o in plan.outcomes}
        line = original_line(plan, finding.line)
        if (line, finding.code, finding.message) in known:
            continue  # seen by the first pass: fixed there or listed with its reason
        span = outermost_function(plan.original, line) or (line, line)
        if any(span[0] <= kept_line <= span[1] for kept_line in kept):
            found.append(finding)
    return found


@dataclass(frozen=True)
class Left:
    """A finding still there after ``fix`` (or, with --diff, after its rewrites)."""

    file: str
    line: int
    column: int
    code: str | None
    reason: str


#: Why a finding no rewrite was planned for is left.
MYPY_OWN = ("mypy's own error: fix rewrites only proxy-types findings and the arg-type "
            "errors of dynamic numbers")
NOT_PLANNED = ("no rewrite was planned for it (it appeared after the rewrites, or fix does "
               "not handle it)")


def left_unfixed(report: FixReport, write: bool) -> list[Left]:
    """Every error a ``check`` after this ``fix`` reports, with the reason it is left.

    Written: the errors of the last mypy run, each with its outcome's reason when
    it has one.  With --diff: the findings no rewrite would fix, and mypy's other errors.
    """
    if write and report.final is not None:
        return [Left(f.file, f.line, f.column, f.code, reason_of(f, report.plans))
                for f in report.final.findings if f.severity == "error"]
    left = [Left(o.finding.file, o.finding.line, o.finding.column, o.finding.code,
                 o.reason or NOT_PLANNED)
            for plan in report.plans for o in plan.outcomes if o.kind is None]
    covered = {start_of(o.finding) + (o.finding.file,) for plan in report.plans
               for o in plan.outcomes}
    covered |= {start_of(call) + (call.file,) for plan in report.plans for o in plan.outcomes
                if isinstance(o.finding, AnnotationFinding) for call in o.finding.calls}
    before = report.before.findings if report.before is not None else []
    left += [Left(f.file, f.line, f.column, f.code, default_reason(f)) for f in before
             if f.severity == "error" and start_of(f) + (f.file,) not in covered]
    return sorted(left, key=lambda found: (found.file, found.line, found.column))


def reason_of(finding: Finding, plans: Sequence[FilePlan]) -> str:
    """The reason of the outcome at ``finding``'s place in the written file; for a call
    whose annotation rewrite was left or undone (listed at the annotation), that one's;
    else a default."""
    calls: list[tuple[int, str]] = []
    same_line = []  # mypy's own error at a site the plugin reported (a conversion's arg-type)
    for plan in plans:
        for outcome in plan.outcomes:
            if outcome.kind is not None:
                continue
            if (plan.path == finding.file and rewritten_line(
                    outcome.source, plan.rewritten, outcome.finding.line) == finding.line):
                if outcome.finding.code == finding.code:
                    return outcome.reason or NOT_PLANNED
                same_line.append(outcome.reason or NOT_PLANNED)
            if isinstance(outcome.finding, AnnotationFinding):
                # The caller's text may have changed since: matched by message, nearest line.
                calls += [(abs(call.line - finding.line), outcome.reason or NOT_PLANNED)
                          for call in outcome.finding.calls
                          if (call.file, call.code, call.message)
                          == (finding.file, finding.code, finding.message)]
    if calls:
        return min(calls)[1]
    return same_line[0] if same_line else default_reason(finding)


def default_reason(finding: Finding) -> str:
    return NOT_PLANNED if finding.is_plugin_finding else MYPY_OWN


def merge_passes(first: list[FilePlan], second: list[FilePlan]) -> list[FilePlan]:
    """One plan per file: the first original, the last text, all outcomes."""
    merged = {plan.path: plan for plan in first}
    for plan in second:
        earlier = merged.get(plan.path)
        if earlier is None or earlier is plan:
            merged[plan.path] = plan
            continue
        # The second pass saw only findings the first one uncovered.
        merged[plan.path] = FilePlan(
            plan.path, earlier.original, plan.rewritten, earlier.outcomes + plan.outcomes,
            earlier.registrations + plan.registrations)
    return sorted(merged.values(), key=lambda plan: plan.path)


def write_source_or_record(plan: FilePlan, failures: list[str]) -> None:
    try:
        write_source(plan.path, plan.rewritten)
    except FixError as error:
        failures.append(str(error))


def write_plans(plans: Sequence[FilePlan], failures: list[str]) -> list[FilePlan]:
    written = []
    for plan in plans:
        if not plan.changed:
            continue
        try:
            write_source(plan.path, plan.rewritten)
        except FixError as error:
            failures.append(str(error))
            for outcome in plan.outcomes:
                if outcome.kind is not None:
                    outcome.kind, outcome.reason = None, "the file could not be written"
            plan.rewritten = plan.original
            continue
        written.append(plan)
    return written


