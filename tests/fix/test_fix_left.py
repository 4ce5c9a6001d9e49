"""``fix``'s "findings left unfixed" list is what a following ``check`` reports, mypy's own
errors included (issue #28: a truthy-bool finding on a proxy was missing)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

RunCli = Callable[..., subprocess.CompletedProcess[str]]

# Line 7: a fixable isinstance; line 11: mypy's truthy-bool on a proxy; line 17: a
# condition fix leaves (it needs a decision); line 23: mypy's own error, no proxy.
MIXED = """\
from __future__ import annotations

from proxy_types import BoolProxy, FloatProxy, IntegerProxy


def kind(x: float | FloatProxy) -> str:
    return "static" if isinstance(x, (int, float)) else "dynamic"


def scale(enabled: BoolProxy, x: IntegerProxy) -> IntegerProxy:
    if enabled:
        return x * 2
    return x


def clamp(n: IntegerProxy) -> IntegerProxy | int:
    if n >= 0:
        return n
    return 0


def broken() -> int:
    return "text"
"""

CONFIG = """\
[mypy]
plugins = mypy_plugin
enable_error_code = truthy-bool
check_untyped_defs = True
follow_imports = silent
"""

LISTED = re.compile(r"^  (?P<file>\S+\.py):(?P<line>\d+):(?P<column>\d+): \[(?P<code>[\w-]+)\] ",
                    re.MULTILINE)


def listed(summary: str) -> list[tuple[str, int, int, str]]:
    """The sites under "findings left unfixed", with the count line checked."""
    sites = [(m["file"], int(m["line"]), int(m["column"]), m["code"])
             for m in LISTED.finditer(summary)]
    assert f"findings left unfixed: {len(sites)}\n" in summary, summary
    return sites


def checked(run_cli: RunCli, project: Path) -> list[tuple[str, int, int, str]]:
    result = run_cli("check", "--format", "json", ".", cwd=project)
    return [(f["file"], f["line"], f["column"], f["code"])
            for f in json.loads(result.stdout)["findings"] if f["severity"] == "error"]


def project_with(directory: Path, text: str) -> Path:
    (directory / "mypy.ini").write_text(CONFIG, encoding="utf-8")
    (directory / "mixed.py").write_text(text, encoding="utf-8")
    return directory


def test_the_list_is_what_check_reports_after_fix(tmp_path: Path, run_cli: RunCli) -> None:
    project = project_with(tmp_path, MIXED)
    before = checked(run_cli, project)
    assert {code for *_, code in before} == {"proxy-isinstance", "truthy-bool",
                                              "proxy-concretize", "return-value"}
    fixed = run_cli("fix", ".", cwd=project)
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr
    left = listed(fixed.stdout)
    assert left == checked(run_cli, project)
    assert [code for *_, code in left] == ["truthy-bool", "proxy-concretize", "return-value"]
    assert "proxy-isinstance" not in {code for *_, code in left}  # fixed, so not listed


def test_diff_lists_the_same_findings(tmp_path: Path, run_cli: RunCli) -> None:
    project = project_with(tmp_path, MIXED)
    shown = run_cli("fix", "--diff", ".", cwd=project)
    assert shown.returncode == 1 and (project / "mixed.py").read_text() == MIXED
    # Before the rewrite (no import added yet): the lines of the file as it is.
    assert listed(shown.stderr) == [("mixed.py", 11, 8, "truthy-bool"),
                                    ("mixed.py", 17, 8, "proxy-concretize"),
                                    ("mixed.py", 23, 12, "return-value")]


def test_only_mypys_own_error_left_is_exit_1(tmp_path: Path, run_cli: RunCli) -> None:
    fixable_only = MIXED.split("def scale")[0] + "\n\ndef broken() -> int:\n    return 'text'\n"
    project = project_with(tmp_path, fixable_only)
    fixed = run_cli("fix", ".", cwd=project)
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr  # check would not pass
    assert [code for *_, code in listed(fixed.stdout)] == ["return-value"]
    assert "mypy's own error" in fixed.stdout
    (project / "mixed.py").write_text(MIXED.split("def scale")[0], encoding="utf-8")
    clean = run_cli("fix", ".", cwd=project)
    assert clean.returncode == 0 and listed(clean.stdout) == []
    assert checked(run_cli, project) == []
