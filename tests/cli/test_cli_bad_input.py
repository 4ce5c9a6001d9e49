"""``proxy-types check`` on input it cannot check: one clear line, the documented status.

Exit statuses (docs/cli.md): 0 clean, 1 findings, 2 usage/config/blocking
error, 3 a check of the plugin failed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

RunCli = Callable[..., subprocess.CompletedProcess[str]]


def error_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert "Traceback" not in result.stdout + result.stderr
    return [line for line in result.stderr.splitlines() if line.strip()]


@pytest.mark.parametrize(("content", "reason"), [
    (b'x = "caf\xe9"\n', "'utf-8' codec can't decode byte 0xe9 in position 8"),
    (bytes(range(256)) * 4, "'utf-8' codec can't decode byte 0x80"),
], ids=["latin-1", "binary"])
def test_a_file_mypy_cannot_decode_is_named_with_mypy_s_reason(
    run_cli: RunCli, tmp_path: Path, content: bytes, reason: str
) -> None:
    (tmp_path / "good.py").write_text("x = 1\n")
    (tmp_path / "bad.py").write_bytes(content)
    result = run_cli("check", ".", cwd=tmp_path)
    assert result.returncode == 2
    [line] = error_lines(result)
    assert line.startswith("proxy-types: error: mypy could not run: bad.py: error: Cannot "
                           "decode file: ")
    assert reason in line


def test_a_syntax_error_is_mypy_s_line_and_status_2(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    result = run_cli("check", "broken.py", cwd=tmp_path)
    assert result.returncode == 2
    assert error_lines(result) == []
    first = result.stdout.splitlines()[0]
    assert first.startswith("broken.py:1:") and first.endswith("[syntax]")


def test_a_byte_order_mark_is_ordinary_source(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "marked.py").write_bytes(
        b"\xef\xbb\xbffrom proxy_types import IntegerProxy\n\n\n"
        b"def f(p: IntegerProxy) -> bool:\n    return isinstance(p, int)\n")
    result = run_cli("check", "marked.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "marked.py:5:12: error: isinstance() against static number classes" in result.stdout


def test_a_missing_path_is_one_line(run_cli: RunCli, tmp_path: Path) -> None:
    result = run_cli("check", "nowhere.py", cwd=tmp_path)
    assert result.returncode == 2
    assert error_lines(result) == ["proxy-types: error: no such file or directory: nowhere.py"]


def test_a_directory_without_python_files_is_one_line(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# docs\n")
    result = run_cli("check", "docs", cwd=tmp_path)
    assert result.returncode == 2
    assert error_lines(result) == [
        "proxy-types: error: mypy could not run: There are no .py[i] files in directory 'docs'"]


def test_plugin_table_no_config_reads_is_one_line(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # the search for a config stops at the repository root
    (tmp_path / "pyproject.toml").write_text("[tool.proxy_types]\nstrict_isinstance = true\n")
    (tmp_path / "app.py").write_text("x = 1\n")
    result = run_cli("check", "app.py", cwd=tmp_path)
    assert result.returncode == 2
    assert error_lines(result) == [
        "proxy-types: error: pyproject.toml: [tool.proxy_types] is not read: without a "
        "[tool.mypy] table mypy does not read pyproject.toml, and check would use the embedded "
        "default; add a [tool.mypy] table to pyproject.toml"]
    # The embedded default, asked for, does not look at the project's files.
    assert run_cli("check", "--default-config", "app.py", cwd=tmp_path).returncode == 0


def test_plugin_table_beside_the_config_mypy_reads(run_cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    (tmp_path / "setup.cfg").write_text("[mypy.plugins.proxy_types]\nstrict_isinstance = true\n")
    (tmp_path / "app.py").write_text("x = 1\n")
    result = run_cli("check", "app.py", cwd=tmp_path)
    assert result.returncode == 2
    assert error_lines(result) == [
        "proxy-types: error: setup.cfg: [mypy.plugins.proxy_types] is not read: mypy reads "
        "mypy.ini instead; move the settings to mypy.ini"]


@pytest.mark.parametrize("plugins", ["", 'plugins = ["mypy_plugin"]\n'])
def test_a_toml_number_as_python_version_gets_mypys_quote_hint(
    run_cli: RunCli, tmp_path: Path, plugins: str
) -> None:
    """TOML reads 3.10 as 3.1; mypy says to quote it, also when check copies the config."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "m.py").write_text("x = 1\n", encoding="utf-8")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(f"[tool.mypy]\npython_version = 3.10\n{plugins}", encoding="utf-8")
    result = run_cli("check", "m.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("proxy-types: error: broken config pyproject.toml: ")
    assert "python_version: Python 3.1 is not supported" in result.stderr
    assert result.stderr.endswith(". You may need to put quotes around your Python version\n")

    pyproject.write_text(f'[tool.mypy]\npython_version = "3.1"\n{plugins}', encoding="utf-8")
    quoted = run_cli("check", "m.py", cwd=tmp_path)
    assert quoted.returncode == 2 and "Python 3.1 is not supported" in quoted.stderr
    assert "quotes" not in quoted.stderr  # a string: nothing to quote
