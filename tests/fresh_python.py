"""Fresh interpreters and fresh installs: what importing or installing pulls in shows only there."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def assert_probe_passes(probe: str) -> None:
    """Run ``probe`` at the repository root; it must finish by printing ``ok``."""
    result = subprocess.run([sys.executable, "-c", probe + "print('ok')\n"],
                            capture_output=True, text=True, cwd=REPO, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def build_wheel(out: Path) -> Path:
    """The project's wheel, built by pip from a copy of the sources (no checkout clutter)."""
    source = out / "src"
    source.mkdir()
    for name in ("setup.cfg", "setup.py", "pyproject.toml", "README.md"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")
    for package in ("proxy_types", "mypy_plugin", "stubs"):
        shutil.copytree(REPO / package, source / package, ignore=ignore)
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "--quiet",
         "--wheel-dir", str(out / "dist"), str(source)],
        capture_output=True, text=True, check=False, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (wheel,) = (out / "dist").glob("proxy_types-*.whl")
    return wheel
