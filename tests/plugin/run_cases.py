"""Run the plugin's case files under the mypy installed next to this interpreter.

CI runs it in a second venv with the oldest tested mypy (see .ci/run):

    python tests/plugin/run_cases.py --plugin-codes-only

``--update`` rewrites the markers of the case files from mypy's output (stale
ones removed, missing ones added, matching ones kept as written); review the
diff.  Exit status 0 when every group matches its markers (after ``--update``:
when every mismatch was rewritten), 1 otherwise.  Groups that
import torch are skipped (with a line saying so) when torch is not installed.
mypy older than 2.0 rejects a plugin code in ``enable_error_code`` or
``disable_error_code`` of a config file before plugins load, but takes it in
an inline ``# mypy:`` comment (docs/plugin.md): such a group runs from a copy
whose case files carry those settings inline.
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import os
import sys
import re
import shutil
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository

from tests.plugin.cases_harness import (  # noqa: E402
    CASES,
    GROUPS,
    NUMPY_GROUPS,
    TORCH_GROUPS,
    check_group,
    update_group,
)


#: ``enable_error_code = proxy-specialize`` (one setting line naming plugin codes only).
_PLUGIN_CODE_SETTING = re.compile(
    r"^(enable|disable)_error_code\s*=\s*(proxy-[a-z-]+(?:\s*,\s*proxy-[a-z-]+)*)\s*$")
_SECTION = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")


def skip_reason(group: str) -> str | None:
    """Why ``group`` cannot run here, or None."""
    if group in TORCH_GROUPS and importlib.util.find_spec("torch") is None:
        return "torch is not installed"
    if group in NUMPY_GROUPS:
        missing = [name for name in ("numpy", "torch") if importlib.util.find_spec(name) is None]
        return f"{' and '.join(missing)} not installed" if missing else None
    return None


def _plugin_code_settings(config: str) -> tuple[str, list[tuple[list[str], str]]]:
    """``config`` without its plugin-code settings, and each setting as (module patterns
    of its section, ``# mypy:`` comment); ``[mypy]`` itself applies to every module."""
    kept: list[str] = []
    settings: list[tuple[list[str], str]] = []
    patterns = ["*"]
    for line in config.splitlines(keepends=True):
        section = _SECTION.match(line)
        if section is not None:
            name = section["name"]
            patterns = (["*"] if name == "mypy" else
                        [part.strip() for part in name[len("mypy-"):].split(",")]
                        if name.startswith("mypy-") else [])
        setting = _PLUGIN_CODE_SETTING.match(line.strip())
        if setting is not None and patterns:
            codes = setting[2].replace(" ", "")
            settings.append((patterns, f'# mypy: {setting[1]}-error-code="{codes}"\n'))
            continue
        kept.append(line)
    return "".join(kept), settings


def codes_inline(group: str, cases: Path, copies: Path) -> Path:
    """The cases directory to run ``group`` from on this mypy.

    ``cases`` itself, unless this mypy is older than 2.0 and the group's config
    names plugin codes: then a copy of the group under ``copies`` whose config
    lacks those lines, and whose case files of the modules each setting applies
    to end with it as a ``# mypy:`` comment (mypy reads those anywhere in a
    file; at the end they move no line).
    """
    from mypy.version import __version__

    config = (cases / group / GROUPS[group]).read_text(encoding="utf-8")
    without, settings = _plugin_code_settings(config)
    if int(__version__.split(".")[0]) >= 2 or not settings:
        return cases
    copy = copies / group
    shutil.copytree(cases / group, copy)
    # Paths relative to the config keep pointing at the original directory.
    original = str((cases / group).resolve()) + "/"
    (copy / GROUPS[group]).write_text(without.replace("$MYPY_CONFIG_FILE_DIR/", original),
                                      encoding="utf-8")
    for case in sorted(copy.rglob("*.py")):
        module = ".".join(case.relative_to(copy).with_suffix("").parts)
        inline = "".join(comment for patterns, comment in settings
                         if any(fnmatch.fnmatchcase(module, pattern) for pattern in patterns))
        if inline:
            text = case.read_text(encoding="utf-8")
            case.write_text(text + ("" if text.endswith("\n") else "\n") + inline,
                            encoding="utf-8")
    return copies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", help=f"default: all ({', '.join(GROUPS)})")
    parser.add_argument("--plugin-codes-only", action="store_true",
                        help="compare only proxy-* codes (mypy's own wording varies)")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the case files' markers from mypy's output")
    parser.add_argument("--cases", type=Path, default=CASES, help="the case groups' directory")
    options = parser.parse_args(argv)
    os.environ["PROXY_TYPES_DEBUG"] = "1"  # a failing check must fail the run
    from mypy.version import __version__

    failed = False
    with tempfile.TemporaryDirectory(prefix="proxy-types-cases-") as scratch:
        cache, copies = Path(scratch) / "cache", Path(scratch) / "cases"
        for group in options.groups or list(GROUPS):
            reason = skip_reason(group)
            if reason is not None:
                print(f"{group}: skipped ({reason})")
                continue
            cases = codes_inline(group, options.cases, copies)
            result = check_group(group, cache, cases=cases,
                                 plugin_codes_only=options.plugin_codes_only)
            problems = result.problems
            if options.update:
                changed, problems = update_group(group, result, cases=options.cases,
                                                 plugin_codes_only=options.plugin_codes_only)
                for line in changed:
                    print(f"{group}: {line}")
            print(f"{group}: {'ok' if not problems else f'{len(problems)} mismatches'} "
                  f"(mypy {__version__})")
            for problem in problems:
                print(f"  {problem}")
            failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
