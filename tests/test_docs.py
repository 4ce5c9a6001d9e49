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
