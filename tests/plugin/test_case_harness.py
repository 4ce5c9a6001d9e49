"""The case files' harness itself: marker forms, per-case settings and ``--update``.

Real mypy runs use a copy of the small ``strict`` group (no torch).
"""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.plugin.cases_harness import (
    CASES,
    Actual,
    CaseError,
    CaseSettings,
    GroupResult,
    actual_errors,
    case_runs,
    case_settings,
    check_group,
    expected_errors,
    marker_for,
    merged_config,
    mismatches,
    update_group,
)

REPO = Path(__file__).resolve().parents[2]
STUBS_SETTING = "$MYPY_CONFIG_FILE_DIR/../../../../stubs"
OBJECT_REPORT = ('isinstance() against static number classes (int) misclassifies dynamic '
                 'number "object"; use proxy_types.is_static_number() / is_dynamic_number() '
                 'or include proxy_types.NumberClasses')


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def copy_group(group: str, cases: Path) -> Path:
    """``group`` copied under ``cases``, its stubs path made absolute; returns its directory."""
    shutil.copytree(CASES / group, cases / group)
    config = next(path for path in (cases / group).iterdir() if path.suffix in (".ini", ".toml"))
    config.write_text(config.read_text().replace(STUBS_SETTING, str(REPO / "stubs")))
    return cases / group


# -- marker forms --------------------------------------------------------------------------


def test_markers_match_a_fragment_the_full_message_or_a_regex(tmp_path: Path) -> None:
    case = write(tmp_path / "case.py",
                 "a = 1  # E: [proxy-concretize] int() turns\n"
                 'b = 1  # E: [proxy-concretize] =int() turns dynamic number "p"\n'
                 'c = 1  # E: [proxy-concretize] /turns dynamic number "(p|q)"$/\n')
    expected = expected_errors([case])
    assert [want.fragment for want in expected] == [
        "int() turns", '=int() turns dynamic number "p"', '/turns dynamic number "(p|q)"$/']

    def reported(message: str) -> list[Actual]:
        return actual_errors("".join(f"case.py:{line}: error: {message}  [proxy-concretize]\n"
                                     for line in (1, 2, 3)))

    assert mismatches(expected, reported('int() turns dynamic number "p"')) == []
    longer = 'int() turns dynamic number "p" into a static int'
    assert mismatches(expected, reported(longer)) == [
        'missing  case.py:2: [proxy-concretize] =int() turns dynamic number "p"',
        'missing  case.py:3: [proxy-concretize] /turns dynamic number "(p|q)"$/',
        f"unexpected case.py:2: [proxy-concretize] {longer}",
        f"unexpected case.py:3: [proxy-concretize] {longer}",
    ]
    other = 'int() turns dynamic number "r"'
    assert mismatches(expected, reported(other)) == [
        'missing  case.py:2: [proxy-concretize] =int() turns dynamic number "p"',
        'missing  case.py:3: [proxy-concretize] /turns dynamic number "(p|q)"$/',
        f"unexpected case.py:2: [proxy-concretize] {other}",
        f"unexpected case.py:3: [proxy-concretize] {other}",
    ]


def test_a_full_message_marker_may_have_a_space_after_the_equals_sign(tmp_path: Path) -> None:
    case = write(tmp_path / "case.py", "a = 1  # E: [misc] = Whole message\n")
    assert mismatches(expected_errors([case]),
                      actual_errors("case.py:1: error: Whole message  [misc]\n")) == []
    assert mismatches(expected_errors([case]),
                      actual_errors("case.py:1: error: Whole message too  [misc]\n")) != []


def test_a_bad_regex_is_one_line_naming_the_marker(tmp_path: Path) -> None:
    case = write(tmp_path / "case.py", "a = 1\nb = 1  # E: [misc] /(unclosed/\n")
    with pytest.raises(CaseError) as raised:
        expected_errors([case])
    assert str(raised.value).startswith("case.py:2: marker /(unclosed/: not a regular expression")
    assert "\n" not in str(raised.value)


def test_a_general_fragment_leaves_the_error_a_precise_marker_needs(tmp_path: Path) -> None:
    case = write(tmp_path / "case.py",
                 'a = 1  # E: [misc] turns  # E: [misc] turns dynamic number "q"\n')
    both = actual_errors('case.py:1: error: turns dynamic number "q"  [misc]\n'
                         'case.py:1: error: turns dynamic number "p"  [misc]\n')
    assert mismatches(expected_errors([case]), both) == []
    only_p = actual_errors('case.py:1: error: turns dynamic number "p"  [misc]\n')
    assert mismatches(expected_errors([case]), only_p) == [
        'missing  case.py:1: [misc] turns dynamic number "q"']


# -- per-case settings ---------------------------------------------------------------------


