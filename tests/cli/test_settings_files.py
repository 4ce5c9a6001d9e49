"""One reader of INI and TOML settings files for the plugin and the command line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mypy_plugin.cli.common import CommandLineError
from mypy_plugin.cli.project_config import read_project_config
from mypy_plugin.config import ProxyTypesConfig
from mypy_plugin.settings_files import (
    MalformedFile,
    NotATable,
    UnreadableFile,
    has_plugin_section,
    read_ini,
    read_plugin_section,
    read_toml,
    string_list,
)
from proxy_types import ConfigurationError
from tests.fresh_python import assert_probe_passes

REPO = Path(__file__).resolve().parents[2]


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
        path.relative_to(REPO).as_posix(): imported_modules(path) & {"tomllib", "tomli",
                                                                       "configparser"}
        for package in ("mypy_plugin", "proxy_types") for path in (REPO / package).rglob("*.py")
    }
    assert {name for name, found in readers.items() if found & {"tomllib", "tomli"}} == {
        "proxy_types/_settings_files.py"}
    # project_config writes the mypy.ini copy with configparser; it reads through the reader.
    assert {name for name, found in readers.items() if "configparser" in found} == {
        "proxy_types/_settings_files.py", "mypy_plugin/cli/project_config.py"}


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
    # ini's parser names the line; TOML's says it in its reason.
    where = f"{config}:{malformed.value.line}" if malformed.value.line else str(config)
    assert (malformed.value.line is None) == name.endswith(".toml")
    assert str(plugin.value) == (
        f"{where}: error: [proxy_types] cannot read the config file: {reason}")
    with pytest.raises(CommandLineError) as command_line:
        read_project_config(config, required=True)
    assert reason in str(command_line.value) and str(command_line.value).count("\n") == 0


def test_an_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile):
        read_ini(tmp_path / "missing.ini")
    (tmp_path / "latin1.toml").write_bytes(b"name = '\xe9'\n")
    with pytest.raises(UnreadableFile):
        read_toml(tmp_path / "latin1.toml")


def test_the_plugin_reads_settings_without_running_the_runtime(tmp_path: Path) -> None:
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n[mypy.plugins.proxy_types]\nexempt_modules = lib.*\n",
                      encoding="utf-8")
    probe = (
        "import sys\n"
        "from mypy_plugin import settings_files\n"
        "from mypy_plugin.config import ProxyTypesConfig\n"
        f"config = ProxyTypesConfig({str(config)!r}, raise_errors=True)\n"
        "assert config.is_exempt('lib.sub') and not config.is_exempt('other')\n"
        "assert 'proxy_types' not in sys.modules, 'runtime package was executed'\n"
        "assert 'proxy_types._settings_files' not in sys.modules\n"
        "import proxy_types._settings_files as runtime\n"
        "assert settings_files.read_ini is not runtime.read_ini  # a private copy\n"
        "assert settings_files.read_ini.__code__.co_filename == runtime.__file__\n"
    )
    assert_probe_passes(probe)


def test_the_plugin_shares_the_reader_the_runtime_already_loaded() -> None:
    assert_probe_passes("import proxy_types._settings_files as runtime\n"
                        "from mypy_plugin import settings_files\n"
                        "assert settings_files.SettingsFileError is runtime.SettingsFileError\n")


def test_runtime_and_command_line_pick_the_same_file(tmp_path: Path) -> None:
    from mypy_plugin.cli.project_config import find_project_config
    from proxy_types._config import find_config_file

    (tmp_path / ".git").mkdir()
    nested = tmp_path / "src" / "pkg"
    nested.mkdir(parents=True)
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = x\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n", encoding="utf-8")
    project = find_project_config(nested)
    assert project is not None
    assert project.path == find_config_file(nested) == tmp_path / "pyproject.toml"


def test_a_broken_file_met_in_the_search_is_one_line_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mypy_plugin.cli.project_config import find_project_config
    from proxy_types._config import find_config_file

    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    broken = tmp_path / "setup.cfg"
    broken.write_text("no section header\n", encoding="utf-8")
    with pytest.raises(ConfigurationError) as runtime:
        find_config_file(tmp_path)
    assert str(runtime.value).startswith("setup.cfg:1: error: [proxy_types] cannot read "
                                         "the config file: File contains no section headers")
    with pytest.raises(CommandLineError) as command_line:
        find_project_config(tmp_path)
    assert str(command_line.value).startswith(f"broken config {broken.resolve()} (line 1): ")
    assert "\n" not in str(runtime.value) + str(command_line.value)


# -- the plugin's section: one reader, two adapters ------------------------------------------


def test_the_plugin_section_is_read_in_one_place() -> None:
    """Only the reader names the section to look it up; the adapters ask the reader."""
    lookups = {}
    for package in ("mypy_plugin", "proxy_types"):
        for path in (REPO / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "PLUGIN_SECTION_TOML" in text or 're.split(r"[,\\n]"' in text:
                lookups[path.relative_to(REPO).as_posix()] = True
    assert set(lookups) == {"proxy_types/_settings_files.py", "mypy_plugin/settings_files.py"}


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("mypy.ini", "[mypy]\n[mypy.plugins.proxy_types]\nmigrate_classes = a.B,\n  c.D\n",
     {"migrate_classes": "a.B,\nc.D"}),
    ("pyproject.toml", '[tool.mypy]\n[tool.proxy_types]\nmigrate_classes = ["a.B"]\n'
                       "strict_isinstance = true\n",
     {"migrate_classes": ["a.B"], "strict_isinstance": True}),
    ("setup.cfg", "[mypy]\nstrict = True\n", {}),
    ("pyproject.toml", "[tool.mypy]\nstrict = true\n", {}),
])
def test_read_plugin_section(tmp_path: Path, name: str, text: str,
                             expected: dict[str, object]) -> None:
    config = tmp_path / name
    config.write_text(text, encoding="utf-8")
    assert read_plugin_section(config) == expected
    assert has_plugin_section(config) is bool(expected)


def test_a_plugin_section_that_is_no_table_is_one_error_for_both_adapters(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[tool.mypy]\n[tool]\nproxy_types = "yes"\n', encoding="utf-8")
    with pytest.raises(NotATable, match=r"^\[tool\.proxy_types\] must be a table$"):
        read_plugin_section(config)
    assert has_plugin_section(config)
    expected = f"{config}: error: [proxy_types] [tool.proxy_types] must be a table"
    with pytest.raises(ConfigurationError) as plugin_error:
        ProxyTypesConfig(str(config), raise_errors=True)
    assert str(plugin_error.value) == expected
    from proxy_types._config import read_runtime_settings

    with pytest.raises(ConfigurationError) as runtime_error:
        read_runtime_settings(config)
    assert str(runtime_error.value).endswith(
        ": error: [proxy_types] [tool.proxy_types] must be a table")


@pytest.mark.parametrize(("value", "from_ini", "expected"), [
    ("a.B, c.D\n\ne.F,", True, ["a.B", "c.D", "e.F"]),
    ([" a.B ", "c.D"], False, ["a.B", "c.D"]),
    ([" a.B ", "c.D"], True, ["a.B", "c.D"]),
    ("a.B", False, None),  # a TOML string is not a list
    (["a.B", 3], False, None),
    (True, True, None),
])
def test_string_list(value: object, from_ini: bool, expected: list[str] | None) -> None:
    assert string_list(value, from_ini=from_ini) == expected
