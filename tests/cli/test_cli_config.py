"""Choosing and copying mypy configurations, in process (no mypy run)."""

from __future__ import annotations

import configparser
import os
from pathlib import Path

import pytest

from mypy_plugin.cli.common import DEFAULT_CONFIG, CommandLineError
from mypy_plugin.cli.project_config import (
    choose_config,
    find_project_config,
    read_project_config,
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()  # stop the upward search here, as mypy does
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    return tmp_path


def read_copy(path: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser()
    parser.read(path, encoding="utf-8")
    return parser


def test_no_config_means_embedded_default(project: Path) -> None:
    (project / "setup.cfg").write_text("[metadata]\nname = x\n", encoding="utf-8")
    chosen = choose_config(None, project / "scratch")
    assert chosen.mypy_file == str(DEFAULT_CONFIG) and chosen.source is None
    default = read_copy(str(DEFAULT_CONFIG))
    assert default.get("mypy", "plugins") == "mypy_plugin"
    assert "truthy-bool" in default.get("mypy", "enable_error_code")


def test_search_order_and_parent_directories(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "pyproject.toml").write_text("[tool.mypy]\nstrict = true\n", encoding="utf-8")
    (project / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    nested = project / "src" / "pkg"
    nested.mkdir(parents=True)
    monkeypatch.chdir(nested)
    found = find_project_config(Path.cwd())
    assert found is not None and found.path == project / "mypy.ini"
    (project / "mypy.ini").unlink()
    found = find_project_config(Path.cwd())
    assert found is not None and found.path == project / "pyproject.toml"


def test_search_stops_at_repository_root(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inner = project / "inner"
    (inner / ".git").mkdir(parents=True)
    (project / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    monkeypatch.chdir(inner)
    assert find_project_config(Path.cwd()) is None
    monkeypatch.chdir(project)
    assert find_project_config(Path.cwd()) is not None


def test_ini_copy_adds_plugin_and_keeps_the_rest(project: Path) -> None:
    (project / "tools").mkdir()
    (project / "tools" / "theirs.py").write_text("", encoding="utf-8")
    (project / "mypy.ini").write_text(
        "[mypy]\nplugins = tools/theirs.py\nmypy_path = $MYPY_CONFIG_FILE_DIR/stubs\n"
        "strict = True\n\n[mypy-legacy.*]\nignore_errors = True\n\n[other]\nx = 1\n",
        encoding="utf-8",
    )
    scratch = project / "scratch"
    scratch.mkdir()
    chosen = choose_config(None, scratch)
    assert chosen.source == "mypy.ini" and chosen.mypy_file.startswith(str(scratch))
    copy = read_copy(chosen.mypy_file)
    assert copy.sections() == ["mypy", "mypy-legacy.*"]
    plugins = [entry.strip() for entry in copy.get("mypy", "plugins").split(",")]
    assert plugins == [os.path.join(str(project), "tools/theirs.py"), "mypy_plugin"]
    assert copy.get("mypy", "mypy_path") == f"{project}/stubs"
    assert copy.get("mypy-legacy.*", "ignore_errors") == "True"


def test_toml_copy_translates_overrides_and_plugin_table(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.mypy]\nstrict = true\nexclude = ["^build/", "^docs/"]\n'
        'enable_error_code = ["truthy-bool", "redundant-expr"]\n\n'
        '[[tool.mypy.overrides]]\nmodule = ["a.*", "b"]\nignore_missing_imports = true\n\n'
        '[tool.proxy_types]\nexempt_modules = ["legacy.*"]\nstrict_isinstance = true\n',
        encoding="utf-8",
    )
    scratch = project / "scratch"
    scratch.mkdir()
    copy = read_copy(choose_config(None, scratch).mypy_file)
    assert copy.get("mypy", "strict") == "True"
    assert copy.get("mypy", "exclude") == "(?:^build/)|(?:^docs/)"
    assert copy.get("mypy", "enable_error_code") == "truthy-bool, redundant-expr"
    assert copy.get("mypy-a.*,b", "ignore_missing_imports") == "True"
    assert copy.get("mypy.plugins.proxy_types", "exempt_modules") == "legacy.*"
    assert copy.get("mypy.plugins.proxy_types", "strict_isinstance") == "True"


def test_config_that_enables_plugin_is_not_copied(project: Path) -> None:
    (project / ".mypy.ini").write_text("[mypy]\nplugins = other, mypy_plugin\n", encoding="utf-8")
    chosen = choose_config(None, project / "unused")
    assert chosen.mypy_file == chosen.source == ".mypy.ini"
    assert not (project / "unused").exists()


@pytest.mark.parametrize(
    "name, text, named",
    [
        ("pyproject.toml", "[tool.mypy]\n[[tool.mypy.overrides]]\nstrict = true\n", "module"),
        ("pyproject.toml", "[tool.mypy]\noverrides = 3\n", "overrides"),
        ("mypy.ini", "[mypy\n", "line 1"),
        ("mypy.ini", "[other]\nx = 1\n", "no [mypy] section"),
    ],
)
def test_broken_configs_raise_one_line(project: Path, name: str, text: str, named: str) -> None:
    (project / name).write_text(text, encoding="utf-8")
    with pytest.raises(CommandLineError) as caught:
        choose_config(None, project)
    message = str(caught.value)
    assert "\n" not in message and named in message and name in message


def test_forced_shared_file_without_mypy_settings(project: Path) -> None:
    (project / "setup.cfg").write_text("[metadata]\nname = x\n", encoding="utf-8")
    assert find_project_config(project) is None
    with pytest.raises(CommandLineError, match=r"setup\.cfg: it has no \[mypy\] section"):
        read_project_config(project / "setup.cfg", required=True)
