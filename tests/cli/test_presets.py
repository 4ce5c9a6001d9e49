"""Presets: one module, ``init`` writes them, ``check --preset`` uses them, the docs show them."""

from __future__ import annotations

import configparser
import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mypy_plugin.cli.init import init_text, parsed_ini_value, target_file
from mypy_plugin.config import ProxyTypesConfig
from mypy_plugin.presets import PRESETS
from mypy_plugin.settings_files import read_toml

RunCli = Callable[..., subprocess.CompletedProcess[str]]  # the run_cli fixture
REPO = Path(__file__).resolve().parents[2]

SPECIALIZING = """\
import torch


def f(n: torch.SymInt) -> int:
    if n > 3:
        return 1
    return int(n)
"""

PYPROJECT = """\
[project]
name = "demo"

[tool.mypy]
strict = true  # the project's own choice
plugins = [
    "pydantic.mypy",
]

[[tool.mypy.overrides]]
module = "legacy.*"
ignore_errors = true

[tool.proxy_types]
symbolic_shapes = false
"""

SETUP_CFG = """\
[metadata]
name = demo

[mypy]
enable_error_code = truthy-bool
# a comment that stays

[flake8]
max-line-length = 99
"""

MYPY_INI = "[mypy]\nwarn_unreachable = False\n"


def init(run_cli: RunCli, project: Path, preset: str) -> subprocess.CompletedProcess[str]:
    return run_cli("init", "--preset", preset, cwd=project)


def plugin_settings(path: Path) -> ProxyTypesConfig:
    return ProxyTypesConfig(str(path), raise_errors=True)


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_preset_written_to_a_new_file_is_the_preset(tmp_path: Path, run_cli: RunCli,
                                                         name: str) -> None:
    (tmp_path / ".git").mkdir()
    result = init(run_cli, tmp_path, name)
    assert result.returncode == 0, result.stderr
    written = tmp_path / "mypy.ini"  # no config: mypy's first name
    assert written.read_text(encoding="utf-8") == PRESETS[name].as_ini()
    assert "+++ b/mypy.ini" in result.stdout
    again = init(run_cli, tmp_path, name)
    assert again.returncode == 0
    assert "already set up" in again.stdout and "+++" not in again.stdout
    assert written.read_text(encoding="utf-8") == PRESETS[name].as_ini()


def test_pyproject_keeps_every_other_setting(tmp_path: Path, run_cli: RunCli) -> None:
    (tmp_path / ".git").mkdir()
    config = tmp_path / "pyproject.toml"
    config.write_text(PYPROJECT, encoding="utf-8")
    result = init(run_cli, tmp_path, "torch-library")
    assert result.returncode == 0, result.stderr
    assert ("pyproject.toml: kept your symbolic_shapes = False (the preset has True)"
            in result.stdout.splitlines())
    text = config.read_text(encoding="utf-8")
    document = read_toml(config)
    mypy = document["tool"]["mypy"]
    assert mypy["strict"] is True and "# the project's own choice" in text
    assert mypy["plugins"] == ["pydantic.mypy", "mypy_plugin"]
    assert "enable_error_code" not in mypy  # in the plugin's table: dmypy rejects it here
    assert document["tool"]["proxy_types"]["enable_error_code"] == ["proxy-specialize"]
    assert mypy["overrides"] == [{"module": "legacy.*", "ignore_errors": True}]
    assert document["project"] == {"name": "demo"}
    settings = plugin_settings(config)
    assert settings.symbolic_shapes is False  # the user's value, kept
    assert settings.traced_functions == PRESETS["torch-library"].plugin["traced_functions"]
    before = config.read_bytes()
    again = init(run_cli, tmp_path, "torch-library")
    assert "already set up" in again.stdout and config.read_bytes() == before


def test_setup_cfg_gets_the_plugin_section(tmp_path: Path, run_cli: RunCli) -> None:
    (tmp_path / ".git").mkdir()
    config = tmp_path / "setup.cfg"
    config.write_text(SETUP_CFG, encoding="utf-8")
    assert init(run_cli, tmp_path, "thunder").returncode == 0
    parser = configparser.RawConfigParser()
    parser.read(config)
    assert parser.get("flake8", "max-line-length") == "99"
    assert parser.get("metadata", "name") == "demo"
    assert parser.get("mypy", "enable_error_code") == "truthy-bool"
    assert parser.get("mypy", "plugins") == "mypy_plugin"
    assert "# a comment that stays" in config.read_text(encoding="utf-8")
    settings = plugin_settings(config)
    assert settings.dynamic_number_classes == ("thunder.core.proxies.NumberProxy",)
    assert settings.concretizing_functions == ("thunder.core.utils.get_numberlike_value",)


