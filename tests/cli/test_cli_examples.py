"""The examples: each bad file reports exactly its ``# expect:`` lines, good files none."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
RunCli = Callable[..., subprocess.CompletedProcess[str]]  # the run_cli fixture


EXAMPLES = REPO / "examples"
EXPECT = re.compile(r"#\s*expect:\s*([\w\-, ]+)")

pytest.importorskip("torch")  # the LayerNorm example type-checks against torch


def expected_findings(path: Path) -> Counter[tuple[int, str]]:
    """(line, code) pairs from the ``# expect: code[, code]`` markers of a file."""
    expected: Counter[tuple[int, str]] = Counter()
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        match = EXPECT.search(text)
        if match:
            for code in re.split(r"[,\s]+", match.group(1).strip()):
                expected[(number, code)] += 1
    return expected


def example_files(prefix: str) -> list[Path]:
    return sorted(EXAMPLES.glob(f"{prefix}_*.py"))


@pytest.fixture(scope="module")
def report(run_cli: RunCli, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One run over the whole examples directory, shared by every test here."""
    cache = tmp_path_factory.mktemp("examples-cache")
    result = run_cli("check", "--cache-dir", str(cache), "--format", "json", ".",
                     cwd=EXAMPLES, cache=False)
    assert result.stderr.strip() == "", result.stderr
    document: dict[str, Any] = json.loads(result.stdout)
    document["process_status"] = result.returncode
    return document


def actual_findings(report: dict[str, Any], path: Path) -> Counter[tuple[int, str]]:
    name = path.relative_to(EXAMPLES).as_posix()
    return Counter(
        (finding["line"], finding["code"])
        for finding in report["findings"]
        if finding["file"] == name and finding["severity"] == "error"
    )


def test_examples_exist_in_pairs() -> None:
    bad = {path.name.removeprefix("bad_") for path in example_files("bad")}
    good = {path.name.removeprefix("good_") for path in example_files("good")}
    assert len(bad) >= 5
    assert bad == good


@pytest.mark.parametrize("path", example_files("bad"), ids=lambda path: path.stem)
def test_bad_example_reports_exactly_its_markers(report: dict[str, Any], path: Path) -> None:
    expected = expected_findings(path)
    assert expected, f"{path.name} marks no expected finding"
    assert actual_findings(report, path) == expected


@pytest.mark.parametrize("path", example_files("good"), ids=lambda path: path.stem)
def test_good_example_is_clean(report: dict[str, Any], path: Path) -> None:
    assert expected_findings(path) == Counter()
    assert actual_findings(report, path) == Counter()


def test_every_finding_belongs_to_an_example(report: dict[str, Any]) -> None:
    names = {path.name for path in EXAMPLES.glob("*.py")}
    assert {finding["file"] for finding in report["findings"]} <= names
    assert report["process_status"] == report["exit_status"] == 1


def test_examples_cover_each_bug_pattern(report: dict[str, Any]) -> None:
    markers = Counter[str]()
    for path in example_files("bad"):
        markers.update(code for _, code in expected_findings(path).elements())
    for code in ("proxy-isinstance", "proxy-concretize", "proxy-base", "truthy-bool"):
        assert markers[code] >= 1, code
        if code in report["summary"]:
            assert report["summary"][code] == markers[code]
    # truthy-bool and mypy's own errors next to the plugin's (arg-type of float(p)...).
    others = sum(count for code, count in markers.items() if not code.startswith("proxy-"))
    assert report["summary"]["other mypy errors"] == others


def runnable(prefix: str) -> list[Path]:
    return [p for p in example_files(prefix) if '__name__ == "__main__"' in p.read_text("utf-8")]


@pytest.mark.parametrize("path", runnable("good"), ids=lambda path: path.stem)
def test_good_example_runs(path: Path, cli_env: dict[str, str]) -> None:
    result = subprocess.run([sys.executable, str(path)], cwd=EXAMPLES, env=cli_env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    assert "refused" not in result.stdout and "failed" not in result.stdout


@pytest.mark.parametrize("path", runnable("bad"), ids=lambda path: path.stem)
def test_bad_example_runs_and_shows_its_bug(path: Path, cli_env: dict[str, str]) -> None:
    result = subprocess.run([sys.executable, str(path)], cwd=EXAMPLES, env=cli_env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    symptoms = ("refused:", "failed:", "<runtime input>")
    assert any(symptom in result.stdout for symptom in symptoms), result.stdout


def test_the_readme_command_is_the_one_tested() -> None:
    """examples/README.md's command is the ``check .`` from examples/ that ``report``
    runs (with PYTHONPATH at the checkout, as run_cli's environment has it)."""
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n(.*?)```", text[text.index("## Checking them"):], re.DOTALL)
    assert block is not None
    assert block.group(1).splitlines() == ["$ cd examples",
                                           "$ PYTHONPATH=.. python -m mypy_plugin check ."]
