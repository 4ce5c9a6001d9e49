"""The pre-commit hook definition points at the console script that exists."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def hook_fields() -> dict[str, str]:
    """The ``key: value`` lines of the single hook in .pre-commit-hooks.yaml."""
    text = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks = re.findall(r"^- id:", text, flags=re.MULTILINE)
    assert len(hooks) == 1
    return dict(re.findall(r"^[- ] (\w+): (.+)$", text, flags=re.MULTILINE))


def test_hook_runs_the_check_command_on_python_files() -> None:
    fields = hook_fields()
    assert fields["id"] == "proxy-types"
    assert fields["language"] == "python"
    assert fields["types"] == "[python]"
    assert fields["entry"] == "proxy-types check"


def test_entry_is_the_declared_console_script() -> None:
    setup = configparser.ConfigParser()
    setup.read(REPO / "setup.cfg", encoding="utf-8")
    scripts = setup.get("options.entry_points", "console_scripts").strip().splitlines()
    declared = dict(line.replace(" ", "").split("=") for line in scripts)
    assert declared[hook_fields()["entry"].split()[0]] == "mypy_plugin.cli:console_main"


def test_documented_hooks_are_local_and_run_the_console_script() -> None:
    """No release exists: the docs show a local hook running the installed command."""
    for path in (REPO / "README.md", REPO / "docs" / "cli.md"):
        text = path.read_text(encoding="utf-8")
        assert "OWNER" not in text and "rev: v" not in text, path
        assert "repo: local" in text, path
        assert re.search(r"entry: proxy-types check\b", text), path
