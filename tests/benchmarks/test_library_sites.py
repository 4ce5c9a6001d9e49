"""The sites of the libraries not tuned on (docs/real-world.md: x-transformers,
vit-pytorch, denoising-diffusion-pytorch): each quotes its line of the release
(network: the wheel comes from PyPI), and each reduced case still gives, under each
tracer, the result the verdict rests on (slow: three tracers per case)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
torch = pytest.importorskip("torch")

from benchmarks.corpora import (  # noqa: E402
    denoising_diffusion_pytorch_sites,
    vit_pytorch_sites,
    x_transformers_sites,
)
from benchmarks.corpora.tracing import seeded_op_counts, three_ways  # noqa: E402

LIBRARIES = [x_transformers_sites, vit_pytorch_sites, denoising_diffusion_pytorch_sites]
ON_TORCH_2_13 = pytest.mark.skipif(torch.__version__.split("+")[0] != "2.13.0",
                                   reason="measured on torch 2.13.0")


def library_id(sites: ModuleType) -> str:
    return sites.__name__.rpartition(".")[2].removesuffix("_sites")


@pytest.mark.network
@pytest.mark.parametrize("sites", LIBRARIES, ids=library_id)
def test_every_site_quotes_its_line_of_the_release(sites: ModuleType, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
         f"{sites.DISTRIBUTION}=={sites.VERSION}", "-d", str(tmp_path)],
        capture_output=True, text=True, timeout=600)
    wheel_name = sites.DISTRIBUTION.replace("-", "_")
    wheels = sorted(tmp_path.glob(f"{wheel_name}-{sites.VERSION}-*.whl"))
    assert result.returncode == 0 and wheels, result.stderr
    with zipfile.ZipFile(wheels[0]) as wheel:
        for site in sites.SITES + sites.UNCOUNTED:
            lines = wheel.read(site.file).decode("utf-8").splitlines()
            assert lines[site.line - 1].strip() == site.code, f"{site.file}:{site.line}"


@pytest.mark.parametrize("sites", LIBRARIES, ids=library_id)
def test_sites_are_judged_and_counted(sites: ModuleType) -> None:
    assert sites.SITES
    for site in sites.SITES:
        assert site.reason and site.cases, f"{site.file}:{site.line}"
        # a report that is not a runtime failure is a false report, and the reverse a miss
        assert site.reported or site.runtime_failure, f"{site.file}:{site.line}"
    for site in sites.UNCOUNTED:
        # an eager-only specialization or a former report: neither reported nor a failure
        assert site.reason and site.cases and not site.reported and not site.runtime_failure


@pytest.mark.slow
@ON_TORCH_2_13
@pytest.mark.parametrize("sites", LIBRARIES, ids=library_id)
def test_every_reduced_case_gives_its_recorded_result(sites: ModuleType) -> None:
    cases = {id(case): case for site in sites.SITES + sites.UNCOUNTED for case in site.cases}
    assert cases
    for case in cases.values():
        results = three_ways(case.module, case.inputs(), case.dynamic(), case.second())
        for tracer, expected in case.expected.items():
            assert expected in results[tracer], (case.module, tracer, results[tracer])


@pytest.mark.slow
@ON_TORCH_2_13
@pytest.mark.parametrize("tracer", ["make_fx", "export"])
@pytest.mark.parametrize("sites", LIBRARIES, ids=library_id)
def test_random_draws_are_baked_into_the_trace(sites: ModuleType, tracer: str) -> None:
    # one graph per random seed side for the library's pattern, one graph for its control
    cases = {id(case): case for site in sites.SITES for case in site.cases if case.baked is not None}
    assert {case.baked for case in cases.values()} == {True, False}
    for case in cases.values():
        counts = seeded_op_counts(case.module, case.inputs, tracer)
        assert (len(counts) > 1) == case.baked, (case.module, counts)