def test_case_settings_reads_the_settings_block_and_the_flags_line(tmp_path: Path) -> None:
    case = write(tmp_path / "case.py",
                 '"""A docstring."""\n'
                 "# settings:\n"
                 "#   [mypy.plugins.proxy_types]\n"
                 "#   traced_functions =\n"
                 "#       case.*,\n"
                 "#       other.*\n"
                 "#\n"
                 "#   [mypy-case]\n"
                 "#   warn_unreachable = true\n"
                 "# flags: --always-true=FLAG --python-version 3.12\n"
                 "# not settings any more\n"
                 "x = 1\n")
    assert case_settings(case) == CaseSettings(
        "[mypy.plugins.proxy_types]\ntraced_functions =\n    case.*,\n    other.*\n\n"
        "[mypy-case]\nwarn_unreachable = true\n",
        ("--always-true=FLAG", "--python-version", "3.12"))
    plain = write(tmp_path / "plain.py", "# a comment\nx = 1  # E: [misc] settings: none\n")
    assert case_settings(plain) == CaseSettings()


@pytest.mark.parametrize(("text", "message"), [
    ("# settings:\n#   strict_isinstance = true\n",
     "case.py:1: settings: File contains no section headers."),
    ("# settings:\nx = 1\n", "case.py:1: '# settings:' is followed by no '#   [section]' line"),
    ("# settings:\n#   [tool.proxy_types]\n#   strict_isinstance = true\n",
     "case.py:1: settings: section [tool.proxy_types] is not [mypy], [mypy-<modules>] or "
     "[mypy.plugins.proxy_types]"),
    ("# settings:\n#   [mypy]\n#   not a setting\n",
     "case.py:1: settings: Source contains parsing errors: '<string>'"),
    ("# settings:\n#   [mypy]\n#   a = 1\n# settings:\n#   [mypy]\n#   b = 1\n",
     "case.py:4: a second '# settings:' block (one per file)"),
    ("# flags: --strict\n# flags: --strict\n", "case.py:2: a second '# flags:' line"),
    ("x = 1\n# flags:\n", "case.py:2: '# flags:' names no flag"),
])
def test_bad_settings_are_one_line_naming_the_file_and_line(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(CaseError) as raised:
        case_settings(write(tmp_path / "case.py", text))
    assert str(raised.value).startswith(message)
    assert "\n" not in str(raised.value)


def test_merged_config_overrides_removes_and_adds_settings(tmp_path: Path) -> None:
    group = tmp_path / "group"
    group.mkdir()
    config = write(group / "mypy.ini",
                   "[mypy]\nplugins = mypy_plugin\nmypy_path = $MYPY_CONFIG_FILE_DIR/stubs\n"
                   "[mypy.plugins.proxy_types]\nstrict_isinstance = true\nexempt_modules = a\n")
    merged = merged_config(config, "[mypy.plugins.proxy_types]\nstrict_isinstance = false\n"
                                   "exempt_modules =\n[mypy-case]\nwarn_unreachable = true\n")
    parser = configparser.RawConfigParser()
    parser.read_string(merged)
    assert {section: dict(parser.items(section)) for section in parser.sections()} == {
        "mypy": {"plugins": "mypy_plugin", "mypy_path": f"{group.resolve()}/stubs"},
        "mypy.plugins.proxy_types": {"strict_isinstance": "false"},
        "mypy-case": {"warn_unreachable": "true"},
    }


STRICT_LINE = "def relaxed(x: object) -> None:\n    isinstance(x, int)"
RELAXED = ("# settings:\n#   [mypy.plugins.proxy_types]\n#   strict_isinstance = false\n"
           f"{STRICT_LINE}{{marker}}\n")
UNREACHABLE = ("{flags}def after_return() -> None:\n    return\n"
               "    print(1)  # E: [unreachable] Statement is unreachable\n")


def test_per_case_settings_apply_to_their_own_file_only(tmp_path: Path) -> None:
    group = copy_group("strict", tmp_path / "cases")
    cache = tmp_path / "cache"
    # The group's strict_isinstance reports `x: object`; the relaxed file's setting does not.
    write(group / "strict_copy.py", f"{STRICT_LINE}  # E: [proxy-isinstance] ={OBJECT_REPORT}\n")
    write(group / "relaxed.py", RELAXED.format(marker=""))
    write(group / "unreachable.py", UNREACHABLE.format(flags="# flags: --warn-unreachable\n"))
    runs = case_runs("strict", tmp_path / "cases")
    assert [[path.name for path in run.files] for run in runs] == [
        ["strict_cases.py", "strict_copy.py"], ["relaxed.py"], ["unreachable.py"]]
    result = check_group("strict", cache, cases=tmp_path / "cases")
    assert result.problems == []
    assert any(error.path == "unreachable.py" for error in result.actual)

    # Negative: the settings really apply (and only there).
    write(group / "relaxed.py", RELAXED.format(marker="  # E: [proxy-isinstance] object"))
    write(group / "unreachable.py", UNREACHABLE.format(flags=""))
    assert check_group("strict", cache, cases=tmp_path / "cases").problems == [
        "missing  relaxed.py:5: [proxy-isinstance] object",
        "missing  unreachable.py:3: [unreachable] Statement is unreachable",
    ]


GUARDED = ("{settings}from guarded_lib import GuardedNumber\n\n\n"
           "def guarded(g: GuardedNumber) -> None:\n"
           "    int(g)  # E: [proxy-specialize] int() installs a guard\n")


def test_settings_turn_a_plugin_code_on_in_the_plugins_section(tmp_path: Path) -> None:
    # mypy < 2.0 rejects plugin codes in [mypy]; the plugin's own section takes them.
    group = copy_group("guarded", tmp_path / "cases")
    write(group / "specialized.py", GUARDED.format(
        settings="# settings:\n#   [mypy.plugins.proxy_types]\n"
                 "#   enable_error_code = proxy-specialize\n"))
    assert check_group("guarded", tmp_path / "cache", cases=tmp_path / "cases").problems == []
    write(group / "specialized.py", GUARDED.format(settings=""))
    assert check_group("guarded", tmp_path / "cache", cases=tmp_path / "cases").problems == [
        "missing  specialized.py:5: [proxy-specialize] int() installs a guard"]


def test_settings_in_a_pyproject_group_are_one_line(tmp_path: Path) -> None:
    group = copy_group("pyproject", tmp_path / "cases")
    write(group / "relaxed.py", RELAXED.format(marker=""))
    result = check_group("pyproject", tmp_path / "cache", cases=tmp_path / "cases")
    assert result.failed
    assert result.problems == ["pyproject: per-case settings need a group whose config is a "
                               "mypy.ini, not pyproject.toml"]


def test_settings_mypy_rejects_fail_the_group_with_mypys_line(tmp_path: Path) -> None:
    group = copy_group("strict", tmp_path / "cases")
    write(group / "bad.py", "# settings:\n#   [mypy.plugins.proxy_types]\n#   colour = red\n")
    result = check_group("strict", tmp_path / "cache", cases=tmp_path / "cases")
    assert result.failed and len(result.problems) == 1
    assert result.problems[0].startswith("mypy failed on bad.py: ")
    assert 'unknown setting "colour"' in result.problems[0]


# -- --update ------------------------------------------------------------------------------


def run_cases(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(Path(__file__).with_name("run_cases.py")), *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def spoil_strict_cases(group: Path) -> tuple[Path, str]:
    """strict_cases.py with one marker dropped, one wrong, one stale and one fragment that
    still matches; returns the file and its text before."""
    case = group / "strict_cases.py"
    before = case.read_text()
    lines = before.splitlines(keepends=True)
    assert "# E: [proxy-isinstance]" in lines[9] and "# E: [proxy-isinstance]" in lines[10]
    lines[9] = lines[9].split("  # E:")[0] + "\n"
    lines[10] = lines[10].split("  # E:")[0] + "  # E: [proxy-isinstance] never said\n"
    lines[11] = lines[11].rstrip("\n") + "  # E: [proxy-isinstance] stale  # keep this note\n"
    lines.append("    isinstance(x, float)  # E: [proxy-isinstance] dynamic number\n")
    case.write_text("".join(lines))
    return case, before


def test_update_rewrites_the_markers_from_a_real_mypy_run(tmp_path: Path) -> None:
    group = copy_group("strict", tmp_path)
    case, before = spoil_strict_cases(group)
    spoiled = run_cases("--cases", str(tmp_path), "strict")
    assert spoiled.returncode == 1
    assert "strict: 4 mismatches" in spoiled.stdout

    updated = run_cases("--update", "--cases", str(tmp_path), "strict")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    assert updated.stdout.splitlines()[0] == (
        "strict: updated strict_cases.py: 2 markers added, 2 removed")
    lines = case.read_text().splitlines()
    old = before.splitlines()
    assert lines[9] == old[9].split("  # E:")[0] + f"  # E: [proxy-isinstance] {OBJECT_REPORT}"
    assert lines[10].startswith(old[10].split("  # E:")[0] + "  # E: [proxy-isinstance] ")
    assert "never said" not in lines[10] and '"Any"' in lines[10]
    assert lines[11] == old[11] + "  # keep this note"
    assert lines[-1] == "    isinstance(x, float)  # E: [proxy-isinstance] dynamic number"
    assert len(lines) == len(old) + 1

    again = run_cases("--cases", str(tmp_path), "strict")
    assert again.returncode == 0, again.stdout
    assert again.stdout.startswith("strict: ok")


def test_update_leaves_files_that_match_untouched(tmp_path: Path) -> None:
    group = copy_group("strict", tmp_path)
    before = (group / "strict_cases.py").read_text()
    result = run_cases("--update", "--cases", str(tmp_path), "strict")
    assert result.returncode == 0 and result.stdout.startswith("strict: ok"), result.stdout
    assert (group / "strict_cases.py").read_text() == before


def test_update_cases_option_of_pytest(tmp_path: Path) -> None:
    group = copy_group("strict", tmp_path)
    spoil_strict_cases(group)
    pytest_run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                  "tests/plugin/test_plugin.py::test_case_files[strict]"]
    env = {**os.environ, "PYTHONPATH": str(REPO), "PROXY_TYPES_CASES": str(tmp_path)}

    def run(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*pytest_run, *extra], capture_output=True, text=True, cwd=REPO,
                              env=env, timeout=300)

    assert "missing  strict_cases.py:11" in run().stdout
    updating = run("--update-cases")
    assert updating.returncode == 1  # a rewrite fails once
    assert "updated strict_cases.py: 2 markers added, 2 removed" in updating.stdout
    passing = run()
    assert passing.returncode == 0, passing.stdout


