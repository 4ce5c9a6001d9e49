"""``proxy-types fix`` on a copy of a real legacy codebase: lightning-thunder 0.1.0.

Its proxies still inherit from int/float (``class FloatProxy(NumberProxy, float)``).
The fixed copy must parse, and mypy must report no error it did not report
before: only the fixed findings disappear.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

RunCli = Callable[..., subprocess.CompletedProcess[str]]

from mypy_plugin.config import ProxyTypesConfig

PACKAGE = "lightning-thunder==0.1.0"
SUBSET = ["thunder/core", "thunder/clang"]  # the whole package takes minutes per mypy run


def download_thunder(directory: Path) -> Path:
    """Unpack the wheel from PyPI into ``directory``; skip if it cannot be downloaded."""
    wheels = directory / "wheels"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
         PACKAGE, "-d", str(wheels)],
        capture_output=True, text=True, timeout=300,
    )
    found = sorted(wheels.glob("lightning_thunder-0.1.0-*.whl"))
    if result.returncode != 0 or not found:
        reason = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
        pytest.skip(f"cannot download {PACKAGE} from PyPI: {reason}")
    project = directory / "project"
    with zipfile.ZipFile(found[0]) as wheel:
        wheel.extractall(project, [n for n in wheel.namelist() if n.startswith("thunder/")])
    return project


def migration_config() -> str:
    if "migrate_classes" in ProxyTypesConfig.KEYS:
        plugin = (
            "migrate_classes = thunder.core.proxies.NumberProxy\n"
            "isinstance_functions = thunder.core.baseutils.check_type\n"
            "strict_isinstance = true\n"
        )
    else:  # migration mode not available: the classes are at least dynamic
        plugin = "dynamic_number_classes = thunder.core.proxies.NumberProxy\n"
    return (
        "[mypy]\nplugins = mypy_plugin\nfollow_imports = silent\nignore_missing_imports = True\n"
        "check_untyped_defs = True\n\n[mypy.plugins.proxy_types]\n" + plugin
    )


def error_keys(check_json: str) -> Counter[tuple[str, str, str]]:
    report = json.loads(check_json)
    return Counter(
        (f["file"], f["code"] or "", re.sub(r"\bline \d+", "line N", f["message"]))
        for f in report["findings"] if f["severity"] == "error"
    )


def cold_check(env: dict[str, str], project: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy_plugin", "check", "--cache-dir", str(cache),
         "--format", "json", *SUBSET],
        cwd=project, env=env, capture_output=True, text=True, timeout=900,
    )


@pytest.mark.network
@pytest.mark.slow
def test_fixing_thunder_adds_no_mypy_error(
    tmp_path: Path, run_cli: RunCli, cli_env: dict[str, str]
) -> None:
    project = download_thunder(tmp_path)
    (project / "mypy.ini").write_text(migration_config(), encoding="utf-8")
    sources = {p: p.read_text(encoding="utf-8") for d in SUBSET for p in (project / d).rglob("*.py")}

    # Cold caches for the comparison: mypy's incremental mode may word an error in
    # an untouched module differently when its dependencies come from the cache.
    before = cold_check(cli_env, project, tmp_path / "cache-before")
    assert before.returncode == 1, before.stderr
    fixed = run_cli("fix", *SUBSET, cwd=project)
    assert fixed.returncode == 1, fixed.stderr  # some findings need a human
    assert "Traceback" not in fixed.stderr and "internal error" not in fixed.stderr
    after = cold_check(cli_env, project, tmp_path / "cache-after")

    changed = [p for p, text in sources.items() if p.read_text(encoding="utf-8") != text]
    assert changed, fixed.stdout
    for path in changed:
        ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    old, new = error_keys(before.stdout), error_keys(after.stdout)
    assert set(new) - set(old) == set(), fixed.stdout
    gone = old - new
    assert gone and all(code.startswith("proxy-") for _, code, _ in gone)
    rewrites = sum(int(n) for n in re.findall(r"^  isinstance -> .*?(\d+)$", fixed.stdout, re.M))
    assert rewrites > 0 and sum(gone.values()) >= rewrites - 2, fixed.stdout  # a site may repeat
