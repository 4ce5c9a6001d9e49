"""The corpus scorer (benchmarks/corpora/score.py) on small hand-made inputs, and the
ERROR_PRONE_ISINSTANCE baseline on a hand-made file tree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.corpora.score import (  # noqa: E402
    Finding,
    GroundTruthError,
    in_scope,
    load_ground_truth,
    main,
    match,
    package_relative,
    parse_findings,
    score,
)

TRUTH = """\
[corpus.lib]
scope = ["lib/core/*.py", "lib/ops/**/*.py"]

[corpus.other]
scope = ["other/**/*.py"]

[[site]]
corpus = "lib"
file = "lib/core/shapes.py"
line = 10
code = "if isinstance(n, int):"
kind = "isinstance"
function = "f"
verdict = "real"
outcome = "crash"
repro = "lib_isinstance::f"

[[site]]
corpus = "lib"
file = "lib/core/shapes.py"
line = 40
code = "if isinstance(n, int):"
kind = "isinstance"
function = "h"
verdict = "real"
outcome = "crash"
repro = "lib_isinstance::h"

[[site]]
corpus = "lib"
file = "lib/ops/nn/pool.py"
line = 7
code = "size = int(x.shape[0] * ratio)"
kind = "conversion"
function = "pool"
verdict = "real"
outcome = "specializes"
repro = "lib_conversion::pool"

