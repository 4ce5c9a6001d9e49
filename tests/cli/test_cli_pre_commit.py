"""The pre-commit hook definition points at the console script that exists."""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_repository_hook_installs_the_mypy_extra() -> None:
    """pre-commit installs the hook's repository; the command needs its [mypy] extra."""
    text = (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert re.search(r'^  additional_dependencies: \[\s*"\.\[mypy\]"\s*\]$', text, re.MULTILINE)


def test_documented_system_hook_has_no_additional_dependencies() -> None:
    """pre-commit rejects additional_dependencies on a language: system hook."""
    for block in documented_hooks():
        if "language: system" in block:
            assert "additional_dependencies" not in block, block


def documented_hooks() -> list[str]:
    """The ```yaml blocks of docs/cli.md that configure pre-commit."""
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    return [block for block in re.findall(r"^```yaml\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
            if "hooks:" in block]


# -- real pre-commit on a fresh git repository (installs from PyPI) -----------------

FINDING = """\
from proxy_types import FloatProxy


def scale(p: float | FloatProxy) -> str:
    if isinstance(p, float):
        return "constant"
    return "traced"
"""

CLEAN = "def width(n: int) -> int:\n    return n + 1\n"


@pytest.fixture(scope="module")
def pre_commit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A pre-commit from PyPI, in a virtualenv of its own."""
    venv = tmp_path_factory.mktemp("pre-commit-venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "pre-commit"], check=True,
                   timeout=600)
    return venv / "bin" / "pre-commit"


def git_repository(directory: Path, config: str, env: dict[str, str]) -> Path:
    subprocess.run(["git", "init", "--quiet", str(directory)], check=True, env=env)
    (directory / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    subprocess.run(["git", "add", ".pre-commit-config.yaml"], cwd=directory, check=True, env=env)
    return directory


def commit(directory: Path, name: str, text: str, env: dict[str, str]
           ) -> subprocess.CompletedProcess[str]:
    (directory / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "add", name], cwd=directory, check=True, env=env)
    return subprocess.run(["git", "commit", "--quiet", "-m", f"add {name}"], cwd=directory,
                          env=env, capture_output=True, text=True, timeout=900)


def commit_env(tmp_path: Path, pre_commit: Path, extra_path: Path | None = None
               ) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MYPY")}
    path = [str(pre_commit.parent), *([str(extra_path)] if extra_path else []), env["PATH"]]
    env.update(PATH=os.pathsep.join(path), PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
               GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com", HOME=str(tmp_path))
    return env


def assert_blocks_findings_and_passes_clean(repository: Path, pre_commit: Path,
                                            env: dict[str, str]) -> None:
    subprocess.run([str(pre_commit), "install"], cwd=repository, check=True, env=env,
                   capture_output=True)
    clean = commit(repository, "clean.py", CLEAN, env)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    blocked = commit(repository, "scale.py", FINDING, env)
    assert blocked.returncode != 0
    output = blocked.stdout + blocked.stderr  # git shows the hook's output on stderr
    assert "scale.py:5:8: error:" in output and "[proxy-isinstance]" in output
    log = subprocess.run(["git", "log", "--format=%s"], cwd=repository, env=env,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    assert "add scale.py" not in log and "add clean.py" in log


@pytest.mark.network
def test_documented_local_hook_runs_proxy_types_from_path(tmp_path: Path,
                                                          pre_commit: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "proxy-types"  # the proxy-types "installed" where the user commits
    shim.write_text(f'#!/bin/sh\nPYTHONPATH={REPO} exec {sys.executable} -m mypy_plugin "$@"\n',
                    encoding="utf-8")
    shim.chmod(0o755)
    env = commit_env(tmp_path, pre_commit, bin_dir)
    env["MYPYPATH"] = str(REPO / "stubs")
    (config,) = [block for block in documented_hooks() if "repo: local" in block]
    repository = git_repository(tmp_path / "project", config, env)
    assert_blocks_findings_and_passes_clean(repository, pre_commit, env)


@pytest.mark.network
def test_repository_hook_installs_what_it_needs(tmp_path: Path, pre_commit: Path) -> None:
    """The hook of .pre-commit-hooks.yaml, from a clone of this repository at its HEAD."""
    env = commit_env(tmp_path, pre_commit)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True,
                          text=True, check=True).stdout.strip()
    config = (f"repos:\n  - repo: {REPO}\n    rev: {head}\n    hooks:\n"
              "      - id: proxy-types\n")
    repository = git_repository(tmp_path / "project", config, env)
    assert_blocks_findings_and_passes_clean(repository, pre_commit, env)