def result_of(files: list[Path], mypy_stdout: str, *, plugin_codes_only: bool) -> GroupResult:
    expected, actual = expected_errors(files), actual_errors(mypy_stdout)
    if plugin_codes_only:
        expected = [e for e in expected if e.code.startswith("proxy-")]
        actual = [a for a in actual if a.code.startswith("proxy-")]
    return GroupResult(expected, actual, mismatches(expected, actual))


@pytest.mark.parametrize("plugin_codes_only", [True, False])
def test_update_with_plugin_codes_only_keeps_mypys_own_markers(
    tmp_path: Path, plugin_codes_only: bool
) -> None:
    group = tmp_path / "group"
    group.mkdir()
    case = write(group / "case.py",
                 "x = f(p)  # E: [arg-type] old wording  # E: [proxy-cast] gone\r\ny = 1\r\n")
    output = ("case.py:1: error: new wording  [arg-type]\n"
              "case.py:2: error: int() turns  [proxy-concretize]\n")
    changed, left = update_group("group", result_of([case], output,
                                                    plugin_codes_only=plugin_codes_only),
                                 plugin_codes_only=plugin_codes_only, cases=tmp_path)
    assert left == []
    assert changed == [f"updated case.py: {1 if plugin_codes_only else 2} markers added, "
                       f"{1 if plugin_codes_only else 2} removed"]
    kept = "  # E: [arg-type] old wording" if plugin_codes_only else ""
    added = "" if plugin_codes_only else "  # E: [arg-type] new wording"
    assert case.read_bytes().decode() == (f"x = f(p){kept}{added}\r\n"
                                          "y = 1  # E: [proxy-concretize] int() turns\r\n")


