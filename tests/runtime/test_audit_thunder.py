"""The runtime audit on real lightning-thunder 0.2.6 (``thunder.jit``, symbolic values).

Runs in the thunder environment .ci/run builds (``THUNDER_PYTHON``; see
benchmarks/corpora/repros/thunder_env.sh): thunder's ``add`` branches on its
traced ``alpha`` (``alpha != 1``, a confirmed bug of benchmarks/corpora/ground_truth.toml),
and the audit must record that truth test inside thunder's own code.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
THUNDER_PYTHON = Path(os.environ.get("THUNDER_PYTHON", REPO / ".thunder" / "python"))

SCRIPT = f"""\
import sys
sys.path.insert(0, {str(REPO / "benchmarks" / "corpora" / "repros")!r})
from _repro import import_thunder
thunder = import_thunder()
import torch


def add(x, alpha):
    return torch.add(x, x * 2, alpha=alpha)


jitted = thunder.jit(add, cache="symbolic values")
x = torch.randn(4, requires_grad=True)
jitted(x, 1.0).sum().backward()
jitted(x, 2.0)
"""


@pytest.mark.network
@pytest.mark.skipif(not THUNDER_PYTHON.is_file(), reason=f"no thunder environment at "
                    f"{THUNDER_PYTHON} (benchmarks/corpora/repros/thunder_env.sh)")
def test_thunder_branching_on_a_traced_alpha_is_recorded(tmp_path: Path) -> None:
    (tmp_path / "run.py").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.proxy_types]\naudit_classes = ["thunder.core.proxies.NumberProxy"]\n',
        encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(
        [str(THUNDER_PYTHON), "-m", "proxy_types.audit", "--config", "pyproject.toml",
         "--all-files", "--output", "audit.json", "run.py"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    findings = json.loads((tmp_path / "audit.json").read_text())["findings"]
    torch_module = next(f["file"] for f in findings if f["file"].endswith("thunder/torch/__init__.py"))
    lines = Path(torch_module).read_text(encoding="utf-8").splitlines()
    alpha_test = [f for f in findings if f["file"] == torch_module
                  and "alpha != 1" in lines[f["line"] - 1] and f["operation"] == "__bool__"]
    assert [(f["code"], f["outcome"]) for f in alpha_test] == [("proxy-concretize", "returned False")]
    # thunder's own proxy-aware checks, isinstance(x, (float, FloatProxy)), are not merges.
    proxies = [f for f in findings if f["file"].endswith("thunder/core/proxies.py")]
    assert all("FloatProxy" not in " ".join(f["classes"]) and "ComplexProxy" not in
               " ".join(f["classes"]) for f in proxies)
