"""The runtime's stdlib reader and the plugin read the same settings the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from mypy_plugin.config import ProxyTypesConfig
from proxy_types import ConfigurationError
from proxy_types._config import find_config_file, read_runtime_settings

SECTIONS = {
    "mypy.ini": "[mypy]\n[mypy.plugins.proxy_types]\n{key} = {value}\n",
    "pyproject.toml": '[tool.mypy]\n[tool.proxy_types]\n{key} = ["{value}"]\n',
}


CLASS_SETTINGS = {
    "mypy.ini": "[mypy]\n[mypy.plugins.proxy_types]\naudit_classes = lib.A\n"
                "dynamic_number_classes = lib.B\nmigrate_classes = lib.C, lib.A\n",
    "pyproject.toml": '[tool.mypy]\n[tool.proxy_types]\naudit_classes = ["lib.A"]\n'
                      'dynamic_number_classes = ["lib.B"]\nmigrate_classes = ["lib.C", "lib.A"]\n',
}


@pytest.mark.parametrize("name", sorted(CLASS_SETTINGS))
def test_both_readers_accept_the_class_settings(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(CLASS_SETTINGS[name], encoding="utf-8")
    plugin = ProxyTypesConfig(str(path), raise_errors=True)
    assert (plugin.audit_classes, plugin.dynamic_number_classes, plugin.migrate_classes) == (
        ("lib.A",), ("lib.B",), ("lib.C", "lib.A"))
    runtime = read_runtime_settings(path)
    assert runtime.classes == ("lib.B", "lib.C", "lib.A")  # every class once
    assert runtime.exempt_modules == ("proxy_types", "proxy_types.*")


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_both_readers_reject_a_bad_name_with_the_same_line(tmp_path: Path, name: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path(name).write_text(SECTIONS[name].format(key="audit_classes", value="NotDotted"),
                          encoding="utf-8")
    with pytest.raises(ConfigurationError) as from_plugin:
        ProxyTypesConfig(name, raise_errors=True)
    with pytest.raises(ConfigurationError) as from_runtime:
        read_runtime_settings(Path(name))
    line = next(number for number, text in enumerate(Path(name).read_text().splitlines(), 1)
                if "NotDotted" in text)
    assert str(from_runtime.value) == str(from_plugin.value) == (
        f'{name}:{line}: error: [proxy_types] audit_classes: "NotDotted" is not a fully qualified '
        "class name like pkg.Class")


def test_the_search_picks_the_file_mypy_would(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    nested = tmp_path / "src" / "pkg"
    nested.mkdir(parents=True)
    assert find_config_file(nested) is None
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = x\n", encoding="utf-8")
    assert find_config_file(nested) is None  # a setup.cfg without [mypy] is not mypy's
    (tmp_path / "pyproject.toml").write_text("[tool.mypy]\n", encoding="utf-8")
    assert find_config_file(nested) == tmp_path / "pyproject.toml"
    (tmp_path / "src" / "mypy.ini").write_text("[mypy]\n", encoding="utf-8")
    assert find_config_file(nested) == tmp_path / "src" / "mypy.ini"
