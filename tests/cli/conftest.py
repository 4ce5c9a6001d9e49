"""Fixtures for the command line tests: run ``python -m mypy_plugin`` for real."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


RunCli = Callable[..., subprocess.CompletedProcess[str]]
SarifProblems = Callable[[Any], list[str]]


@pytest.fixture(scope="session")
def warm_cache(
    cli_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """A mypy cache holding builtins and the proxy_types stubs, made once.

    Each run gets a copy: one cache shared by several projects would let a
    module of one project (same name, same content) stand in for another's.
    """
    project = tmp_path_factory.mktemp("warm-up")
    (project / "warm_up_module.py").write_text("import proxy_types\n", encoding="utf-8")
    cache = tmp_path_factory.mktemp("warm-cache")
    subprocess.run(
        [sys.executable, "-m", "mypy_plugin", "check", "--cache-dir", str(cache), "."],
        cwd=project, env=cli_env, capture_output=True, text=True, timeout=300, check=True,
    )
    return cache


@pytest.fixture(scope="session")
def run_cli(cli_env: dict[str, str], warm_cache: Path) -> RunCli:
    """Run the command line in a subprocess; ``check`` gets a warm private cache."""

    def run(*args: str, cwd: Path, cache: bool = True) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "mypy_plugin", *args]
        if cache and args and args[0] == "check":
            private_cache = Path(tempfile.mkdtemp(dir=warm_cache.parent)) / "cache"
            shutil.copytree(warm_cache, private_cache)
            command[4:4] = ["--cache-dir", str(private_cache)]
        return subprocess.run(
            command, cwd=cwd, env=cli_env, capture_output=True, text=True, timeout=300
        )

    return run


# -- SARIF: the parts GitHub code scanning requires ---------------------------
# Written from GitHub's "SARIF support for code scanning" page: the top-level
# version and runs, tool.driver.name, each result's message.text and a location
# with an artifact URI and a 1-based region; rules referenced by id and index.


@pytest.fixture(scope="session")
def sarif_problems() -> SarifProblems:
    """A function listing every violation in a SARIF document (empty: acceptable)."""
    return find_sarif_problems


LEVELS = {"none", "note", "warning", "error"}


def find_sarif_problems(document: Any) -> list[str]:
    """Every violation found in ``document``; empty when it is acceptable."""
    problems: list[str] = []
    if not isinstance(document, dict):
        return ["document is not an object"]
    if document.get("version") != "2.1.0":
        problems.append("version is not 2.1.0")
    if not str(document.get("$schema", "")).startswith("https://"):
        problems.append("$schema is missing")
    runs = document.get("runs")
    if not isinstance(runs, list) or not runs:
        return problems + ["runs is not a non-empty array"]
    for run_index, run in enumerate(runs):
        problems += [f"runs[{run_index}]: {problem}" for problem in run_problems(run)]
    return problems


def run_problems(run: Any) -> list[str]:
    driver = run.get("tool", {}).get("driver") if isinstance(run, dict) else None
    if not isinstance(driver, dict):
        return ["tool.driver is missing"]
    problems: list[str] = []
    for key in ("name", "version", "informationUri"):
        if not isinstance(driver.get(key), str) or not driver[key]:
            problems.append(f"tool.driver.{key} is missing")
    rules = driver.get("rules", [])
    rule_ids: list[str] = []
    for index, rule in enumerate(rules):
        problems += [f"rules[{index}]: {problem}" for problem in rule_problems(rule)]
        rule_ids.append(str(rule.get("id")) if isinstance(rule, dict) else "")
    if len(set(rule_ids)) != len(rule_ids):
        problems.append("rule ids are not unique")
    problems += invocation_problems(run.get("invocations", []))
    if not isinstance(run.get("properties", {}), dict):
        problems.append("properties is not a property bag (an object)")
    results = run.get("results")
    if not isinstance(results, list):
        return problems + ["results is not an array"]
    for index, result in enumerate(results):
        problems += [f"results[{index}]: {p}" for p in result_problems(result, rule_ids)]
    return problems


def rule_problems(rule: Any) -> list[str]:
    if not isinstance(rule, dict) or not isinstance(rule.get("id"), str):
        return ["id is missing"]
    problems = []
    for key in ("shortDescription", "fullDescription"):
        if not isinstance(rule.get(key, {}).get("text"), str):
            problems.append(f"{key}.text is missing")
    help_ = rule.get("help", {})
    if not isinstance(help_.get("text"), str) or not isinstance(help_.get("markdown"), str):
        problems.append("help needs text and markdown")
    if rule.get("defaultConfiguration", {}).get("level") not in LEVELS:
        problems.append("defaultConfiguration.level is not a SARIF level")
    return problems


def result_problems(result: Any, rule_ids: list[str]) -> list[str]:
    if not isinstance(result, dict):
        return ["not an object"]
    problems = []
    if not isinstance(result.get("message", {}).get("text"), str):
        problems.append("message.text is missing")
    if result.get("level") not in LEVELS:
        problems.append("level is not a SARIF level")
    rule_index = result.get("ruleIndex")
    if not isinstance(rule_index, int) or not 0 <= rule_index < len(rule_ids):
        problems.append("ruleIndex does not point into the rules")
    elif rule_ids[rule_index] != result.get("ruleId"):
        problems.append("ruleId and ruleIndex disagree")
    locations = result.get("locations")
    if not isinstance(locations, list) or not locations:
        return problems + ["locations is empty"]
    for location in locations:
        physical = location.get("physicalLocation", {}) if isinstance(location, dict) else {}
        artifact = physical.get("artifactLocation", {})
        uri = artifact.get("uri")
        if not isinstance(uri, str) or not uri or "\\" in uri:
            problems.append("artifactLocation.uri is not a forward-slash URI")
        elif "uriBaseId" in artifact and (uri.startswith("/") or ":" in uri.split("/")[0]):
            problems.append("a uri with uriBaseId must be relative")
        region = physical.get("region", {})
        for key in ("startLine", "startColumn"):
            if not isinstance(region.get(key), int) or region[key] < 1:
                problems.append(f"region.{key} is not a 1-based integer")
    return problems


def invocation_problems(invocations: Any) -> list[str]:
    """SARIF 2.1.0 ``invocation``: ``executionSuccessful`` is required; each
    ``notification`` needs a message text, a level, and a descriptor with an id if any."""
    if not isinstance(invocations, list):
        return ["invocations is not an array"]
    problems = []
    for index, invocation in enumerate(invocations):
        if not isinstance(invocation, dict):
            problems.append(f"invocations[{index}] is not an object")
            continue
        if not isinstance(invocation.get("executionSuccessful"), bool):
            problems.append(f"invocations[{index}].executionSuccessful is not a boolean")
        notes = invocation.get("toolExecutionNotifications", [])
        for number, note in enumerate(notes if isinstance(notes, list) else [None]):
            where = f"invocations[{index}].toolExecutionNotifications[{number}]"
            if not isinstance(note, dict) or not isinstance(
                    note.get("message", {}).get("text"), str):
                problems.append(f"{where}.message.text is missing")
            elif note.get("level", "warning") not in LEVELS:
                problems.append(f"{where}.level is not a SARIF level")
            elif not isinstance(note.get("descriptor", {"id": ""}).get("id"), str):
                problems.append(f"{where}.descriptor.id is not a string")
    return problems
