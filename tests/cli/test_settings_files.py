"""One reader of INI and TOML settings files for the plugin and the command line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mypy_plugin.cli.common import CommandLineError
from mypy_plugin.cli.project_config import read_project_config
from mypy_plugin.config import ProxyTypesConfig
from mypy_plugin.settings_files import MalformedFile, UnreadableFile, read_ini, read_toml
from proxy_types import ConfigurationError

PACKAGE = Path(__file__).resolve().parents[2] / "mypy_plugin"


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_only_the_settings_reader_parses_toml_and_ini() -> None:
    readers = {
        path.relative_to(PACKAGE).as_posix(): imported_modules(path) & {"tomllib", "tomli",
                                                                          "configparser"}
        for path in PACKAGE.rglob("*.py")
    }
    assert {name for name, found in readers.items() if found & {"tomllib", "tomli"}} == {
        "settings_files.py"}
    # project_config writes the mypy.ini copy with configparser; it reads through the reader.
    assert {name for name, found in readers.items() if "configparser" in found} == {
        "settings_files.py", "cli/project_config.py"}


def test_plugin_and_command_line_read_the_same_toml(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.mypy]\nstrict = true\n\n[tool.proxy_types]\n'
                      'migrate_classes = ["lib.Legacy"]\n', encoding="utf-8")
    assert ProxyTypesConfig(str(config)).migrate_classes == ("lib.Legacy",)
    project = read_project_config(config, required=True)
    assert project is not None
    assert project.sections["mypy"]["strict"] == "True"
    assert project.sections["mypy.plugins.proxy_types"]["migrate_classes"] == "lib.Legacy"


def test_plugin_and_command_line_read_the_same_ini(tmp_path: Path) -> None:
    config = tmp_path / "setup.cfg"
    config.write_text("[metadata]\nname = x\n\n[mypy]\nstrict = True\n\n"
                      "[mypy.plugins.proxy_types]\nstrict_isinstance = yes\n", encoding="utf-8")
    assert ProxyTypesConfig(str(config)).strict_isinstance is True
    project = read_project_config(config, required=True)
    assert project is not None and set(project.sections) == {"mypy", "mypy.plugins.proxy_types"}


@pytest.mark.parametrize("name, text", [
    ("pyproject.toml", "[tool.mypy\n"),
    ("mypy.ini", "strict = True\n"),
])
def test_a_malformed_file_is_one_line_for_both(tmp_path: Path, name: str, text: str) -> None:
    config = tmp_path / name
    config.write_text(text, encoding="utf-8")
    with pytest.raises(MalformedFile) as malformed:
        (read_toml if name.endswith(".toml") else read_ini)(config)
    reason = str(malformed.value)
    assert reason and "\n" not in reason
    with pytest.raises(ConfigurationError) as plugin:
        ProxyTypesConfig(str(config), raise_errors=True)
    assert str(plugin.value) == (
        f"{config}: error: [proxy_types] cannot read the config file: {reason}")
    with pytest.raises(CommandLineError) as command_line:
        read_project_config(config, required=True)
    assert reason in str(command_line.value) and str(command_line.value).count("\n") == 0


def test_an_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile):
        read_ini(tmp_path / "missing.ini")
    (tmp_path / "latin1.toml").write_bytes(b"name = '\xe9'\n")
    with pytest.raises(UnreadableFile):
        read_toml(tmp_path / "latin1.toml")
