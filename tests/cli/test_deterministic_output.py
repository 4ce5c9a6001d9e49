"""The same input gives byte-identical JSON and SARIF under any hash seed (issue #30).

A flow reaching a sink along several paths (an ``if``, a loop, a ``try``) is
shown with one reason: the first definition in source order, not the first of a
set whose order follows string hashes and addresses.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = '''\
def pick(n: int, m: int, k: int, flag: bool, d: dict[int, int]) -> None:
    if flag:
        x = n
    elif k > 0:
        x = m
    else:
        x = k
    d[x] = 1
    y = n
    for i in range(3):
        if i:
            y = m
        else:
            y = k
    d[y] = 2
    z = 0
    try:
        z = m
    except ValueError:
        z = n
    d[z] = 3
'''
CONFIG = "[mypy]\n\n[mypy.plugins.proxy_types]\ntraced_functions = *.pick\n"
#: Modules that import nothing of each other: mypy checks them in an order of its own.
MODULES = ("picked", "alpha", "omega", "middle")
SEEDS = ("1", "2", "3")


def check(project: Path, cli_env: dict[str, str], warm_cache: Path, output_format: str,
          seed: str) -> str:
    cache = project / f"cache-{output_format}-{seed}"
    shutil.copytree(warm_cache, cache)
    result = subprocess.run(
        [sys.executable, "-m", "mypy_plugin", "check", "--cache-dir", str(cache), "--format",
         output_format, "."],
        cwd=project, env=dict(cli_env, PYTHONHASHSEED=seed), capture_output=True, text=True,
        timeout=300)
    assert result.returncode == 1, result.stderr
    return result.stdout


@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_output_is_the_same_under_every_hash_seed(
    tmp_path: Path, cli_env: dict[str, str], warm_cache: Path, output_format: str
) -> None:
    (tmp_path / "mypy.ini").write_text(CONFIG, encoding="utf-8")
    for module in MODULES:
        (tmp_path / f"{module}.py").write_text(SOURCE, encoding="utf-8")
    outputs = {seed: check(tmp_path, cli_env, warm_cache, output_format, seed)
               for seed in SEEDS}
    assert len(set(outputs.values())) == 1, outputs
    if output_format == "json":
        # Three keys, each reached from several parameters: the first in source order
        # (x = n; y = n before the loop; z = m in the try body) is named.
        found = json.loads(outputs[SEEDS[0]])["findings"]
        assert [finding["file"] for finding in found] == [
            f"{module}.py" for module in sorted(MODULES) for _ in range(3)]
        assert [finding["reason"]["detail"] for finding in found] == [
            f'parameter "{name}" of traced function "pick" (line 1)'
            for _ in MODULES for name in ("n", "n", "m")]