@pytest.mark.parametrize("message", [
    "a plain message",
    "= starts like a full-message marker",
    "/reads like a regex/",
    'holds a # and "quotes" (and [brackets])',
])
def test_the_marker_update_writes_matches_its_message_only(tmp_path: Path, message: str) -> None:
    error = Actual("case.py", 1, "misc", message)
    case = write(tmp_path / "case.py", f"x = 1  {marker_for(error)}\n")
    expected = expected_errors([case])
    assert len(expected) == 1 and expected[0].matches(message)
    assert not expected[0].matches("another message")
    assert mismatches(expected, [error]) == []


def test_update_removes_a_marker_only_line_and_keeps_the_line(tmp_path: Path) -> None:
    group = tmp_path / "group"
    group.mkdir()
    case = write(group / "case.py", "# E: [proxy-config] gone\nx = 1\n")
    changed, left = update_group("group", result_of([case], "", plugin_codes_only=False),
                                 cases=tmp_path)
    assert changed == ["updated case.py: 0 markers added, 1 removed"] and left == []
    assert case.read_text() == "\nx = 1\n"


def test_a_setting_mypy_ignores_with_a_warning_fails_the_group(tmp_path: Path) -> None:
    group = copy_group("strict", tmp_path / "cases")
    # mypy warns on stderr and goes on without the section: the case would test nothing.
    write(group / "ignored.py", "# settings:\n#   [mypy-ignored_*]\n#   warn_unreachable = true\n")
    result = check_group("strict", tmp_path / "cache", cases=tmp_path / "cases")
    assert result.failed and len(result.problems) == 1
    assert result.problems[0].startswith("mypy failed on ignored.py: ")
    assert "[mypy-ignored_*]: Patterns must be fully-qualified module names" in result.problems[0]
