"""mypy internals are reached through one module, probed once, and a missing one is said."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from pathlib import Path

import pytest
from mypy import api

from mypy_plugin import _mypy_compat as compat

REPO = Path(__file__).resolve().parents[2]
PLUGIN = REPO / "mypy_plugin"

#: Spellings of mypy internals: only _mypy_compat.py may contain them.
INTERNALS = [
    r"\._watchers\b", r"\b_type_maps\b", r"\berror_info_map\b", r"\bignored_files\b",
    r"\bcan_skip_diagnostics\b", r"\bcur_mod_node\b", r"\bsemanal\.statement\b",
    r"(?<!compat\.)\blookup_type(_or_none)?\(", r"(?<!compat\.)\bstore_type\(", r"__mypyc_attrs__", r"\._modules\b",
    r"\bcalculate_mro\b", r"\bfilter_errors\(", r"\bapi\.tree\b", r"\bis_error_code_enabled\(",
    r"\bmsg\.errors\b", r"\bapi\.api\b", r"\bapi\.modules\b", r"\w\.__version__ =",
    r"\.bases = ", r"\.mro = ",
]


@pytest.fixture
def restored_features() -> Iterator[None]:
    yield
    compat.check_features()


def test_internals_appear_only_in_the_compat_module() -> None:
    offenders = []
    for path in sorted(PLUGIN.rglob("*.py")):
        if path.name == "_mypy_compat.py" or "cli" in path.relative_to(PLUGIN).parts:
            continue
        text = path.read_text(encoding="utf-8")
        offenders += [f"{path.relative_to(REPO)}: {pattern}" for pattern in INTERNALS
                      if re.search(pattern, text)]
    assert offenders == []


def test_the_scan_patterns_match_real_uses() -> None:
    # Each pattern is a spelling compat itself uses: the scan above can fail.
    text = (PLUGIN / "_mypy_compat.py").read_text(encoding="utf-8")
    unused = [pattern for pattern in INTERNALS if not re.search(pattern, text)]
    assert len(unused) <= len(INTERNALS) // 2, unused


def test_every_feature_is_available_on_the_installed_mypy(restored_features: None) -> None:
    assert compat.check_features() == []
    assert all(compat.AVAILABLE.values())


@pytest.mark.parametrize(("version", "inside"), [
    (compat.OLDEST_TESTED, True), (compat.NEWEST_TESTED, True), ("2.0.0", True),
    ("2.4.1+dev.0123abcd", True), ("1.11.1", False), ("1.10.0", False), ("2.4.2", False),
    ("3.0.0", False), ("2.5.0rc1", False),
])
def test_versions_outside_the_tested_range_are_said(version: str, inside: bool) -> None:
    notice = compat.version_notice(version)
    assert (notice is None) == inside
    if notice is not None:
        assert f"mypy {version} is outside the tested range" in notice
        assert f"{compat.OLDEST_TESTED} to {compat.NEWEST_TESTED}" in notice


def test_version_tuple() -> None:
    assert compat.version_tuple("1.11.2") == (1, 11, 2)
    assert compat.version_tuple("2.5.0rc1") == (2, 5, 0)
    assert compat.version_tuple("2.4.1+dev.abc") == (2, 4, 1)
    assert compat.version_tuple("1.12.0.dev3") == (1, 12, 0)


def test_a_missing_internal_turns_its_feature_off_and_names_it(restored_features: None) -> None:
    missing = compat.check_features(lambda module, cls, attribute: attribute != "statement")
    assert missing == ["statement under analysis"]
    assert compat.AVAILABLE["statement under analysis"] is False
    notice = compat.feature_notice("statement under analysis")
    assert notice.startswith("proxy-types: statement under analysis is off on mypy ")
    assert "(SemanticAnalyzer.statement not found): cast() and bare `if flag:` checks are off" \
        in notice


def test_plugin_says_once_which_feature_is_off_and_does_less(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    restored_features: None,
) -> None:
    real = compat._has_attribute
    monkeypatch.setattr(compat, "_has_attribute",
                        lambda module, cls, attribute: attribute != "statement"
                        and real(module, cls, attribute))
    for name in ("first", "second"):
        (tmp_path / f"{name}.py").write_text(
            "from typing import cast\nfrom proxy_types import IntegerProxy\n\n"
            "def f(p: IntegerProxy) -> int:\n    isinstance(p, int)\n    return cast(int, p)\n")
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n")
    monkeypatch.chdir(tmp_path)
    stdout, _, _ = api.run(["--config-file", "mypy.ini", "--cache-dir", str(tmp_path / "c"),
                            "first.py", "second.py"])
    printed = capsys.readouterr().err  # the plugin prints on mypy's stderr
    notices = [line for line in printed.splitlines() if line.startswith("proxy-types:")]
    assert len(notices) == 1
    assert "statement under analysis is off" in notices[0]
    assert stdout.count("[proxy-isinstance]") == 2  # the other checks still run
    assert "[proxy-cast]" not in stdout  # the one that needs the statement does not


def test_tested_range_matches_the_declared_dependencies() -> None:
    setup = (REPO / "setup.cfg").read_text(encoding="utf-8")
    lower = ".".join(compat.OLDEST_TESTED.split(".")[:2])
    upper = int(compat.NEWEST_TESTED.split(".")[0]) + 1
    assert setup.count(f"mypy>={lower},<{upper}") == 2  # the mypy and fix extras
    # The test extra, which CI installs, is the newest tested release.
    test_extra = setup.split("test =", 1)[1].split("\n\n", 1)[0]
    assert f"mypy=={compat.NEWEST_TESTED}" in test_extra


def test_ci_checks_the_oldest_tested_mypy() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert f"mypy=={compat.OLDEST_TESTED}" in ci


@pytest.mark.parametrize("has_tree", [True, False])
def test_checker_hooks_ask_the_gate_once_per_module_or_at_every_call_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, has_tree: bool, restored_features: None,
) -> None:
    from mypy_plugin.gate import ReportGate

    if not has_tree:  # a mypy whose checker does not name its module: only the probe says so
        real_probe = compat._has_attribute
        monkeypatch.setattr(compat, "_has_attribute", lambda module, cls, attribute: (
            (cls, attribute) != ("TypeChecker", "tree") and real_probe(module, cls, attribute)))
    asked: list[str] = []
    real = ReportGate.in_checker

    def in_checker(gate: ReportGate, api: Any) -> str:
        asked.append(api.tree.fullname)  # the real checker still names its module
        return real(gate, api)

    monkeypatch.setattr(ReportGate, "in_checker", in_checker)
    (tmp_path / "checked.py").write_text(
        "from proxy_types import IntegerProxy\n\ndef f(p: IntegerProxy) -> None:\n"
        + "    isinstance(p, int)\n" * 3)
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n")
    monkeypatch.chdir(tmp_path)
    stdout, _, _ = api.run(["--config-file", "mypy.ini", "--cache-dir", str(tmp_path / "c"),
                            "checked.py"])
    assert stdout.count("[proxy-isinstance]") == 3, stdout
    assert asked.count("checked") == (1 if has_tree else 3)
