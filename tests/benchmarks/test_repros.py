"""The reproduction harness (benchmarks/corpora/repros) and its agreement with the
ground truth: every real site names a case that exists, at the same line, and the
code text recorded for it is the text of that line in the release."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
REPROS = ROOT / "benchmarks" / "corpora" / "repros"
sys.path.insert(0, str(ROOT))

from benchmarks.corpora.score import RUNTIME, Entry, load_ground_truth  # noqa: E402

TRUTH = load_ground_truth(ROOT / "benchmarks" / "corpora" / "ground_truth.toml")
torch = pytest.importorskip("torch")


def load(name: str) -> Any:
    """A module of repros/ by file (the scripts import ``_repro`` as a sibling)."""
    if str(REPROS) not in sys.path:
        sys.path.insert(0, str(REPROS))
    spec = importlib.util.spec_from_file_location(f"repros_{name}", REPROS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_every_real_site_names_a_case_at_the_same_site() -> None:
    confirmed_at_run_time = [entry for entry in TRUTH.real
                             if TRUTH.bases.get(entry.corpus, RUNTIME) == RUNTIME]
    assert confirmed_at_run_time
    for entry in confirmed_at_run_time:  # a human fix's sites are its changed lines instead
        script, _, case_name = entry.label.partition("::")
        cases = {case.name: case for case in load(script).CASES}
        assert case_name in cases, f"{entry.label} is not a case of {script}.py"
        assert cases[case_name].site == f"{entry.file}:{entry.line}", entry.label


def test_every_case_is_a_real_site() -> None:
    labels = {entry.label for entry in TRUTH.real}
    for path in sorted(REPROS.glob("t*_*.py")):
        for case in load(path.stem).CASES:
            assert f"{path.stem}::{case.name}" in labels, f"{path.stem}::{case.name}"


def source_line(text: str, line: int) -> str:
    return text.splitlines()[line - 1].strip()


def check_code(entries: list[Entry], read: Any) -> None:
    assert entries
    for entry in entries:
        assert source_line(read(entry.file), entry.line) == entry.code, f"{entry.file}:{entry.line}"


@pytest.mark.skipif(torch.__version__.split("+")[0] != "2.13.0", reason="the corpus is torch 2.13.0")
def test_torch_entries_quote_their_line_of_torch_2_13() -> None:
    site_packages = Path(torch.__file__).parent.parent
    entries = [e for e in TRUTH.real + TRUTH.not_bug if e.corpus == "torch"]
    check_code(entries, lambda file: (site_packages / file).read_text(encoding="utf-8"))


@pytest.mark.network
def test_thunder_entries_quote_their_line_of_thunder_0_2_6(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
         "lightning-thunder==0.2.6", "-d", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    wheels = sorted(tmp_path.glob("lightning_thunder-0.2.6-*.whl"))
    assert result.returncode == 0 and wheels, result.stderr
    with zipfile.ZipFile(wheels[0]) as wheel:
        entries = [e for e in TRUTH.real + TRUTH.not_bug if e.corpus == "thunder"]
        check_code(entries, lambda file: wheel.read(file).decode("utf-8"))


# -- the two torch checks, on real SymInts -------------------------------------


def layer_norm(x: Any) -> Any:
    return torch.nn.LayerNorm(x.shape[-1])(x)


def relu(x: Any) -> Any:
    return torch.relu(x)


def test_expect_crash_pins_the_crash_to_its_line() -> None:
    repro = load("_repro")
    site = "torch/nn/modules/normalization.py:202"
    outcome = repro.expect_crash(layer_norm, (torch.randn(4, 6),), site)
    assert outcome.kind == "crash" and "not iterable" in outcome.detail
    with pytest.raises(repro.NotReproduced, match="crashed elsewhere"):
        repro.expect_crash(layer_norm, (torch.randn(4, 6),), "torch/nn/modules/normalization.py:199")
    with pytest.raises(repro.NotReproduced, match="traced without error"):
        repro.expect_crash(relu, (torch.randn(4, 6),), site)


def test_expect_specialization_wants_a_pinning_guard_at_the_line() -> None:
    repro = load("_repro")
    import torch._refs as refs

    def bucketize(x: Any, boundaries: Any) -> Any:
        return refs.bucketize(x, boundaries)  # math.log2(len(boundaries)) pins it

    site = "torch/_refs/__init__.py:6378"
    args = (torch.randn(4, 6), torch.arange(8.0))
    outcome = repro.expect_specialization(bucketize, args, site)
    assert outcome.kind == "specializes" and "Eq(" in outcome.detail
    with pytest.raises(repro.NotReproduced, match="no guard pinning"):
        repro.expect_specialization(bucketize, args, "torch/_refs/__init__.py:6379")
    with pytest.raises(repro.NotReproduced, match="no guard pinning"):
        repro.expect_specialization(relu, (torch.randn(4, 6),), site)


# -- run_all.py ----------------------------------------------------------------


def test_run_all_reads_each_case_line_and_reports_a_script_that_died(tmp_path: Path) -> None:
    run_all = load("run_all")
    script = tmp_path / "torch_fake.py"
    script.write_text(
        "import sys\n"
        "print('REPRODUCED (crash) torch_fake::a torch/x.py:3: TypeError: boom')\n"
        "print('some other output')\n"
        "print('NOT REPRODUCED torch_fake::b torch/x.py:9: traced without error')\n"
        "sys.exit(1)\n", encoding="utf-8")
    rows, _ = run_all.run_script(script, sys.executable)
    assert [(r.case, r.site, r.status, r.outcome) for r in rows] == [
        ("torch_fake::a", "torch/x.py:3", "reproduced", "crash"),
        ("torch_fake::b", "torch/x.py:9", "NOT reproduced", "-"),
    ]
    script.write_text("raise ImportError('no torch here')\n", encoding="utf-8")
    rows, _ = run_all.run_script(script, sys.executable)
    assert [(r.status, r.detail) for r in rows] == [
        ("script failed", "exit code 1: ImportError: no torch here")]


def test_run_all_skips_thunder_scripts_without_a_thunder_environment(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(REPROS / "run_all.py"), "--only", "thunder_range",
         "--thunder-python", str(tmp_path / "no-python")],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "| thunder_range | - | skipped | - | no thunder environment at" in result.stdout


THUNDER_PYTHON = Path(os.environ.get("THUNDER_PYTHON", "/work/venv-thunder/bin/python"))


@pytest.mark.network
@pytest.mark.skipif(not THUNDER_PYTHON.is_file(), reason="no lightning-thunder environment")
def test_thunder_range_cases_reproduce() -> None:
    result = subprocess.run([str(THUNDER_PYTHON), str(REPROS / "thunder_range.py")],
                            capture_output=True, text=True, timeout=600, cwd=REPROS)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("REPRODUCED (crash) thunder_range::") == 3
