"""Issue #28's demo, per preset, as a new user runs it: a fresh git repository holding
the preset's examples, ``proxy-types init --preset NAME``, ``proxy-types check .``
(the findings are the examples' ``# expect:`` markers, the good files stay clean), the
hidden-findings line once ``proxy-specialize`` is turned off, and the documented local
pre-commit hook blocking the bad file and passing the good one.

``proxy-types`` runs from this checkout in the environment that has the preset's
library: the test venv (torch), thunder 0.2.6 (``THUNDER_PYTHON``), a venv with jax.
Installing proxy-types itself is tests/cli/test_install.py's part.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.cli.test_cli_pre_commit import commit, commit_env, documented_hooks, git_repository
from tests.tracer_envs import NO_THUNDER, REPO, THUNDER_PYTHON, jax_python, with_checkout

EXAMPLES = REPO / "examples"
EXPECT = re.compile(r"#\s*expect:\s*([\w\-, ]+)")
FINDING = re.compile(r"^([\w./]+\.py):(\d+):\d+: error: .*\[([\w-]+)\]$")

#: preset -> the examples directory that shows its findings
DEMOS = {"torch-compile": "torch", "torch-library": "torch", "thunder": "thunder", "jax": "jax"}


@pytest.fixture(scope="module")
def pre_commit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("pre-commit-venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", "pre-commit"], check=True,
                   timeout=600)
    return venv / "bin" / "pre-commit"


def python_for(preset: str, tmp_path: Path) -> Path:
    if preset == "thunder":
        if not THUNDER_PYTHON.is_file():
            pytest.skip(NO_THUNDER)
        return THUNDER_PYTHON
    if preset == "jax":
        return jax_python(tmp_path / "jax-venv")
    pytest.importorskip("torch")
    return Path(sys.executable)


def markers(directory: Path) -> Counter[tuple[str, int, str]]:
    found: Counter[tuple[str, int, str]] = Counter()
    for path in sorted(directory.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                found.update((path.name, number, code)
                             for code in re.split(r"[,\s]+", match.group(1).strip()))
    return found


def findings(output: str) -> Counter[tuple[str, int, str]]:
    return Counter((match[1], int(match[2]), match[3])
                   for match in map(FINDING.match, output.splitlines()) if match)


@pytest.mark.network  # pre-commit and jax come from PyPI
@pytest.mark.parametrize("preset", list(DEMOS))
def test_init_check_hidden_line_and_pre_commit(preset: str, tmp_path: Path,
                                               pre_commit: Path) -> None:
    python = python_for(preset, tmp_path)
    examples = EXAMPLES / DEMOS[preset]
    expected = markers(examples)
    assert expected and all(name.startswith("bad_") for name, _, _ in expected)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "proxy-types"  # proxy-types as installed in the library's environment
    shim.write_text(f'#!/bin/sh\nexec {python} -m mypy_plugin "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    env = commit_env(tmp_path, pre_commit, bin_dir)
    env.update(PYTHONPATH=with_checkout(python)["PYTHONPATH"], JAX_PLATFORMS="cpu",
               MYPY_CACHE_DIR=str(tmp_path / "mypy-cache"))  # runs after the first are warm
    project = tmp_path / "project"
    project.mkdir()
    bad = sorted(path.name for path in examples.glob("bad_*.py"))
    good = sorted(path.name for path in examples.glob("good_*.py"))
    for name in bad + good:
        shutil.copy(examples / name, project / name)
    (hook_config,) = [block for block in documented_hooks() if "repo: local" in block]
    git_repository(project, hook_config, env)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["proxy-types", *args], cwd=project, env=env,
                              capture_output=True, text=True, timeout=1800)

    init = run("init", "--preset", preset)
    assert init.returncode == 0, init.stderr
    assert "+++ b/mypy.ini" in init.stdout and f"wrote mypy.ini (preset {preset})" in init.stdout

    check = run("check", ".")
    assert check.returncode == 1, check.stdout + check.stderr
    assert findings(check.stdout) == expected, check.stdout
    assert "Hidden:" not in check.stdout and check.stderr == ""

    # proxy-specialize turned off: its findings are counted, not shown
    config = project / "mypy.ini"
    settings = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"^enable_error_code = proxy-specialize\n", "", settings,
                             flags=re.MULTILINE), encoding="utf-8")
    quiet = run("check", ".")
    specialized = sum(count for (_, _, code), count in expected.items()
                      if code == "proxy-specialize")
    shown = expected - Counter({key: count for key, count in expected.items()
                                if key[2] == "proxy-specialize"})
    assert findings(quiet.stdout) == shown, quiet.stdout
    hidden = [line for line in quiet.stdout.splitlines() if line.startswith("Hidden:")]
    if specialized:
        assert hidden == [f"Hidden: {specialized} proxy-specialize finding"
                          f"{'s' * (specialized != 1)} (off by default; enable_error_code = "
                          "proxy-specialize in the plugin's settings, or proxy-types check "
                          "--preset torch-compile, shows them)"]
        assert quiet.returncode == (1 if shown else 0)
    else:  # thunder's and JAX's proxies raise or bake: they are proxy-concretize, never hidden
        assert hidden == [] and settings == config.read_text(encoding="utf-8")
    config.write_text(settings, encoding="utf-8")

    # pre-commit: the good files and the config pass, each bad file is blocked
    subprocess.run([str(pre_commit), "install"], cwd=project, check=True, env=env,
                   capture_output=True)
    subprocess.run(["git", "add", "mypy.ini"], cwd=project, check=True, env=env)
    for name in good:
        passed = commit(project, name, (examples / name).read_text(encoding="utf-8"), env)
        assert passed.returncode == 0, passed.stdout + passed.stderr
    for name in bad:
        blocked = commit(project, name, (examples / name).read_text(encoding="utf-8"), env)
        assert blocked.returncode != 0
        wanted = Counter({key: count for key, count in expected.items() if key[0] == name})
        assert findings(blocked.stdout + blocked.stderr) == wanted
        subprocess.run(["git", "reset", "--quiet", name], cwd=project, check=True, env=env)
    log = subprocess.run(["git", "log", "--format=%s"], cwd=project, env=env,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert sorted(log) == sorted(f"add {name}" for name in good)


def test_the_readme_demo_is_the_one_tested() -> None:
    """examples/README.md's demo and its table are what DEMOS runs."""
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## One directory per preset"):text.index("## Running them")]
    rows = re.findall(r"^\| (`[\w-]+`(?:, `[\w-]+`)*) \| `(\w+)/` \|", section, re.MULTILINE)
    listed = {preset.strip("` "): directory for presets, directory in rows
              for preset in presets.split(",")}
    assert listed == DEMOS
    block = re.search(r"```console\n(.*?)```", section, re.DOTALL)
    assert block is not None
    assert block.group(1).splitlines() == [
        "$ git init demo && cp examples/jax/*.py demo/ && cd demo",
        "$ proxy-types init --preset jax",
        "$ proxy-types check ."]