def test_mypy_ini_lists_gain_entries_and_values_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "mypy.ini"
    text = "[mypy]\nplugins = other_plugin\nwarn_unreachable = False\n"
    path.write_text(text, encoding="utf-8")
    new, kept = init_text(path, text, PRESETS["migrate"])
    parser = configparser.RawConfigParser()
    parser.read_string(new)
    assert parser.get("mypy", "plugins") == "other_plugin, mypy_plugin"
    assert parser.get("mypy", "warn_unreachable") == "False"
    assert parser.get("mypy", "check_untyped_defs") == "True"
    assert kept == ["kept your warn_unreachable = False (the preset has True)"]
    path.write_text(new, encoding="utf-8")
    assert init_text(path, new, PRESETS["migrate"]) == (new, kept)


def test_the_file_is_chosen_as_mypy_chooses(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "setup.cfg").write_text("[flake8]\nx = 1\n", encoding="utf-8")
    assert target_file(tmp_path) == tmp_path / "mypy.ini"  # setup.cfg without [mypy]
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    assert target_file(tmp_path) == tmp_path / "pyproject.toml"  # exists: gets [tool.mypy]
    (tmp_path / "setup.cfg").write_text("[mypy]\n", encoding="utf-8")
    assert target_file(tmp_path) == tmp_path / "setup.cfg"
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n", encoding="utf-8")
    assert target_file(tmp_path) == tmp_path / "pyproject.toml"  # before setup.cfg
    (tmp_path / ".mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    assert target_file(tmp_path) == tmp_path / ".mypy.ini"
    (tmp_path / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    assert target_file(tmp_path) == tmp_path / "mypy.ini"


def test_unknown_preset_is_one_line(tmp_path: Path, run_cli: RunCli) -> None:
    result = init(run_cli, tmp_path, "tensorflow")
    assert result.returncode == 2 and "tensorflow" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "mypy.ini").exists()


def test_check_preset_shows_what_the_default_hides_and_writes_nothing(
        tmp_path: Path, cli_env: dict[str, str]) -> None:
    pytest.importorskip("torch")
    (tmp_path / ".git").mkdir()
    (tmp_path / "sym.py").write_text(SPECIALIZING, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(MYPY_INI, encoding="utf-8")
    before = sorted(os.listdir(tmp_path))
    result = subprocess.run(
        [sys.executable, "-m", "mypy_plugin", "check", "--cache-dir", str(tmp_path.parent /
         f"{tmp_path.name}-cache"), "--preset", "torch-compile", "sym.py"],
        cwd=tmp_path, env=cli_env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 1, result.stdout + result.stderr
    shown = [line for line in result.stdout.splitlines() if "[proxy-specialize]" in line]
    assert [line.split(":")[1] for line in shown] == ["5", "7"]
    assert "(config: mypy.ini + preset torch-compile)" in result.stdout
    assert "Hidden" not in result.stdout
    assert (tmp_path / "mypy.ini").read_text(encoding="utf-8") == MYPY_INI
    assert sorted(os.listdir(tmp_path)) == before


# -- the docs show the presets -------------------------------------------------

_MARKED_BLOCK = re.compile(r"<!-- preset: ([\w-]+)[^>]*-->\n```ini\n(.*?)^```",
                           re.MULTILINE | re.DOTALL)


def settings_of(ini_text: str) -> dict[str, dict[str, object]]:
    parser = configparser.RawConfigParser()
    parser.read_string(ini_text)
    return {section: {key: parsed_ini_value(key, value) for key, value in parser.items(section)}
            for section in parser.sections()}


def documented_presets() -> list[tuple[str, str, str]]:
    found = []
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        for name, block in _MARKED_BLOCK.findall(path.read_text(encoding="utf-8")):
            found.append((path.name, name, block))
    return found


def test_every_preset_is_in_the_docs() -> None:
    assert {name for _, name, _ in documented_presets()} == set(PRESETS)


@pytest.mark.parametrize(("doc", "name", "block"), documented_presets())
def test_documented_block_is_the_preset(doc: str, name: str, block: str) -> None:
    assert settings_of(block) == settings_of(PRESETS[name].as_ini()), f"{doc}: preset {name}"


# -- check --preset looks up the preset's own names ------------------------------

#: A stand-in thunder that defines every name the thunder preset lists.
THUNDER_MODULES = {
    "thunder/__init__.py": "",
    "thunder/core/__init__.py": "",
    "thunder/core/proxies.py": "class NumberProxy:\n    pass\n",
    "thunder/core/baseutils.py": "def check_type(x: object, types: object) -> None:\n"
                                 "    pass\n",
    "thunder/core/utils.py": "def get_numberlike_value(x: object) -> object:\n    return x\n",
}
USES_THUNDER = """\
from thunder.core.proxies import NumberProxy


def f(n: NumberProxy | float) -> bool:
    return isinstance(n, float)
"""


def check_preset(run_cli: RunCli, project: Path, preset: str
                 ) -> subprocess.CompletedProcess[str]:
    return run_cli("check", "--preset", preset, "app.py", cwd=project)


@pytest.mark.parametrize("preset", sorted(name for name, preset in PRESETS.items()
                                          if "thunder" in str(preset.plugin)
                                          or "jax" in str(preset.plugin)))
def test_check_preset_naming_a_missing_library_says_so_once(
        tmp_path: Path, run_cli: RunCli, preset: str) -> None:
    package = "jax" if "jax" in str(PRESETS[preset].plugin) else "thunder"
    assert importlib.util.find_spec(package) is None  # not installed in the test venv
    (tmp_path / ".git").mkdir()
    (tmp_path / "app.py").write_text("x = 1\n", encoding="utf-8")
    result = check_preset(run_cli, tmp_path, preset)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        line for line in result.stderr.splitlines() if f'names module "{package}"' in line]
    assert len(result.stderr.splitlines()) == 1


def test_check_preset_with_the_library_present_validates_and_runs(
        tmp_path: Path, run_cli: RunCli) -> None:
    (tmp_path / ".git").mkdir()
    for name, text in {**THUNDER_MODULES, "app.py": USES_THUNDER}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = check_preset(run_cli, tmp_path, "thunder")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "[proxy-isinstance]" in result.stdout and "names module" not in result.stderr
    assert "[proxy-config]" not in result.stdout
    # A name the library lacks: one line naming the entry, and no run.
    (tmp_path / "thunder/core/utils.py").write_text("x = 1\n", encoding="utf-8")
    broken = check_preset(run_cli, tmp_path, "thunder")
    assert broken.returncode == 2 and broken.stdout == ""
    assert broken.stderr.splitlines() == [
        'proxy-types: error: preset thunder: concretizing_functions entry '
        '"thunder.core.utils.get_numberlike_value": no such function in module '
        '"thunder.core.utils" (module has no attribute "get_numberlike_value"); check the '
        "spelling"]


# -- names that could not be looked up are said to be unchecked ------------------

#: mypy settings its module finder cannot be set up with, and what mypy says of each.
UNUSABLE_SETTINGS = {
    "missing executable": ("python_executable = /nonexistent/python",
                           "Invalid python executable '/nonexistent/python'"),
    "failing executable": ("python_executable = /bin/false",
                           "/bin/false failed to list its search path (exit status 1)"),
}


@pytest.mark.parametrize("case", sorted(UNUSABLE_SETTINGS))
def test_module_finder_says_why_it_cannot_be_set_up(tmp_path: Path, case: str) -> None:
    from mypy_plugin.cli.settings_check import FinderUnavailable, ModuleFinder

    setting, said = UNUSABLE_SETTINGS[case]
    (tmp_path / "mypy.ini").write_text(f"[mypy]\n{setting}\n", encoding="utf-8")
    with pytest.raises(FinderUnavailable, match=re.escape(said)):
        ModuleFinder(tmp_path / "mypy.ini", [])
    with pytest.raises(FinderUnavailable, match="Cannot find config file"):
        ModuleFinder(tmp_path / "missing.ini", [])
    (tmp_path / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    assert ModuleFinder(tmp_path / "mypy.ini", []).path("re") is not None  # and no paths


def test_check_preset_whose_names_cannot_be_looked_up_says_so_once(
        tmp_path: Path, run_cli: RunCli) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "app.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\npython_executable = /nonexistent/python\n",
                                       encoding="utf-8")
    result = check_preset(run_cli, tmp_path, "thunder")
    unchecked = [line for line in result.stderr.splitlines() if "were not checked" in line]
    assert "Traceback" not in result.stderr and result.returncode != 0
    assert len(unchecked) == 1, result.stderr
    assert unchecked[0].startswith("proxy-types: warning: preset thunder: its ")
    assert "Invalid python executable '/nonexistent/python'" in unchecked[0]
    assert 'names module "thunder"' not in result.stderr  # not looked up, so not "missing"
    # A usable config: the names are looked up (thunder is missing here), no such line.
    (tmp_path / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    checked = check_preset(run_cli, tmp_path, "thunder")
    assert "were not checked" not in checked.stderr
    assert 'names module "thunder"' in checked.stderr
