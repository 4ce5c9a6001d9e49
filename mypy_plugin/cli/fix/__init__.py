"""``proxy-types fix``: rewrite the places the plugin reported, keeping the formatting.

Only findings of a real mypy run are acted on (their position and the plugin's
report of each), and every rewrite goes through libcst, so comments and layout
stay as they were.  What each finding becomes is described in ``docs/fix.md``:
``isinstance`` checks (``isinstance.py``), conversions and indexes
(``conversions.py``), parameter annotations mypy's ``arg-type`` shows must
accept dynamic numbers (``annotations.py``), the imports they need
(``imports.py``); mypy checks the result and harmful rewrites are undone
(``verify.py``).  A rewrite is made only where it is right at run time; other
sites are listed with the reason and what to do instead.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

from .model import SUMMARY_KINDS, KIND_REGISTRATION, Options
from .plan import unified_diff
from .verify import FixReport, left_unfixed, run_fix


def render_summary(report: FixReport, write: bool) -> str:
    """Files changed, rewrites per kind, and the findings left with their reason."""
    changed = [plan for plan in report.plans if plan.changed]
    counts = Counter(o.kind for plan in report.plans for o in plan.outcomes if o.kind)
    counts[KIND_REGISTRATION] = sum(len(plan.registrations) for plan in changed)
    left = left_unfixed(report, write)
    verb = "changed" if write else "would change"
    lines = [f"proxy-types fix: {len(changed)} file{'s' * (len(changed) != 1)} {verb}"]
    width = max(len(kind) for kind in SUMMARY_KINDS)
    lines += [f"  {kind:<{width}}  {counts.get(kind, 0)}" for kind in SUMMARY_KINDS]
    lines.append(f"findings left unfixed: {len(left)}")
    # Written files: where each finding is now, as a following check reports it.
    lines += [f"  {f.file}:{f.line}:{f.column}: [{f.code}] {f.reason}" for f in left]
    if report.new_errors:
        lines.append("new mypy errors after rewriting (their rewrites were undone):")
        lines += [f"  {message}" for message in report.new_errors]
    return "\n".join(lines) + "\n"


def command_fix(paths: Sequence[str], config: str | None, cache_dir: str | None,
                options: Options, diff: bool) -> int:
    """``proxy-types fix``: 0 all fixed, 1 findings left, 2 a file could not be fixed."""
    report = run_fix(paths, config, cache_dir, options, write=not diff)
    if diff:
        for plan in report.plans:
            if plan.changed:
                sys.stdout.write(unified_diff(plan))
    summary = render_summary(report, write=not diff)
    (sys.stderr if diff else sys.stdout).write(summary)
    for failure in report.failures:
        print(f"proxy-types: error: {failure}", file=sys.stderr)
    if report.failures:
        return 2
    return 1 if left_unfixed(report, write=not diff) else 0
