"""benchmarks/sweep.py (issue #30): its arguments, verdicts and CPU reading; a real run is slow."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks import sweep  # noqa: E402
from benchmarks.corpus import PLUGINS_LINE  # noqa: E402


def test_a_known_corpus_is_found_in_site_packages(tmp_path: Path) -> None:
    (tmp_path / "pandas" / "core").mkdir(parents=True)
    spec = sweep.parse_corpus("pandas/core", tmp_path)
    assert (spec.source, spec.package, spec.targets) == (tmp_path, "pandas", ("pandas/core",))


def test_a_path_corpus_checks_its_directory(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    spec = sweep.parse_corpus(f"mine={tmp_path / 'pkg'}", None)
    assert (spec.name, spec.source, spec.targets) == ("mine", tmp_path, ("pkg",))


@pytest.mark.parametrize(("value", "message"), [
    ("nosuchcorpus", "unknown"),
    ("sympy", "needs --site-packages"),
    ("mine=", "expected NAME=PATH"),
    ("mine=/no/such/dir", "is not a directory"),
])
def test_bad_corpora_are_one_line(value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sweep.parse_corpus(value, None)


def test_a_named_corpus_must_be_installed(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="pip install it"):
        sweep.parse_corpus("sympy", tmp_path)


def test_settings_are_parsed_and_checked() -> None:
    assert sweep.parse_settings("traced, strict") == ["traced", "strict"]
    assert sweep.parse_settings("default,traced,strict") == list(sweep.SETTINGS)
    for bad in ("", "fast", "traced,fast"):
        with pytest.raises(ValueError, match="--settings"):
            sweep.parse_settings(bad)


def test_main_exits_2_on_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        sweep.main(["--corpus", "sympy", "--settings", "fast"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err
    assert '--settings: expected some of default,traced,strict, got "fast"' in error


@pytest.mark.parametrize("setting", sweep.SETTINGS)
def test_configs_differ_only_in_the_plugins_line(setting: str) -> None:
    plain = sweep.config_text(setting, "sympy", plugin=False).splitlines()
    plugin = sweep.config_text(setting, "sympy", plugin=True).splitlines()
    assert [line for line in plugin if line not in plain] == [PLUGINS_LINE]
    assert [line for line in plain if line not in plugin] == []
    assert ("traced_functions = sympy.*" in plain) == (setting == "traced")
    assert ("strict_isinstance = true" in plain) == (setting == "strict")


def _finding(code: str, kind: str | None, line: int) -> dict[str, object]:
    return {"file": "m.py", "line": line, "code": code, "kind": kind, "message": f"m{line}"}


def test_internal_errors_fail_and_functions_too_large_are_listed() -> None:
    document = {"findings": [_finding("proxy-internal", "flow-too-large", 1),
                             _finding("proxy-internal", "internal-error", 2),
                             _finding("proxy-isinstance", "isinstance", 3)]}
    errors, too_large = sweep.internal_findings(document)
    assert errors == ["m.py:2: m2"]
    assert too_large == ["m.py:1: m1"]
    assert sweep.internal_findings({"findings": [_finding("proxy-cast", "cast", 4)]}) == ([], [])


def test_first_difference_names_the_line() -> None:
    same = json.dumps({"a": [1, 2]}, indent=2)
    assert sweep.first_difference(same, same) is None
    changed = same.replace("2", "3")
    assert sweep.first_difference(same, changed) == "line 4: '2' != '3'"
    assert "one output has 2 lines, the other 1" in (sweep.first_difference("a\nb", "a") or "")


def test_ratio_limit() -> None:
    within = sweep.Outcome("c", "traced", mypy_cpu=[10.0, 8.0], check_cpu=[15.0, 12.0])
    sweep.check_limits(within, 1.5)
    assert within.failures == [] and within.worst_ratio() == 1.5
    # each check run against plain mypy under its own seed
    over = sweep.Outcome("c", "traced", mypy_cpu=[20.0, 10.0], check_cpu=[12.0, 15.1])
    sweep.check_limits(over, 1.5)
    assert over.failures == ["check took 1.510x plain mypy's CPU (seed 2: 15.1 s against "
                             "10.0 s; limit 1.5x)"]
    no_baseline = sweep.Outcome("c", "traced", mypy_cpu=[0.0], check_cpu=[1.0])
    sweep.check_limits(no_baseline, 1.5)
    assert len(no_baseline.failures) == 1


def _error(line: int, message: str, code: str = "assignment",
           file: str = "pkg/m.py") -> dict[str, object]:
    return {"file": file, "line": line, "column": 1, "severity": "error", "code": code,
            "message": message, "hint": None}


def _document(*findings: dict[str, object]) -> dict[str, object]:
    plugin = sum(str(finding["code"]).startswith("proxy-") for finding in findings)
    return {"tool": "proxy-types", "exit_status": 1, "findings": list(findings),
            "summary": {"proxy-isinstance": plugin, "other mypy errors": len(findings) - plugin}}


def _plain(*findings: dict[str, object]) -> list[tuple[sweep.Place, str]]:
    """Plain mypy's --output json text (one object a line) as the sweep reads it."""
    text = "\n".join(json.dumps({key: finding[key] for key in
                                 ("file", "line", "column", "message", "hint", "code",
                                  "severity")}) for finding in findings)
    return sweep.mypy_errors_of_plain(text + "\nFound 2 errors\n")


