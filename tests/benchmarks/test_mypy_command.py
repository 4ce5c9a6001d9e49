"""The benchmark's mypy imports the checkout's plugin even where the corpus holds a copy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_plugin import (  # noqa: E402
    ONE_PARSE_THREAD,
    checkout_environment,
    mypy_arguments,
    mypy_command,
    run_mypy,
)
from benchmarks.corpus import Corpus  # noqa: E402

needs_safe_path = pytest.mark.skipif(sys.version_info < (3, 11), reason="python -P is 3.11+")


def shadowing_corpus(directory: Path) -> tuple[Corpus, Path]:
    """A corpus whose working directory holds a ``mypy_plugin`` that fails to import."""
    (directory / "mypy_plugin").mkdir()
    (directory / "mypy_plugin" / "__init__.py").write_text(
        "raise ImportError('shadow copy of mypy_plugin imported')\n")
    (directory / "checked.py").write_text("def double(n: int) -> int:\n    return 2 * n\n")
    config = directory / "with.ini"
    config.write_text("[mypy]\nplugins = mypy_plugin\n")
    return Corpus("shadow", directory, ("checked.py",), "[mypy]\n"), config


@needs_safe_path
def test_benchmark_mypy_loads_the_checkout_plugin(tmp_path: Path) -> None:
    corpus, config = shadowing_corpus(tmp_path)
    log = tmp_path / "mypy.log"
    run = run_mypy(corpus, config, tmp_path / "cache", log)
    assert "shadow copy" not in log.read_text()
    assert "Success" in log.read_text()
    assert run.plugin_reports == 0


@needs_safe_path
def test_plain_module_run_would_import_the_shadow_copy(tmp_path: Path) -> None:
    corpus, config = shadowing_corpus(tmp_path)
    plain = [part for part in mypy_command() if part != "-P"]
    assert plain != mypy_command()
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([*plain, "--config-file", str(config), "--cache-dir",
                             str(tmp_path / "cache"), *corpus.targets], cwd=tmp_path,
                            env=environment, capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert "shadow copy of mypy_plugin imported" in result.stdout + result.stderr


@needs_safe_path
def test_the_counted_mypy_parses_with_one_thread_and_loads_the_checkout_plugin(
        tmp_path: Path) -> None:
    corpus, config = shadowing_corpus(tmp_path)
    (tmp_path / "wrong.py").write_text("x: int = 'a'\n")
    command = mypy_arguments(Corpus("shadow", tmp_path, ("checked.py", "wrong.py"), "[mypy]\n"),
                             config, tmp_path / "cache", one_parse_thread=True)
    assert "-m" not in command
    result = subprocess.run(command, cwd=tmp_path, env=checkout_environment(),
                            capture_output=True, text=True, check=False)
    # mypy's own exit status and report: the launcher passes the arguments on.
    assert result.returncode == 1, result.stdout + result.stderr
    assert 'wrong.py:1: error: Incompatible types in assignment' in result.stdout
    assert "shadow copy" not in result.stdout + result.stderr


def test_the_launcher_sets_one_parse_thread() -> None:
    import mypy.util

    saved = mypy.util._AVAILABLE_THREADS
    setup = ONE_PARSE_THREAD.partition("from mypy.__main__")[0]
    try:
        mypy.util._AVAILABLE_THREADS = 5  # as if worked out on a 5-core machine
        assert mypy.util.get_available_threads() == 5
        exec(setup, {})
        assert mypy.util.get_available_threads() == 1
    finally:
        mypy.util._AVAILABLE_THREADS = saved
