"""mypy's cache follows the plugin's code: its version carries a hash of its sources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mypy_plugin import source_version

REPO = Path(__file__).resolve().parents[2]


def test_sources_are_the_checking_modules_and_the_table() -> None:
    names = {path.relative_to(REPO).as_posix() for path in source_version.plugin_sources()}
    assert {"mypy_plugin/main.py", "mypy_plugin/errors.py", "mypy_plugin/checks/casts.py",
            "mypy_plugin/analysis/dynamic.py", "proxy_types/_table.py"} <= names
    assert not any(name.startswith("mypy_plugin/cli/") for name in names)


def test_hash_is_remembered_and_recomputed_only_when_a_file_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "mypy_plugin"
    shutil.copytree(REPO / "mypy_plugin", package, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "proxy_types").mkdir()
    shutil.copy(REPO / "proxy_types" / "_table.py", tmp_path / "proxy_types" / "_table.py")
    monkeypatch.setattr(source_version, "PACKAGE", package)
    cache = tmp_path / "cache"
    first = source_version.source_hash(str(cache))
    memo = cache / "proxy_types_sources.json"
    remembered = json.loads(memo.read_text())
    assert remembered["hash"] == first
    # Unchanged files: the remembered hash is used as it is (no file is read).
    memo.write_text(json.dumps({**remembered, "hash": "from-the-memo"}))
    assert source_version.source_hash(str(cache)) == "from-the-memo"
    # Touched, same content: hashed again, same hash (a checkout keeps the cache valid).
    main = package / "main.py"
    os.utime(main, ns=(main.stat().st_atime_ns, main.stat().st_mtime_ns + 10**9))
    assert source_version.source_hash(str(cache)) == first
    # Changed content: another hash.
    main.write_text(main.read_text() + "\n# changed\n")
    assert source_version.source_hash(str(cache)) != first
    # No cache directory: hashed every time, the same way.
    assert source_version.source_hash(None) == source_version.source_hash(os.devnull)


def test_editing_a_check_invalidates_mypy_s_cache(tmp_path: Path) -> None:
    """A real package copy, edited between two mypy runs sharing one cache."""
    install = tmp_path / "install"
    shutil.copytree(REPO / "mypy_plugin", install / "mypy_plugin",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "proxy_types", install / "proxy_types",
                    ignore=shutil.ignore_patterns("__pycache__"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "app.py").write_text(
        "from proxy_types import IntegerProxy\n\n\ndef f(p: IntegerProxy) -> bool:\n"
        "    return isinstance(p, int)\n")
    (project / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n")

    def check() -> str:
        result = subprocess.run(
            [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
             "--no-error-summary", "app.py"],
            cwd=project, capture_output=True, text=True, timeout=300,
            env={**os.environ, "PYTHONPATH": str(install)})
        assert "Traceback" not in result.stderr, result.stderr
        return result.stdout

    assert "misclassifies dynamic number" in check()
    errors = install / "mypy_plugin" / "errors.py"
    edited = errors.read_text().replace(") misclassifies ", ") wrongly sorts ")
    assert edited != errors.read_text()
    errors.write_text(edited)
    warm = check()  # app.py is unchanged: only the plugin's version says the cache is stale
    assert "wrongly sorts dynamic number" in warm
    assert "misclassifies" not in warm


def test_an_installed_release_stands_for_its_files_by_pip_s_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site-packages"
    shutil.copytree(REPO / "mypy_plugin", site / "mypy_plugin",
                    ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(source_version, "PACKAGE", site / "mypy_plugin")
    assert source_version.plugin_version("0.1.0", None, None).startswith("0.1.0+src.")
    record = site / "proxy_types-0.1.0.dist-info" / "RECORD"
    record.parent.mkdir()
    record.write_text("mypy_plugin/main.py,sha256=one,100\n")
    first = source_version.plugin_version("0.1.0", None, None)
    assert first.startswith("0.1.0+record.")
    record.write_text("mypy_plugin/main.py,sha256=two,100\n")  # a reinstall of other code
    assert source_version.plugin_version("0.1.0", None, None) != first
    assert source_version.plugin_version("0.1.0", None, "abc").endswith(".config.abc")
