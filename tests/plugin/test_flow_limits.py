"""The flow analysis of a traced function does bounded work (issue #30, item 2).

Each binding and definition of a local name is followed once per report site, so
``k`` augmented assignments under ``if``\\s take about ``k * k / 2`` steps (they took
``2 ** k`` when each path was followed again).  A function past the limits is
reported once, at its definition, and nothing is skipped silently.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from mypy import build
from mypy.config_parser import parse_config_file
from mypy.modulefinder import BuildSource
from mypy.options import Options

from mypy_plugin.analysis import flow
from mypy_plugin.main import ProxyTypesPlugin

REPO = Path(__file__).resolve().parents[2]


def augmented(name: str, count: int) -> str:
    """``x = n``, then ``count`` times ``if n > i: x += 1``, then two dict keys from x."""
    lines = [f"def {name}(n: int, d: dict[int, int]) -> None:", "    x = n"]
    for index in range(count):
        lines += [f"    if n > {index}:", "        x += 1"]
    lines += ["    d[x] = 1", "    d[x] = 2", ""]
    return "\n".join(lines)


def chained(name: str, count: int) -> str:
    """``x0 = n``, ``x1 = x0 + 1``, ... ``count`` values each computed from the last."""
    lines = [f"def {name}(n: int, d: dict[int, int]) -> None:", "    x0 = n"]
    lines += [f"    x{index} = x{index - 1} + 1" for index in range(1, count)]
    lines += [f"    d[x{count - 1}] = 1", ""]
    return "\n".join(lines)


def check(tmp_path: Path, source: str, traced: str = "program.*") -> list[str]:
    """mypy's error lines for ``source`` as module ``program``, the plugin loaded and the
    functions ``traced`` traced."""
    (tmp_path / "program.py").write_text(source, encoding="utf-8")
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\n[mypy.plugins.proxy_types]\ntraced_functions = {traced}\n",
                      encoding="utf-8")
    options = Options()
    options.config_file = str(config)
    options.cache_dir = str(tmp_path / "cache")
    options.incremental = False
    options.mypy_path = [str(REPO / "stubs"), str(REPO)]
    parse_config_file(options, lambda: None, str(config), stdout=sys.stdout, stderr=sys.stderr)
    result = build.build([BuildSource(str(tmp_path / "program.py"), "program", None)], options,
                         extra_plugins=[ProxyTypesPlugin(options)])
    return [line for line in result.errors if ": error:" in line]


def keys(errors: list[str]) -> list[str]:
    return [line for line in errors if "dict key hashes" in line
            and 'parameter "n" of traced function' in line]


def too_large(errors: list[str]) -> list[str]:
    return [line for line in errors if "[proxy-internal]" in line]


def test_nested_augmented_assignments_take_quadratic_steps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = 200
    # Following every path again takes 2 ** 200 steps; once per definition, k * k / 2.
    monkeypatch.setattr(flow, "FLOW_STEP_LIMIT", count * count)
    errors = check(tmp_path, augmented("f", count))
    assert len(keys(errors)) == 2 and too_large(errors) == [], errors


def test_the_default_limits_follow_nested_augmented_assignments(tmp_path: Path) -> None:
    errors = check(tmp_path, augmented("f", 200))
    assert len(keys(errors)) == 2 and too_large(errors) == [], errors


def test_a_function_past_the_step_limit_is_reported_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flow, "FLOW_STEP_LIMIT", 1_000)
    source = augmented("large", 60) + augmented("other", 60) + (
        "def small(n: int, d: dict[int, int]) -> None:\n    d[n + 1] = 1\n")
    errors = check(tmp_path, source)
    reports = too_large(errors)
    assert [line.split(":")[1] for line in reports] == ["1", str(source.count("\n", 0, source.index(
        "def other")) + 1)], errors
    assert 'Function "large" is too large to follow' in reports[0]
    assert "more than 1000 steps (FLOW_STEP_LIMIT)" in reports[0]
    # The small function is still followed; the large ones' keys are not.
    assert [line.split(":")[1] for line in keys(errors)] == [str(source.count("\n"))], errors


def test_a_chain_past_the_depth_limit_is_reported_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flow, "FLOW_DEPTH_LIMIT", 100)
    # Each value of the chain is a name, its binding and the expression assigned: 3 deep.
    source = chained("deep", 40) + chained("shallow", 30)
    errors = check(tmp_path, source)
    (report,) = too_large(errors)
    assert 'Function "deep" is too large to follow' in report and "FLOW_DEPTH_LIMIT" in report
    (key,) = keys(errors)
    assert f":{len(source.splitlines())}:" in key  # the shallow function's key, last line


def test_an_untraced_function_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(flow, "FLOW_STEP_LIMIT", 10)
    source = augmented("f", 30)
    assert too_large(check(tmp_path, source))
    assert check(tmp_path, source, traced="program.g") == []


def test_a_chain_of_900_links_is_followed_with_the_default_limits(tmp_path: Path) -> None:
    """Within FLOW_DEPTH_LIMIT and within the recursion limit mypy's main sets."""
    from mypy.defaults import RECURSION_LIMIT

    before = sys.getrecursionlimit()
    sys.setrecursionlimit(RECURSION_LIMIT)
    try:
        errors = check(tmp_path, chained("long", 900))
    finally:
        sys.setrecursionlimit(before)
    assert len(keys(errors)) == 1 and too_large(errors) == [], errors


def test_sites_along_a_chain_share_what_earlier_ones_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``x = x + 1; d[x] = ...`` repeated: each key follows one link more than the last,
    not the whole chain again (linear in the function, within a small depth)."""
    links = 1_200
    monkeypatch.setattr(flow, "FLOW_DEPTH_LIMIT", 30)
    monkeypatch.setattr(flow, "FLOW_STEP_LIMIT", 100)
    lines = ["def f(n: int, d: dict[int, int]) -> None:", "    x = n"]
    for index in range(links):
        lines += ["    x = x + 1", f"    d[x] = {index}"]
    errors = check(tmp_path, "\n".join(lines) + "\n")
    assert len(keys(errors)) == links and too_large(errors) == [], errors[:3]
