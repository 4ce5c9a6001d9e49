"""The BS-RoFormer sites of docs/real-world.md: each quotes its line of
the release (network: the wheel comes from PyPI), and each reduced case still gives,
under each tracer, the result the verdict rests on (slow: three tracers per case)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
torch = pytest.importorskip("torch")

from benchmarks.corpora import bs_roformer_sites as sites  # noqa: E402
from benchmarks.corpora.tracing import three_ways  # noqa: E402


@pytest.mark.network
def test_every_site_quotes_its_line_of_the_release(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
         f"BS-RoFormer=={sites.VERSION}", "-d", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    wheels = sorted(tmp_path.glob(f"bs_roformer-{sites.VERSION}-*.whl"))
    assert result.returncode == 0 and wheels, result.stderr
    with zipfile.ZipFile(wheels[0]) as wheel:
        for site in sites.SITES + sites.EXPORT_LIMITS + sites.EAGER_CHECKS:
            lines = wheel.read(site.file).decode("utf-8").splitlines()
            assert lines[site.line - 1].strip() == site.code, f"{site.file}:{site.line}"


@pytest.mark.network
@pytest.mark.parametrize("package", sorted(sites.DEPENDENCIES))
def test_dependency_sites_quote_their_line(tmp_path: Path, package: str) -> None:
    version = sites.DEPENDENCIES[package]
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
         f"{package}=={version}", "-d", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    module = package.replace("-", "_")
    wheels = sorted(tmp_path.glob(f"{module}-{version}-*.whl"))
    assert result.returncode == 0 and wheels, result.stderr
    mine = [site for site in sites.DEPENDENCY_SITES if site.file.startswith(module + "/")]
    assert mine
    with zipfile.ZipFile(wheels[0]) as wheel:
        for site in mine:
            lines = wheel.read(site.file).decode("utf-8").splitlines()
            assert lines[site.line - 1].strip() == site.code, f"{site.file}:{site.line}"


def test_sites_are_judged_and_counted() -> None:
    assert sites.SITES and sites.EAGER_CHECKS
    for site in sites.SITES + sites.DEPENDENCY_SITES:
        assert site.reason and site.cases, f"{site.file}:{site.line}"
        # no setting reports a line of the library: every site is a missed failure
        assert site.runtime_failure and not site.reported, f"{site.file}:{site.line}"
    for site in sites.EXPORT_LIMITS + sites.EAGER_CHECKS:
        # eager code imposes these too, or export cannot prove what holds: no failure
        assert site.reason and site.cases and not site.reported and not site.runtime_failure


@pytest.mark.slow
@pytest.mark.skipif(torch.__version__.split("+")[0] != "2.13.0", reason="measured on torch 2.13.0")
def test_every_reduced_case_gives_its_recorded_result() -> None:
    every_site = sites.SITES + sites.DEPENDENCY_SITES + sites.EXPORT_LIMITS + sites.EAGER_CHECKS
    cases = {id(case): case for site in every_site for case in site.cases}
    assert cases
    for case in cases.values():
        results = three_ways(case.module, case.inputs(), case.dynamic(), case.second())
        for tracer, expected in case.expected.items():
            assert expected in results[tracer], (case.module, tracer, results[tracer])