PLUGIN = _error(3, 'isinstance(n, int) is never true for a SymInt "n"', "proxy-isinstance")
SEED_ONE = _error(9, "Incompatible types (expression has type tuple[object, object])")
SEED_TWO = _error(9, "Incompatible types (expression has type tuple[Iterable[Any], object])")
STEADY = _error(12, "Name \"x\" is not defined", "name-defined")


def test_identical_documents_pass() -> None:
    document = _document(PLUGIN, SEED_ONE, STEADY)
    assert sweep.compare_seeds([document, _document(PLUGIN, SEED_ONE, STEADY)],
                               [_plain(SEED_ONE, STEADY), _plain(SEED_ONE, STEADY)]) == ([], [])


def test_a_difference_plain_mypy_shows_too_is_listed_not_failed() -> None:
    checked = [_document(PLUGIN, SEED_ONE, STEADY), _document(PLUGIN, SEED_TWO, STEADY)]
    # plain mypy gives other texts under each seed (as on sympy), at the same place
    plain = [_plain(SEED_TWO, STEADY), _plain(SEED_ONE, STEADY)]
    assert sweep.compare_seeds(checked, plain) == ([], ["pkg/m.py:9 [assignment]"])


def test_a_difference_plain_mypy_does_not_show_fails() -> None:
    checked = [_document(PLUGIN, SEED_ONE, STEADY), _document(PLUGIN, SEED_TWO, STEADY)]
    failures, listed = sweep.compare_seeds(checked, [_plain(SEED_ONE, STEADY)] * 2)
    assert listed == []
    assert failures == ["mypy's errors at pkg/m.py:9 [assignment] differ between "
                        "PYTHONHASHSEED=1 and 2 in check but not in plain mypy"]
    # an error present under one seed only is a difference too
    failures, _ = sweep.compare_seeds([_document(STEADY), _document()],
                                      [_plain(STEADY), _plain(STEADY)])
    assert failures == ["mypy's errors at pkg/m.py:12 [name-defined] differ between "
                        "PYTHONHASHSEED=1 and 2 in check but not in plain mypy"]