[[not_bug]]
corpus = "lib"
file = "lib/core/shapes.py"
line = 20
code = "if isinstance(flag, bool):"
function = "g"
verdict = "harmless"
reason = "a flag, never a size"
evidence = "read"
"""


@pytest.fixture
def truth_file(tmp_path: Path) -> Path:
    path = tmp_path / "truth.toml"
    path.write_text(TRUTH, encoding="utf-8")
    return path


def test_scope_patterns_match_one_folder_with_star_and_any_depth_with_double_star() -> None:
    assert in_scope("lib/core/shapes.py", ["lib/core/*.py"])
    assert not in_scope("lib/core/sub/shapes.py", ["lib/core/*.py"])
    assert in_scope("lib/ops/pool.py", ["lib/ops/**/*.py"])
    assert in_scope("lib/ops/nn/deep/pool.py", ["lib/ops/**/*.py"])
    assert not in_scope("lib/opsx/pool.py", ["lib/ops/**/*.py"])
    assert not in_scope("lib/core/shapes.pyi", ["lib/core/*.py"])


def test_parse_findings_reads_mypy_errors_and_grep_lines_and_skips_notes() -> None:
    lines = [
        "/venv/site-packages/lib/core/shapes.py:10: error: isinstance on a dynamic int  [proxy-isinstance]",
        "lib/core/shapes.py:11:5: error: Incompatible types  [arg-type]",
        "lib/core/shapes.py:10: note: See the docs",
        "lib/ops/nn/pool.py:7:    size = int(x.shape[0] * ratio)",
        "Found 2 errors in 1 file (checked 3 source files)",
        "",
        "something else",
    ]
    findings, unrecognized = parse_findings(lines)
    assert findings == [
        Finding("/venv/site-packages/lib/core/shapes.py", 10, None, "proxy-isinstance"),
        Finding("lib/core/shapes.py", 11, None, "arg-type"),
        Finding("lib/ops/nn/pool.py", 7, "    size = int(x.shape[0] * ratio)", None),
    ]
    assert unrecognized == ["something else"]


def test_package_relative_takes_the_path_from_the_corpus_package_on(truth_file: Path) -> None:
    scopes = load_ground_truth(truth_file).scopes
    assert package_relative("/venv/lib/site-packages/lib/core/shapes.py", scopes) == (
        "lib", "lib/core/shapes.py")
    assert package_relative("scratch/other-1.0/src/other/lib/core/x.py", scopes) == (
        "other", "other/lib/core/x.py")
    assert package_relative("/venv/site-packages/lib/__init__.py", scopes) is None


def test_match_prefers_the_line_and_falls_back_to_the_code_text(truth_file: Path) -> None:
    real = load_ground_truth(truth_file).real
    assert match("lib/core/shapes.py", 10, None, real, 0) == real[0]
    assert match("lib/core/shapes.py", 11, None, real, 0) is None
    assert match("lib/core/shapes.py", 11, None, real, 1) == real[0]
    # the line moved: the same text matches the nearest site with that text
    assert match("lib/core/shapes.py", 38, "if isinstance(n, int):", real, 0) == real[1]
    assert match("lib/core/shapes.py", 38, "if isinstance(m, int):", real, 0) is None
    assert match("lib/core/shapes.py", 38, "if isinstance(n, int): pass", real, 0) is None
    assert match("lib/core/other.py", 10, "if isinstance(n, int):", real, 0) is None


def test_score_counts_confirmed_not_bug_and_unjudged_reports(truth_file: Path) -> None:
    truth = load_ground_truth(truth_file)
    findings = [
        Finding("/sp/lib/core/shapes.py", 10, None, "proxy-isinstance"),  # real
        Finding("/sp/lib/core/shapes.py", 10, None, "misc"),  # a second report on a real line
        Finding("/sp/lib/core/shapes.py", 20, None, "proxy-isinstance"),  # judged harmless
        Finding("/sp/lib/core/shapes.py", 30, None, "proxy-isinstance"),  # nobody looked at it
        Finding("/sp/lib/__init__.py", 1, None, "proxy-isinstance"),  # outside every scope
    ]
    result = score(truth, findings)["lib"]
    assert (result.reports, result.confirmed, result.judged_not_bug) == (4, 2, 1)
    assert result.unjudged == [("lib/core/shapes.py", 30)]
    assert [entry.line for entry in result.found] == [10]
    assert result.recall == pytest.approx(1 / 3)
    assert result.precision == pytest.approx(2 / 4)
    assert score(truth, findings)["other"].reports == 0


def test_code_filter_keeps_matching_mypy_codes_and_grep_lines(truth_file: Path) -> None:
    truth = load_ground_truth(truth_file)
    findings = [
        Finding("lib/core/shapes.py", 10, None, "misc"),
        Finding("lib/core/shapes.py", 40, None, "proxy-concretize"),
        Finding("lib/ops/nn/pool.py", 7, "size = int(x.shape[0] * ratio)", None),
    ]
    result = score(truth, findings, codes=["proxy-*"])["lib"]
    assert result.reports == 2
    assert sorted(entry.line for entry in result.found) == [7, 40]


def test_code_matching_reads_the_line_from_the_source_file(truth_file: Path, tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "lib" / "core").mkdir(parents=True)
    moved = ["pass"] * 12 + ["    if isinstance(n, int):"]  # the site moved from line 10 to 13
    (source / "lib" / "core" / "shapes.py").write_text("\n".join(moved) + "\n", encoding="utf-8")
    finding = Finding("lib/core/shapes.py", 13, None, "proxy-isinstance")
    truth = load_ground_truth(truth_file)
    assert score(truth, [finding], source_root=source)["lib"].confirmed == 1
    assert score(truth, [finding])["lib"].confirmed == 0  # no source to read: no text to match


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("kind = \"conversion\"", "kind = \"guess\""), "kind must be one of"),
        (("corpus = \"lib\"\nfile = \"lib/core/shapes.py\"\nline = 10",
          "corpus = \"nope\"\nfile = \"lib/core/shapes.py\"\nline = 10"), "unknown corpus 'nope'"),
        (("line = 7", "line = \"7\""), "line must be a int"),
        (("line = 20", "line = 10"), "lib/core/shapes.py:10 is listed twice"),
        (("file = \"lib/ops/nn/pool.py\"", "file = \"lib/elsewhere.py\""), "outside the scope"),
        (("verdict = \"harmless\"", "verdict = \"fine\""), "verdict must be one of"),
        (("scope = [\"other/**/*.py\"]", "scope = []"), "[corpus.other] needs scope"),
    ],
)
def test_bad_ground_truth_is_one_clear_line(tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    old, new = edit
    assert old in TRUTH
    path = tmp_path / "truth.toml"
    path.write_text(TRUTH.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(GroundTruthError, match=message.replace("[", r"\[").replace("*", r"\*")):
        load_ground_truth(path)


def test_command_line_prints_the_table_and_the_missed_sites(
    truth_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    findings = tmp_path / "findings.txt"
    findings.write_text("lib/core/shapes.py:10: error: dynamic  [proxy-isinstance]\n"
                        "lib/core/shapes.py:30: error: dynamic  [proxy-isinstance]\n", encoding="utf-8")
    assert main([str(findings), "--ground-truth", str(truth_file)]) == 0
    out = capsys.readouterr().out
    assert "| lib | 2 | 1 | 0 | 1 | 3 | 1 | 0.33 | 0.50 |" in out
    assert "lib: found per kind: conversion 0/1, isinstance 1/2" in out
    assert "  lib/ops/nn/pool.py:7 [conversion] size = int(x.shape[0] * ratio)  (lib_conversion::pool)" in out
    assert "  lib/core/shapes.py:30" in out


def test_command_line_rejects_a_missing_findings_file(
    truth_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "none.txt"), "--ground-truth", str(truth_file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("score.py: error: cannot read findings file") and err.count("\n") == 1


def test_the_shipped_ground_truth_loads_with_both_corpora() -> None:
    truth = load_ground_truth(ROOT / "benchmarks" / "corpora" / "ground_truth.toml")
    assert set(truth.scopes) == {"torch", "thunder", "thunder-flip"}
    per_corpus = {name: [e for e in truth.real if e.corpus == name] for name in truth.scopes}
    assert len(per_corpus["torch"]) >= 10 and len(per_corpus["thunder"]) >= 15
    assert len(per_corpus["thunder-flip"]) >= 80
    assert truth.bases == {"torch": "runtime", "thunder": "runtime", "thunder-flip": "human fix"}
    runtime = [e for e in truth.real if truth.bases[e.corpus] == "runtime"]
    assert all(entry.label.count("::") == 1 for entry in runtime)  # SCRIPT::CASE
    assert [e.line for e in per_corpus["thunder-flip"] if e.proxy_typed] == [903, 905, 911]


HUMAN_FIX = """\
[corpus.old]
basis = "human fix"
scope = ["lib/**/*.py"]

