"""Settings entries that do not resolve are reported at the settings' lines, in every run."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from mypy_plugin.settings_files import entry_line, setting_line

RunCli = Callable[..., subprocess.CompletedProcess[str]]  # the run_cli fixture

TRACING = """\
class Proxy:
    pass


def helper() -> None:
    pass
"""

BUGS = """\
from mylib.tracing import Proxy


def f(p: Proxy | float) -> bool:
    return isinstance(p, float)
"""

PYPROJECT = """\
[tool.mypy]
plugins = ["mypy_plugin"]

[tool.proxy_types]
strict_isinstance = false
dynamic_number_classes = [
    "mylib.tracing.Proxy",
    "mylib.tracing.Nope",
]
"""

INI_PLUGIN_SECTION = """\
[mypy.plugins.proxy_types]
strict_isinstance = False
dynamic_number_classes =
    mylib.tracing.Proxy,
    mylib.tracing.Nope
"""

NOPE = ('dynamic_number_classes entry "mylib.tracing.Nope": no such class in module '
        '"mylib.tracing" (module has no attribute "Nope"); check the spelling  [proxy-config]')


def project(tmp_path: Path, config_name: str, config: str) -> Path:
    (tmp_path / "mylib").mkdir()
    for name, text in {"mylib/__init__.py": "", "mylib/tracing.py": TRACING,
                       "mylib/bugs.py": BUGS, "mylib/other.py": "x = 1\n",
                       config_name: config}.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def config_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if "[proxy-config]" in line]


@pytest.mark.parametrize(("config_name", "config", "line"), [
    ("pyproject.toml", PYPROJECT, 8),
    ("mypy.ini", "[mypy]\nplugins = mypy_plugin\n\n" + INI_PLUGIN_SECTION, 8),
    ("setup.cfg", "[metadata]\nname = mylib\n\n[mypy]\nplugins = mypy_plugin\n\n"
     + INI_PLUGIN_SECTION, 11),
])
def test_a_typo_is_reported_at_the_settings_line_in_every_run(
        tmp_path: Path, run_cli: RunCli, config_name: str, config: str, line: int) -> None:
    root = project(tmp_path, config_name, config)
    cache = str(tmp_path / "cache")
    # other.py imports nothing from mylib.tracing: the plugin alone would stay silent.
    for run in range(2):  # cold, then warm
        result = run_cli("check", "--cache-dir", cache, "mylib/other.py", cwd=root, cache=False)
        assert result.returncode == 1, (run, result.stdout, result.stderr)
        assert config_lines(result.stdout) == [f"{config_name}:{line}:1: error: {NOPE}"]
    everything = run_cli("check", "--cache-dir", cache, "mylib", cwd=root, cache=False)
    # Once, at the settings: not again at line 1 of bugs.py, which imports the module.
    assert config_lines(everything.stdout) == [f"{config_name}:{line}:1: error: {NOPE}"]
    assert "[proxy-isinstance]" in everything.stdout  # the good entry works


def test_correct_entries_give_no_config_finding(tmp_path: Path, run_cli: RunCli) -> None:
    root = project(tmp_path, "pyproject.toml", PYPROJECT.replace('    "mylib.tracing.Nope",\n', ""))
    result = run_cli("check", "mylib/other.py", cwd=root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert config_lines(result.stdout) == []


def test_missing_module_and_wrong_kinds_are_reported(tmp_path: Path, run_cli: RunCli) -> None:
    config = PYPROJECT.replace('    "mylib.tracing.Nope",\n', '    "mylib.tracing.helper",\n'
                               '    "mylib.tracing",\n    "otherlib.Thing",\n')
    config += 'concretizing_functions = ["mylib.tracing.pyval"]\n'
    root = project(tmp_path, "pyproject.toml", config)
    result = run_cli("check", "mylib/other.py", cwd=root)
    assert config_lines(result.stdout) == [
        'pyproject.toml:8:1: error: dynamic_number_classes entry "mylib.tracing.helper" is a '
        'function, not a class; list classes only  [proxy-config]',
        'pyproject.toml:9:1: error: dynamic_number_classes entry "mylib.tracing" is a module, '
        'not a class; list classes only  [proxy-config]',
        'pyproject.toml:10:1: error: dynamic_number_classes entry "otherlib.Thing": cannot find '
        'module "otherlib"; install it where mypy runs, or add its directory to mypy_path  '
        '[proxy-config]',
        'pyproject.toml:12:1: error: concretizing_functions entry "mylib.tracing.pyval": no such '
        'function in module "mylib.tracing" (module has no attribute "pyval"); check the '
        'spelling  [proxy-config]',
    ]
    assert result.returncode == 1


def test_entry_line_finds_the_entry_else_the_setting(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.mypy]\ndynamic_number_classes = ["a.B"]\n\n[tool.proxy_types]\n'
                      'migrate_classes = ["a.B"]\ndynamic_number_classes = ["a.B",\n  "a.BB"]\n'
                      "strict_isinstance = true\n", encoding="utf-8")
    assert entry_line(config, "dynamic_number_classes", "a.B") == 6
    assert entry_line(config, "dynamic_number_classes", "a.BB") == 7
    assert entry_line(config, "migrate_classes", "a.B") == 5
    assert entry_line(config, "dynamic_number_classes", "a.C") == 6  # the setting's line
    assert entry_line(config, "audit_classes", "a.B") == 1


# -- format errors: an unknown key or a malformed value, at its line -----------------

FORMAT_CASES = {
    "pyproject.toml": ('[tool.mypy]\nplugins = ["mypy_plugin"]\n\n[tool.proxy_types]\n'
                       'dynamic_number_classes = [\n    "mylib.tracing.Proxy",\n{bad}]\n'),
    "setup.cfg": ("[metadata]\nname = mylib\n\n[mypy]\nplugins = mypy_plugin\n\n"
                  "[mypy.plugins.proxy_types]\ndynamic_number_classes =\n"
                  "    mylib.tracing.Proxy,\n{bad}\n"),
    "mypy.ini": ("[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
                 "dynamic_number_classes =\n    mylib.tracing.Proxy,\n{bad}\n"),
}
#: (the bad text for TOML, for ini, a text of the bad line, and what the one line must
#: say: the key and the value)
BAD_SETTINGS = [
    ('    "Proxy",\n', "    Proxy", "Proxy",
     'dynamic_number_classes: "Proxy" is not a fully qualified'),
    ('    "my lib.X",\n', "    my lib.X", "my lib.X",
     'dynamic_number_classes: "my lib.X" is not a fully qualified'),
    ('    "mylib.other.X",\n]\nsymbolic_shapes = "sometimes"\n[tool.x',
     "symbolic_shapes = sometimes", "sometimes",
     'symbolic_shapes: expected true or false, got "sometimes"'),
    ('    "mylib.other.X",\n]\nstrict_isinstnce = true\n[tool.x',
     "strict_isinstnce = true", "strict_isinstnce",
     'unknown setting "strict_isinstnce" = true (known: '),
]


@pytest.mark.parametrize("config_name", sorted(FORMAT_CASES))
@pytest.mark.parametrize(("toml_bad", "ini_bad", "marker", "says"), BAD_SETTINGS)
def test_a_format_error_names_the_settings_line_once(
        tmp_path: Path, run_cli: RunCli, cli_env: dict[str, str], config_name: str,
        toml_bad: str, ini_bad: str, marker: str, says: str) -> None:
    bad = toml_bad if config_name.endswith(".toml") else ini_bad
    config = FORMAT_CASES[config_name].format(bad=bad)
    root = project(tmp_path, config_name, config)
    line = max(number for number, text in enumerate(config.splitlines(), 1) if marker in text)
    result = run_cli("check", "mylib/other.py", cwd=root)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    shown = [text for text in (result.stdout + result.stderr).splitlines() if "proxy_types" in text]
    assert len(shown) == 1, shown
    assert shown[0].startswith(f"proxy-types: error: broken config {config_name}:{line}: "
                               "[proxy_types] ") and says in shown[0], shown
    # Plain mypy with the plugin: the same place, once.
    plain = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "c"),
                            "mylib/other.py"], cwd=root, env=cli_env,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 2
    errors = [text for text in (plain.stdout + plain.stderr).splitlines() if "error" in text]
    assert len(errors) == 1 and errors[0].startswith(
        f"{config_name}:{line}: error: [proxy_types] "), plain.stderr
    assert says in errors[0]


def test_setting_line_finds_keys_in_each_format(tmp_path: Path) -> None:
    toml = tmp_path / "pyproject.toml"
    toml.write_text('[tool.proxy_types.x]\na = 1\n[tool.proxy_types]\n"a" = 1\nb = [\n  "c",\n]\n'
                    "[tool.other]\nd = 1\n", encoding="utf-8")
    assert setting_line(toml, "a") == 4
    assert setting_line(toml, "b", "c") == 6
    assert setting_line(toml, "b", "nope") == 5
    assert setting_line(toml, "d") is None  # another table's key
    assert setting_line(toml, None) == 3  # the table's header
    ini = tmp_path / "setup.cfg"
    ini.write_text("[mypy]\nA = 1\n[mypy.plugins.proxy_types]\nB = x,\n  a.b\nc: y\n",
                   encoding="utf-8")
    assert setting_line(ini, "b", "a.b") == 5  # ini keys are read in lower case
    assert setting_line(ini, "c") == 6
    assert setting_line(ini, "a") is None
    assert setting_line(tmp_path / "missing.ini", "a") is None