def test_plugin_findings_must_be_byte_identical() -> None:
    other_reason = dict(PLUGIN, message='isinstance(m, int) is never true for a SymInt "m"')
    failures, _ = sweep.compare_seeds([_document(PLUGIN, STEADY), _document(other_reason, STEADY)],
                                      [_plain(STEADY), _plain(STEADY)])
    assert len(failures) == 1
    assert failures[0].startswith("the plugin's findings differ between PYTHONHASHSEED=1 and 2")
    assert "isinstance(n, int)" in failures[0] and "isinstance(m, int)" in failures[0]
    # plain mypy differing there does not excuse the plugin's own findings
    failures, _ = sweep.compare_seeds(
        [_document(PLUGIN), _document(other_reason)],
        [_plain(_error(3, "a", "proxy-isinstance")), _plain(_error(3, "b", "proxy-isinstance"))])
    assert len(failures) == 1


def test_mypy_counts_are_mypys_part() -> None:
    """The count of mypy's errors moves with them; the plugin's counts do not."""
    first = _document(PLUGIN, STEADY)
    assert '"other mypy errors"' not in sweep.plugin_part(first)
    assert sweep.plugin_part(first) == sweep.plugin_part(_document(PLUGIN))
    assert '"proxy-isinstance": 1' in sweep.plugin_part(first)
    assert sweep.plugin_part(first) != sweep.plugin_part(_document(STEADY))


@pytest.mark.parametrize(("status", "output", "verdict"), [
    (0, "Success", None),
    (1, "Found 1 error", None),
    (3, "{}", None),
    (2, "error: broken config", "exited 2: error: broken config"),
    (1, "Traceback (most recent call last):\n  x\nKeyError: 'a'", "crashed: KeyError: 'a'"),
    (-9, "", "killed after the timeout"),
])
def test_crashes(status: int, output: str, verdict: str | None) -> None:
    assert sweep.crash_line(sweep.Run(status, output, "", 0.0, 0.0)) == verdict


def test_cpu_time_is_the_childs(tmp_path: Path) -> None:
    busy = ("import time\nwhile time.process_time() < 0.3:\n    pass\nprint('done')")
    run = sweep.run_child([sys.executable, "-c", busy], tmp_path, dict(os.environ), 60)
    assert (run.status, run.stdout) == (0, "done\n")
    assert run.cpu >= 0.3
    idle = sweep.run_child([sys.executable, "-c", "import time; time.sleep(0.5)"], tmp_path,
                           dict(os.environ), 60)
    assert idle.cpu < 0.3 <= idle.wall


def test_a_hang_is_killed(tmp_path: Path) -> None:
    run = sweep.run_child([sys.executable, "-c", "import time; time.sleep(30)"], tmp_path,
                          dict(os.environ), 0.5)
    assert run.status == -9
    assert sweep.crash_line(run) == "killed after the timeout"


@pytest.mark.slow
def test_sweep_of_a_tiny_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    package = tmp_path / "tiny"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "mod.py").write_text(
        "def f(n: int) -> int:\n    x = n\n    if n > 1:\n        x += 1\n"
        "    d = {}\n    d[x] = 1\n    return x\n")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    arguments = ["--corpus", f"tiny={package}", "--workdir", str(tmp_path / "work")]
    assert sweep.main([*arguments, "--keep-json", str(tmp_path / "json")]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("tiny ")]
    assert [row.split()[1] for row in rows] == list(sweep.SETTINGS)
    assert all(row.endswith("ok") for row in rows)
    kept = sorted(path.name for path in (tmp_path / "json").iterdir())
    assert kept == sorted(f"tiny-{setting}-seed{seed}.json" for setting in sweep.SETTINGS
                          for seed in sweep.HASH_SEEDS)
    traced = json.loads((tmp_path / "json" / "tiny-traced-seed1.json").read_text())
    assert [finding["code"] for finding in traced["findings"]] == ["proxy-concretize"]
    # The same runs against an impossible limit: one line per check run over it.
    assert sweep.main([*arguments, "--settings", "traced", "--limit", "0.01"]) == 1
    failures = [line for line in capsys.readouterr().out.splitlines()
                if line.startswith("FAIL tiny [traced]: check took")]
    assert len(failures) == 2
