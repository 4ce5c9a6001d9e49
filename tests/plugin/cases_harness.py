"""The case files' harness: ``# E: [code] text`` markers against real mypy output.

Each marker in a case file expects exactly one error with that code on its
line whose message contains ``text``; every other error is a mismatch.  No
pytest here: ``run_cases.py`` uses it in a bare venv (the oldest mypy).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

CASES = Path(__file__).parent / "cases"

#: group -> its config file name
GROUPS = {
    "default": "mypy.ini",
    "strict": "mypy.ini",
    "configured": "mypy.ini",
    "pyproject": "pyproject.toml",
    "migrate": "mypy.ini",
    "migrate_relaxed": "mypy.ini",
    "trials": "mypy.ini",
    "specialize": "mypy.ini",
    "guarded": "mypy.ini",
    "traced": "mypy.ini",
    "calls": "mypy.ini",
}
#: Groups that import torch.
TORCH_GROUPS = frozenset({"default", "specialize", "traced", "calls"})

_MARKER = re.compile(r"#\s*E:\s*\[([a-z-]+)\]\s*([^#]*)")
_ERROR_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+): error: (?P<message>.*)  \[(?P<code>[a-z-]+)\]$")


@dataclass(frozen=True)
class Expected:
    path: str
    line: int
    code: str
    fragment: str


@dataclass(frozen=True)
class Actual:
    path: str
    line: int
    code: str
    message: str


def case_files(group: str, cases: Path = CASES) -> list[Path]:
    return sorted((cases / group).glob("*.py"))


def expected_errors(files: list[Path]) -> list[Expected]:
    """Markers of ``files``: each ``# E: [code] text`` expects one error on its line."""
    found: list[Expected] = []
    for file in files:
        for number, text in enumerate(file.read_text().splitlines(), start=1):
            for code, fragment in _MARKER.findall(text):
                found.append(Expected(file.name, number, code, fragment.strip()))
    return found


def actual_errors(mypy_stdout: str) -> list[Actual]:
    """Errors in mypy's output (notes and the summary line are dropped)."""
    found: list[Actual] = []
    for line in mypy_stdout.splitlines():
        match = _ERROR_LINE.match(line)
        if match:
            found.append(Actual(Path(match["path"]).name, int(match["line"]),
                                match["code"], match["message"]))
        elif ": error:" in line:
            raise AssertionError(f"unparsed mypy error line: {line}")
    return found


def mismatches(expected: list[Expected], actual: list[Actual]) -> list[str]:
    """Human-readable differences; empty when every marker matches exactly one error."""
    problems: list[str] = []
    unmatched = list(actual)
    for want in expected:
        hit = next((got for got in unmatched if got.path == want.path and got.line == want.line
                    and got.code == want.code and want.fragment in got.message), None)
        if hit is None:
            problems.append(f"missing  {want.path}:{want.line}: [{want.code}] {want.fragment}")
        else:
            unmatched.remove(hit)
    problems += [f"unexpected {got.path}:{got.line}: [{got.code}] {got.message}"
                 for got in unmatched]
    return problems


def run_group(group: str, cache_dir: Path, *extra: str,
              cases: Path = CASES) -> tuple[str, str, int]:
    """mypy in this process on every case file of ``group``."""
    from mypy import api

    config = cases / group / GROUPS[group]
    files = [path.name for path in case_files(group, cases)]
    cwd = os.getcwd()
    os.chdir(cases / group)  # modules of the group import each other
    try:
        result: tuple[str, str, int] = api.run(
            ["--config-file", str(config), "--cache-dir", str(cache_dir),
             "--no-error-summary", "--show-traceback", *extra, *files])
        return result
    finally:
        os.chdir(cwd)


def group_problems(group: str, cache_dir: Path, *, plugin_codes_only: bool = False,
                   cases: Path = CASES) -> list[str]:
    """The mismatches of one group's case files under the mypy of this interpreter.

    ``plugin_codes_only``: compare only the plugin's codes (mypy's own messages
    change between releases; the plugin's must not).
    """
    stdout, stderr, _ = run_group(group, cache_dir, cases=cases)
    if "Traceback" in stdout + stderr:
        return [f"mypy crashed:\n{stdout}{stderr}"]
    expected = expected_errors(case_files(group, cases))
    actual = actual_errors(stdout)
    if plugin_codes_only:
        expected = [e for e in expected if e.code.startswith("proxy-")]
        actual = [a for a in actual if a.code.startswith("proxy-")]
    return mismatches(expected, actual)
