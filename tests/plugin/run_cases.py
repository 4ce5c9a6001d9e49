"""Run the plugin's case files under the mypy installed next to this interpreter.

CI runs it in a second venv with the oldest tested mypy (see .ci/run):

    python tests/plugin/run_cases.py --plugin-codes-only

Exit status 0 when every group matches its markers, 1 otherwise.  Groups that
import torch are skipped (with a line saying so) when torch is not installed;
on mypy older than 2.0, groups whose config names a plugin code in
``disable_error_code`` are skipped, as mypy then rejects the config before
plugins load (docs/plugin.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository

from tests.plugin.cases_harness import CASES, GROUPS, TORCH_GROUPS, group_problems  # noqa: E402


def skip_reason(group: str, cases: Path) -> str | None:
    """Why ``group`` cannot run here, or None."""
    from mypy.version import __version__

    if group in TORCH_GROUPS and importlib.util.find_spec("torch") is None:
        return "torch is not installed"
    config = (cases / group / GROUPS[group]).read_text(encoding="utf-8")
    if int(__version__.split(".")[0]) < 2 and "error_code = proxy-" in config:
        return f"mypy {__version__} checks a plugin code in disable_error_code before loading plugins"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", help=f"default: all ({', '.join(GROUPS)})")
    parser.add_argument("--plugin-codes-only", action="store_true",
                        help="compare only proxy-* codes (mypy's own wording varies)")
    parser.add_argument("--cases", type=Path, default=CASES, help="the case groups' directory")
    options = parser.parse_args(argv)
    os.environ["PROXY_TYPES_DEBUG"] = "1"  # a failing check must fail the run
    from mypy.version import __version__

    failed = False
    with tempfile.TemporaryDirectory(prefix="proxy-types-cases-") as cache:
        for group in options.groups or list(GROUPS):
            reason = skip_reason(group, options.cases)
            if reason is not None:
                print(f"{group}: skipped ({reason})")
                continue
            problems = group_problems(group, Path(cache), cases=options.cases,
                                      plugin_codes_only=options.plugin_codes_only)
            print(f"{group}: {'ok' if not problems else f'{len(problems)} mismatches'} "
                  f"(mypy {__version__})")
            for problem in problems:
                print(f"  {problem}")
            failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
