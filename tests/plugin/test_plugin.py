"""Real mypy runs of the plugin on the case files in ``cases/``.

Each ``# E: [code] text`` marker in a case file expects exactly one error with
that code on its line whose message contains ``text`` (or is ``=text``, or
matches ``/regex/``); every other error fails.  ``--update-cases`` rewrites
the markers from mypy's output (tests/plugin/cases_harness.py).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from mypy import api as mypy_api
from mypy.version import __version__ as mypy_version


from tests.plugin.cases_harness import (
    CASES,
    GROUPS,
    NUMPY_GROUPS,
    TORCH_GROUPS,
    Actual,
    Expected,
    actual_errors,
    case_files,
    check_group,
    expected_errors,
    group_errors,
    mismatches,
    run_group,
    update_group,
)

REPO = Path(__file__).resolve().parents[2]


def test_harness_reports_missing_and_unexpected_errors(tmp_path: Path) -> None:
    case = tmp_path / "case.py"
    case.write_text("x = 1  # E: [proxy-concretize] int() turns\ny = 2\n")
    expected = expected_errors([case])
    assert expected == [Expected("case.py", 1, "proxy-concretize", "int() turns")]
    right = actual_errors("case.py:1: error: int() turns dynamic  [proxy-concretize]\n")
    assert mismatches(expected, right) == []
    wrong_line = actual_errors("case.py:2: error: int() turns dynamic  [proxy-concretize]\n")
    assert mismatches(expected, wrong_line) == [
        "missing  case.py:1: [proxy-concretize] int() turns",
        "unexpected case.py:2: [proxy-concretize] int() turns dynamic",
    ]
    with pytest.raises(AssertionError, match="unparsed mypy error line"):
        actual_errors("case.py: error: something odd\n")


def run_mypy(group: str, cache_dir: Path, *extra: str) -> tuple[str, str, int]:
    """mypy in this process on every case file of ``group``."""
    result: tuple[str, str, int] = run_group(group, cache_dir, *extra)
    return result


@pytest.mark.parametrize("group", sorted(GROUPS))
def test_case_files(group: str, mypy_cache_dir: Path, request: pytest.FixtureRequest) -> None:
    if group in TORCH_GROUPS:
        pytest.importorskip("torch")
    if group in NUMPY_GROUPS:
        pytest.importorskip("numpy")
        pytest.importorskip("torch")
    result = check_group(group, mypy_cache_dir)
    problems = result.problems
    if request.config.getoption("--update-cases"):
        changed, problems = update_group(group, result)
        problems = changed + problems  # a rewrite fails once: review the diff, run again
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("group", sorted(TORCH_GROUPS))
def test_warm_cache_gives_same_output(group: str, mypy_cache_dir: Path) -> None:
    pytest.importorskip("torch")
    first = group_errors(group, mypy_cache_dir)
    warm = group_errors(group, mypy_cache_dir)  # every module now comes from the cache
    # mypy may list cached and rechecked modules in a different order
    assert sorted(map(repr, first)) == sorted(map(repr, warm))
    problems = mismatches(expected_errors(case_files(group)), warm)
    assert not problems, "\n".join(problems)


def run_mypy_subprocess(group: str, cache_dir: Path, *extra: str) -> str:
    """mypy in a fresh interpreter (its worker processes must import the plugin too)."""
    config = CASES / group / GROUPS[group]
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
         str(cache_dir), "--no-error-summary", *extra,
         *[path.name for path in case_files(group)]],
        capture_output=True, text=True, cwd=CASES / group, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    return result.stdout


@pytest.mark.parametrize("group", ["configured", "traced", "calls"])
def test_parallel_workers_match_sequential(group: str, tmp_path: Path) -> None:
    if group in TORCH_GROUPS:
        pytest.importorskip("torch")
    sequential = run_mypy_subprocess(group, tmp_path / "seq")
    parallel = run_mypy_subprocess(group, tmp_path / "par", "--num-workers", "2")
    assert actual_errors(sequential)
    assert sorted(map(repr, actual_errors(parallel))) == sorted(
        map(repr, actual_errors(sequential)))


def test_dmypy_matches_plain_mypy_and_follows_config_changes(
    tmp_path: Path, mypy_cache_dir: Path
) -> None:
    plain = run_mypy("strict", mypy_cache_dir)
    workdir = tmp_path / "project"
    shutil.copytree(CASES / "strict", workdir)
    config = workdir / "mypy.ini"
    config.write_text(config.read_text().replace("$MYPY_CONFIG_FILE_DIR/../../../../stubs",
                                                 str(REPO / "stubs")))
    dmypy = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / "dmypy.json")]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    check = [*dmypy, "run", "--", "--config-file", str(config), "--no-error-summary",
             *[path.name for path in case_files("strict")]]
    try:
        strict = subprocess.run(check, capture_output=True, text=True, cwd=workdir, env=env,
                                timeout=300)
        config.write_text(config.read_text().replace("strict_isinstance = true",
                                                     "strict_isinstance = false"))
        relaxed = subprocess.run(check, capture_output=True, text=True, cwd=workdir, env=env,
                                 timeout=300)
    finally:
        subprocess.run([*dmypy, "stop"], capture_output=True, env=env, timeout=60)
    assert "Traceback" not in strict.stderr + relaxed.stderr
    assert actual_errors(strict.stdout) == actual_errors(plain[0])
    assert actual_errors(strict.stdout)
    assert actual_errors(relaxed.stdout) == []


def test_cached_run_follows_config_changes(tmp_path: Path) -> None:
    workdir = tmp_path / "project"
    shutil.copytree(CASES / "strict", workdir)
    config = workdir / "mypy.ini"
    config.write_text(config.read_text().replace("$MYPY_CONFIG_FILE_DIR/../../../../stubs",
                                                 str(REPO / "stubs")))
    cache = tmp_path / "cache"

    def check() -> list[Actual]:
        cwd = os.getcwd()
        os.chdir(workdir)
        try:
            stdout, _, _ = mypy_api.run(["--config-file", str(config), "--cache-dir", str(cache),
                                         *[path.name for path in case_files("strict")]])
        finally:
            os.chdir(cwd)
        return actual_errors(stdout)

    assert [error.code for error in check()] == ["proxy-isinstance"] * 2
    config.write_text(config.read_text().replace("strict_isinstance = true",
                                                 "strict_isinstance = false"))
    assert check() == []


BAD_CONFIGS = [
    ("mypy.ini", "[mypy.plugins.proxy_types]\ncolour = red\n", 'unknown setting "colour"'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nstrict_isinstance = maybe\n",
     'strict_isinstance: expected true or false, got "maybe"'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ndynamic_number_classes = SymInt\n",
     'dynamic_number_classes: "SymInt" is not a fully qualified class name'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ndynamic_number_classes = pkg.9Bad\n",
     '"pkg.9Bad" is not a fully qualified class name'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nexempt_modules = a b\n",
     'exempt_modules: "a b" is not a module name'),
    ("pyproject.toml", "[tool.proxy_types]\nstrict_isinstance = 'yes'\n",
     'strict_isinstance: expected true or false, got "yes"'),
    ("pyproject.toml", "[tool.proxy_types]\ndynamic_number_classes = 'pkg.A'\n",
     "dynamic_number_classes: expected a list of strings, got 'pkg.A'"),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nmigrate_classes = NumberProxy\n",
     'migrate_classes: "NumberProxy" is not a fully qualified class name'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nisinstance_functions = pkg.check:0\n",
     'isinstance_functions: "pkg.check:0" is not pkg.mod.function or '
     "pkg.mod.function:VALUE_INDEX:CLASSES_INDEX"),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nisinstance_functions = check_type\n",
     'isinstance_functions: "check_type" is not pkg.mod.function'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nisinstance_functions = pkg.check:1:1\n",
     'isinstance_functions: "pkg.check:1:1" uses argument 1 for both the value and the classes'),
    ("pyproject.toml", "[tool.proxy_types]\nisinstance_functions = ['pkg.check:a:b']\n",
     'isinstance_functions: "pkg.check:a:b" is not pkg.mod.function'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ntraced_functions = layer_norm\n",
     'traced_functions: "layer_norm" is not a function name pattern like pkg.mod.*'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ntraced_functions = @register\n",
     'traced_functions: "@register" is not a function name pattern'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ntraced_functions = pkg.*, !@pkg.register\n",
     'traced_functions: "!@pkg.register" is not a function name pattern'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ntraced_functions = pkg.a, , pkg.b\n",
     "traced_functions: empty entry"),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ntraced_functions =\n    pkg.*,\n    pkg.*\n",
     'traced_functions: "pkg.*" is listed twice'),
    ("pyproject.toml", "[tool.proxy_types]\ntraced_functions = 'pkg.*'\n",
     "traced_functions: expected a list of strings, got 'pkg.*'"),
    ("pyproject.toml", "[tool.proxy_types]\ntraced_functions = ['pkg.*', '']\n",
     "traced_functions: empty entry"),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nsymbolic_shapes = sometimes\n",
     'symbolic_shapes: expected true or false, got "sometimes"'),
    ("pyproject.toml", "[tool.proxy_types]\nsymbolic_shapes = 1\n",
     'symbolic_shapes: expected true or false, got "1"'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nstatic_only_aliases = IntWithoutSymInt\n",
     'static_only_aliases: "IntWithoutSymInt" is not a fully qualified class name'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nstatic_only_aliases = pkg.A, pkg.A\n",
     'static_only_aliases: "pkg.A" is listed twice'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nstatic_parameters = pkg.dim\n",
     'static_parameters: "pkg.dim" is not a parameter name or pattern like dim or *_dim'),
    ("pyproject.toml", "[tool.proxy_types]\nstatic_parameters = ['dim', 'dim']\n",
     'static_parameters: "dim" is listed twice'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nguarded_number_classes = pkg.Guarded\n"
     "dynamic_number_classes = pkg.Other\n",
     'guarded_number_classes: "pkg.Guarded" is not listed in dynamic_number_classes'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nguarded_number_classes = Guarded\n",
     'guarded_number_classes: "Guarded" is not a fully qualified class name'),
    ("pyproject.toml", "[tool.proxy_types]\nguarded_number_classes = 'pkg.A'\n",
     "guarded_number_classes: expected a list of strings, got 'pkg.A'"),
    ("mypy.ini", "[mypy.plugins.proxy_types]\nconcretizing_functions = pyval\n",
     'concretizing_functions: "pyval" is not a fully qualified function name'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ntracers =\n    compile,\n    jit\n",
     'tracers: "jit" is not a torch tracer (known: make_fx, export, compile)'),
    ("pyproject.toml", "[tool.proxy_types]\ntracers = ['export', 'torch.compile']\n",
     'tracers: "torch.compile" is not a torch tracer'),
    ("mypy.ini", "[mypy.plugins.proxy_types]\ntracers = compile, compile\n",
     'tracers: "compile" is listed twice'),
    ("pyproject.toml", "[tool.proxy_types]\ntracers = []\n",
     "tracers: names no tracer; list those the project runs"),
    ("pyproject.toml", "[tool.proxy_types]\ntracers = 'compile'\n",
     "tracers: expected a list of strings, got 'compile'"),
]


@pytest.mark.parametrize(("config_name", "section", "message"), BAD_CONFIGS)
def test_bad_config_is_one_line_and_exit_2(
    tmp_path: Path, config_name: str, section: str, message: str
) -> None:
    mypy_section = ('[tool.mypy]\nplugins = ["mypy_plugin"]\n' if config_name.endswith(".toml")
                    else "[mypy]\nplugins = mypy_plugin\n")
    config = tmp_path / config_name
    config.write_text(mypy_section + section)
    (tmp_path / "sample.py").write_text("x = 1\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
         str(tmp_path / "cache"), "sample.py"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    # At the line of the value quoted in the message, else of the setting.
    quoted = re.search(r'"([^"]*)"', message)
    needle = quoted.group(1) if quoted else message.partition(":")[0]
    line = next(number for number, text in enumerate(config.read_text().splitlines(), 1)
                if number > 2 and needle in text)
    assert lines[0].startswith(f"{config}:{line}: error: [proxy_types] ")
    assert message in lines[0]


def test_good_config_is_accepted(tmp_path: Path) -> None:
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nplugins = mypy_plugin\n[mypy.plugins.proxy_types]\n"
                      "strict_isinstance = yes\nguarded_number_classes = a.B\n"
                      "dynamic_number_classes = a.B, a.C\nexempt_modules = pkg.*\n"
                      "concretizing_functions = a.pyval\n"
                      "traced_functions =\n    pkg.ops.*,\n    @pkg.register,\n"
                      "    pkg.meta._[a-z]*_meta,\nsymbolic_shapes = on\n"
                      "static_only_aliases = pkg.IntOnly\nstatic_parameters = dim, *_dim\n")
    (tmp_path / "sample.py").write_text("x = 1\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
         str(tmp_path / "cache"), "sample.py"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stdout + result.stderr


def test_loading_the_plugin_does_not_import_torch(tmp_path: Path) -> None:
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n")
    (tmp_path / "sample.py").write_text(
        "from proxy_types import IntegerProxy\n"
        "def f(p: IntegerProxy) -> None:\n    isinstance(p, int)\n")
    driver = textwrap.dedent(f"""
        import sys
        from mypy import api
        out, err, code = api.run(["--config-file", "mypy.ini", "--cache-dir",
                                  {str(tmp_path / 'cache')!r}, "sample.py"])
        print(out)
        print("plugin loaded:", "mypy_plugin.main" in sys.modules)
        print("torch imported:", "torch" in sys.modules)
    """)
    result = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert "[proxy-isinstance]" in result.stdout, result.stdout + result.stderr
    assert "plugin loaded: True" in result.stdout
    assert "torch imported: False" in result.stdout


# -- the oldest tested mypy: .ci/run runs run_cases.py in a venv of its own ------------


def run_cases_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(Path(__file__).with_name("run_cases.py")), *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def test_run_cases_script_passes_matching_groups() -> None:
    result = run_cases_script("--plugin-codes-only", "strict", "trials")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [f"strict: ok (mypy {mypy_version})",
                                          f"trials: ok (mypy {mypy_version})"]


def test_run_cases_script_fails_on_a_missing_finding(tmp_path: Path) -> None:
    shutil.copytree(CASES / "strict", tmp_path / "strict")
    config = tmp_path / "strict" / "mypy.ini"
    config.write_text(config.read_text().replace("$MYPY_CONFIG_FILE_DIR/../../../../stubs",
                                                 str(REPO / "stubs")))
    case = tmp_path / "strict" / "strict_cases.py"
    case.write_text(case.read_text() + "\nx = 1  # E: [proxy-cast] never reported\n")
    result = run_cases_script("--cases", str(tmp_path), "strict")
    assert result.returncode == 1
    assert "strict: 1 mismatches" in result.stdout
    assert "missing  strict_cases.py" in result.stdout and "never reported" in result.stdout


@pytest.mark.parametrize(("mypy_release", "group", "copied"), [
    ("1.11.2", "traced", True),  # enable_error_code = proxy-specialize
    ("1.11.2", "configured", True),  # disable_error_code = proxy-base
    ("1.11.2", "strict", False),  # no plugin code in its config
    ("2.4.1", "traced", False),  # mypy 2 takes plugin codes in a config file
])
def test_old_mypy_gets_plugin_codes_inline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           mypy_release: str, group: str, copied: bool) -> None:
    import mypy.version

    spec = importlib.util.spec_from_file_location("run_cases", Path(__file__).with_name(
        "run_cases.py"))
    assert spec is not None and spec.loader is not None
    run_cases = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_cases)
    codes_inline = run_cases.codes_inline

    monkeypatch.setattr(mypy.version, "__version__", mypy_release)
    cases = codes_inline(group, CASES, tmp_path)
    assert cases == (tmp_path if copied else CASES)
    if not copied:
        return
    config = (tmp_path / group / "mypy.ini").read_text()
    assert "error_code = proxy-" not in config and "$MYPY_CONFIG_FILE_DIR" not in config
    original = (CASES / group / "mypy.ini").read_text()
    setting = "enable" if "enable_error_code = proxy-" in original else "disable"
    # traced: only the modules of its [mypy-traced_ops,...] section; configured: [mypy], all.
    section = next((line for line in original.splitlines() if line.startswith("[mypy-")), "")
    for case in sorted((tmp_path / group).glob("*.py")):
        before = (CASES / group / case.name).read_text()
        assert case.read_text().startswith(before)  # every line where it was
        applies = setting == "disable" or case.stem in section
        assert case.read_text().splitlines()[-1].startswith(
            f'# mypy: {setting}-error-code="proxy-') == applies, case.name


def test_cached_run_follows_traced_function_changes(tmp_path: Path) -> None:
    """Editing a traced module or the traced_functions setting rechecks what it must."""
    pytest.importorskip("torch")
    project = tmp_path / "project"
    shutil.copytree(CASES / "traced", project)
    config = project / "mypy.ini"
    config.write_text(config.read_text().replace("$MYPY_CONFIG_FILE_DIR/../../../../stubs",
                                                 str(REPO / "stubs")))
    files = [path.name for path in case_files("traced")]

    def check() -> list[Actual]:
        cwd = os.getcwd()
        os.chdir(project)
        try:
            stdout, _, _ = mypy_api.run(["--config-file", str(config), "--cache-dir",
                                         str(tmp_path / "cache"), "--no-error-summary", *files])
        finally:
            os.chdir(cwd)
        return sorted(actual_errors(stdout), key=repr)

    cold = check()
    assert any(error.path == "traced_ops.py" for error in cold)
    ops = project / "traced_ops.py"
    ops.write_text(ops.read_text() + "\n# edited: only this module is rechecked\n")
    assert check() == cold
    config.write_text(config.read_text().replace("    traced_ops.*,\n", ""))
    untraced = check()
    assert not any(error.path == "traced_ops.py" and "traced function" in error.message
                   for error in untraced)
    assert [error for error in untraced if error.path != "traced_ops.py"] == [
        error for error in cold if error.path != "traced_ops.py"]
