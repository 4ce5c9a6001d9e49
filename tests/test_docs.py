"""Every mypy config snippet in the docs is a config real mypy accepts."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
_INI_BLOCK = re.compile(r"^```ini\n(.*?)^```", re.MULTILINE | re.DOTALL)


def mypy_ini_snippets(text: str) -> list[str]:
    """The ```ini blocks of a Markdown text that configure mypy."""
    return [block for block in _INI_BLOCK.findall(text) if "[mypy" in block]


SNIPPETS = [
    pytest.param(snippet, id=f"{path.name}-{number}")
    for path in DOC_FILES
    for number, snippet in enumerate(mypy_ini_snippets(path.read_text(encoding="utf-8")), 1)
]


def run_mypy_with_config(config_text: str, workdir: Path, cache_dir: Path) -> subprocess.CompletedProcess[str]:
    """Real mypy on a one-line file, configured by ``config_text``."""
    (workdir / "mypy.ini").write_text(config_text, encoding="utf-8")
    (workdir / "trivial.py").write_text("answer: int = 42\n", encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir",
         str(cache_dir), "trivial.py"],
        capture_output=True, text=True, cwd=workdir, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)})


def test_snippets_are_found() -> None:
    assert len(SNIPPETS) >= 3
    assert mypy_ini_snippets("```ini\n[other]\nx = 1\n```\n") == []


@pytest.fixture(scope="module")
def docs_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("docs-mypy-cache")


@pytest.mark.parametrize("snippet", SNIPPETS)
def test_doc_config_snippet_is_accepted(snippet: str, tmp_path: Path, docs_cache_dir: Path) -> None:
    result = run_mypy_with_config(snippet, tmp_path, docs_cache_dir)
    assert result.returncode == 0 and result.stderr == "", result.stdout + result.stderr
    assert "Success" in result.stdout


def test_inline_comment_after_a_value_is_rejected(tmp_path: Path, docs_cache_dir: Path) -> None:
    bad = ("[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
           "strict_isinstance = true  # also list more checks\n")
    result = run_mypy_with_config(bad, tmp_path, docs_cache_dir)
    assert result.returncode == 2
    assert "strict_isinstance" in result.stderr


def readme_example() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    assert blocks, "the README should show the guards in a ```python block"
    return str(blocks[0])


def test_readme_example_type_checks_with_the_plugin_and_runs(tmp_path: Path) -> None:
    (tmp_path / "readme_example.py").write_text(readme_example(), encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\nstrict = True\n"
        "enable_error_code = truthy-bool\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
         "readme_example.py"], capture_output=True, text=True, cwd=tmp_path, env=env,
        timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    ran = subprocess.run([sys.executable, "readme_example.py"], capture_output=True,
                         text=True, cwd=tmp_path, env=env, timeout=60)
    assert ran.returncode == 0, ran.stderr
    # the trace the README promises: the operations, the deferred check, the guard
    assert "check t2, 'm must be non-negative'" in ran.stdout
    assert "guard n == 5" in ran.stdout


def readme_ignore_example() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    (block,) = [str(b) for b in blocks if "# type: ignore[" in b]
    return block


def check_with_plugin(source: str, directory: Path) -> subprocess.CompletedProcess[str]:
    (directory / "ignored.py").write_text(source, encoding="utf-8")
    (directory / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\nwarn_unused_ignores = True\n",
        encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(directory / "cache"), "ignored.py"],
        capture_output=True, text=True, cwd=directory, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)})


def test_readme_ignore_silences_both_errors_and_each_code_is_used(tmp_path: Path) -> None:
    example = readme_ignore_example()
    assert "# type: ignore[proxy-concretize, arg-type]" in example
    silenced = check_with_plugin(example, tmp_path)
    assert silenced.returncode == 0, silenced.stdout  # no error left, no unused code
    one_code = check_with_plugin(example.replace(", arg-type]", "]"), tmp_path)
    assert one_code.returncode == 1 and "[arg-type]" in one_code.stdout
    no_ignore = check_with_plugin(example.replace("  # type: ignore[proxy-concretize, arg-type]",
                                                  ""), tmp_path)
    assert "[proxy-concretize]" in no_ignore.stdout and "[arg-type]" in no_ignore.stdout
def test_the_readme_quotes_only_ratios_of_the_performance_tables() -> None:
    """The README's figures are copied from docs/performance.md's tables, so that
    the two cannot disagree (issue #29)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Performance\n", 1)[1].split("\n## ", 1)[0]
    quoted = re.findall(r"\b\d+\.\d{3,4}x", section)
    assert len(quoted) >= 6  # the plugin's and the command's figures
    tables = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    assert [ratio for ratio in quoted if ratio not in tables] == []


_TOML_BLOCK = re.compile(r"^```toml\n(.*?)^```", re.MULTILINE | re.DOTALL)
TOML_SNIPPETS = [
    pytest.param(snippet, id=f"{path.name}-toml-{number}")
    for path in DOC_FILES
    for number, snippet in enumerate(
        [block for block in _TOML_BLOCK.findall(path.read_text(encoding="utf-8"))
         if "[tool.mypy]" in block or "[tool.proxy_types]" in block], 1)
]


def test_toml_snippets_are_found() -> None:
    assert len(TOML_SNIPPETS) >= 3


@pytest.mark.parametrize("snippet", TOML_SNIPPETS)
def test_doc_pyproject_snippet_is_accepted(snippet: str, tmp_path: Path,
                                           docs_cache_dir: Path) -> None:
    """A pyproject.toml block of the docs, as the project's only config: real mypy with
    the plugin accepts it (a bad key or value would be exit 2 at its line)."""
    (tmp_path / "pyproject.toml").write_text(snippet, encoding="utf-8")
    (tmp_path / "trivial.py").write_text("answer: int = 42\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(docs_cache_dir), "trivial.py"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0 and result.stderr == "", result.stdout + result.stderr
    assert "Success" in result.stdout
    if "[tool.proxy_types]" in snippet:  # the negative: an unknown plugin key is exit 2
        broken = snippet + "colour = 1\n"
        (tmp_path / "pyproject.toml").write_text(broken, encoding="utf-8")
        rejected = subprocess.run(
            [sys.executable, "-m", "mypy", "--cache-dir", str(docs_cache_dir), "trivial.py"],
            capture_output=True, text=True, cwd=tmp_path, timeout=300,
            env={**os.environ, "PYTHONPATH": str(REPO)})
        assert rejected.returncode == 2 and 'unknown setting "colour"' in rejected.stderr


def test_the_readme_quotes_the_commands_table_rows() -> None:
    """The README's ``check`` figures are the quick corpus rows of performance.md's
    "What the commands cost" table, cold and warm, both ratios (issue #29)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Performance\n", 1)[1].split("\n## ", 1)[0]
    performance = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    table = performance.split("\n## What the commands cost\n", 1)[1].split("\n## ", 1)[0]
    # Each row ends with plugin / mypy, check / (mypy + plugin), check / mypy.
    rows = {mode: ratios for mode, *ratios in re.findall(
        r"^quick \(examples\)\s+(cold|warm)\s.*?(\d+\.\d{3}x)\s+(\d+\.\d{3}x)\s+(\d+\.\d{3}x)$",
        table, re.MULTILINE)}
    assert set(rows) == {"cold", "warm"}, table
    for mode in ("cold", "warm"):
        _, over_plugin, over_mypy = rows[mode]
        assert over_plugin in section and over_mypy in section, (mode, over_plugin, over_mypy)
