"""The x-transformers sites of docs/real-world.md: each quotes its line of the release
(network: the wheel comes from PyPI), and each reduced case still gives, under each
tracer, the result the verdict rests on (slow: three tracers per case)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
torch = pytest.importorskip("torch")

from benchmarks.corpora import x_transformers_sites as sites  # noqa: E402
from benchmarks.corpora.tracing import seeded_op_counts, three_ways  # noqa: E402


@pytest.mark.network
def test_every_site_quotes_its_line_of_the_release(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
         f"x-transformers=={sites.VERSION}", "-d", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    wheels = sorted(tmp_path.glob(f"x_transformers-{sites.VERSION}-*.whl"))
    assert result.returncode == 0 and wheels, result.stderr
    with zipfile.ZipFile(wheels[0]) as wheel:
        for site in sites.SITES + sites.FORMER_REPORTS:
            lines = wheel.read(site.file).decode("utf-8").splitlines()
            assert lines[site.line - 1].strip() == site.code, f"{site.file}:{site.line}"


def test_sites_are_judged_and_counted() -> None:
    assert sites.SITES and sites.FORMER_REPORTS
    for site in sites.SITES:
        assert site.reason and site.cases, f"{site.file}:{site.line}"
        # a report that is not a runtime failure is a false report, and the reverse a miss
        assert site.reported or site.runtime_failure, f"{site.file}:{site.line}"
    for site in sites.FORMER_REPORTS:
        assert site.reason and site.cases and not site.reported and not site.runtime_failure


@pytest.mark.slow
@pytest.mark.skipif(torch.__version__.split("+")[0] != "2.13.0", reason="measured on torch 2.13.0")
def test_every_reduced_case_gives_its_recorded_result() -> None:
    cases = {id(case): case for site in sites.SITES + sites.FORMER_REPORTS for case in site.cases}
    assert cases
    for case in cases.values():
        results = three_ways(case.module, case.inputs(), case.dynamic(), case.second())
        for tracer, expected in case.expected.items():
            assert expected in results[tracer], (case.module, tracer, results[tracer])


@pytest.mark.slow
@pytest.mark.skipif(torch.__version__.split("+")[0] != "2.13.0", reason="measured on torch 2.13.0")
@pytest.mark.parametrize("tracer", ["make_fx", "export"])
def test_random_draws_are_baked_into_the_trace(tracer: str) -> None:
    # one graph per random seed side for the library's pattern, one graph for its control
    cases = {id(case): case for site in sites.SITES for case in site.cases if case.baked is not None}
    assert {case.baked for case in cases.values()} == {True, False}
    for case in cases.values():
        counts = seeded_op_counts(case.module, case.inputs, tracer)
        assert (len(counts) > 1) == case.baked, (case.module, counts)