[corpus.new]
scope = ["lib/**/*.py"]

[[site]]
corpus = "old"
file = "lib/core/shapes.py"
line = 10
code = "if isinstance(n, Number):"
kind = "isinstance"
verdict = "real"
changed_to = "if isinstance(n, (Number, NumberProxy)):"
declared = "Proxy"
proxy_typed = true
reason = "a proxy passed only through its number base"

[[not_bug]]
corpus = "old"
file = "lib/core/shapes.py"
line = 20
code = "if isinstance(n, Number):"
verdict = "not in fix"
reason = "the same check, left by the fix"

[[site]]
corpus = "new"
file = "lib/core/shapes.py"
line = 10
code = "if isinstance(n, Number):"
kind = "isinstance"
verdict = "real"
outcome = "crash"
repro = "lib_isinstance::f"
"""


def test_a_human_fix_corpus_is_scored_by_line_alone_and_counts_sites_left_by_the_fix(
        tmp_path: Path) -> None:
    path = tmp_path / "truth.toml"
    path.write_text(HUMAN_FIX, encoding="utf-8")
    truth = load_ground_truth(path)
    findings = [Finding("lib/core/shapes.py", line, "if isinstance(n, Number):", "proxy-isinstance")
                for line in (10, 20, 30)]
    old = score(truth, findings, corpus="old")
    assert set(old) == {"old"}  # the overlapping corpus is not scored
    result = old["old"]
    # line 30 has the site's text but is no site of the fixed build
    assert (result.reports, result.confirmed, result.not_in_fix, result.unjudged) == (
        3, 1, 1, [("lib/core/shapes.py", 30)])
    assert result.precision == pytest.approx(1 / 3)
    assert result.precision_with_not_in_fix == pytest.approx(2 / 3)
    assert score(truth, findings, corpus="new")["new"].confirmed == 3  # text matches count there


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("proxy_typed = true", "proxy_typed = \"yes\""), "proxy_typed must be true or false"),
        (("changed_to = \"if isinstance(n, (Number, NumberProxy)):\"\n", ""),
         "changed_to must be a str"),
        (("basis = \"human fix\"", "basis = \"hunch\""), "basis must be one of"),
        (("declared = \"Proxy\"\n", ""), "declared must be a str"),
    ],
)
def test_bad_human_fix_entries_are_one_clear_line(tmp_path: Path, edit: tuple[str, str],
                                                  message: str) -> None:
    old, new = edit
    assert old in HUMAN_FIX
    path = tmp_path / "truth.toml"
    path.write_text(HUMAN_FIX.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(GroundTruthError, match=message):
        load_ground_truth(path)


def test_not_in_fix_is_a_verdict_of_human_fix_corpora_only(tmp_path: Path) -> None:
    path = tmp_path / "truth.toml"
    path.write_text(TRUTH.replace('verdict = "harmless"', 'verdict = "not in fix"'), encoding="utf-8")
    with pytest.raises(GroundTruthError, match="verdict must be one of harmless, false positive,"):
        load_ground_truth(path)


def test_error_prone_isinstance_flags_bare_int_and_float_checks_only(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "lib" / "core").mkdir(parents=True)
    (root / "lib" / "core" / "shapes.py").write_text(
        "if isinstance(n, int):\n"  # 1: flagged
        "if isinstance(n, (int, float)):\n"  # 2: flagged
        "if isinstance(n, IntLike):\n"  # 3: an alias that includes SymInt
        "if isinstance(n, numbers.Integral):\n"  # 4: the regex does not know numbers.*
        "if isinstance(n, (int, torch.SymInt)):\n"  # 5: ends in SymInt
        "x = float(n)\n",
        encoding="utf-8")
    (root / "lib" / "unscoped.py").write_text("isinstance(n, int)\n", encoding="utf-8")
    truth = tmp_path / "truth.toml"
    truth.write_text(TRUTH, encoding="utf-8")
    script = ROOT / "benchmarks" / "corpora" / "error_prone_isinstance.py"
    result = subprocess.run(
        [sys.executable, str(script), "--corpus", "lib", "--root", str(root),
         "--ground-truth", str(truth)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "lib/core/shapes.py:1:if isinstance(n, int):",
        "lib/core/shapes.py:2:if isinstance(n, (int, float)):",
    ]
    empty = subprocess.run(
        [sys.executable, str(script), "--corpus", "other", "--root", str(root),
         "--ground-truth", str(truth)], capture_output=True, text=True, timeout=60)
    assert empty.returncode == 2 and "no other corpus file under" in empty.stderr
