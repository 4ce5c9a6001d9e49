"""The documented install routes: a platform wheel, an sdist, the pure-Python fallback.

Each is built from this checkout and installed in a fresh virtualenv (from PyPI:
the build backend and typing_extensions, hence ``network``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.network


def fresh_venv(directory: Path) -> Path:
    subprocess.run([sys.executable, "-m", "venv", str(directory)], check=True, timeout=300)
    return directory / "bin"


def version_line(bin_dir: Path, env: dict[str, str]) -> str:
    result = subprocess.run([str(bin_dir / "proxy-types"), "--version"], capture_output=True,
                            text=True, env=env, cwd=bin_dir, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def clean_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items()
            if key not in ("PYTHONPATH", "MYPYPATH", "CC")}


def copy_of_sources(target: Path) -> Path:
    """The checkout's tracked files: a build writes build/ and egg-info beside its sources."""
    listed = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True,
                            check=True).stdout.split("\n")
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, target / name)
    return target


def test_platform_wheel_installs_with_compiled_guards(tmp_path: Path) -> None:
    env = clean_env()
    source = copy_of_sources(tmp_path / "source")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w",
                    str(tmp_path / "dist"), str(source)], check=True, env=env, timeout=900)
    (wheel,) = (tmp_path / "dist").glob("proxy_types-*.whl")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheel.name.endswith(f"-{platform}.whl"), wheel.name  # not py3-none-any
    bin_dir = fresh_venv(tmp_path / "venv")
    subprocess.run([str(bin_dir / "pip"), "install", "--quiet", str(wheel)], check=True,
                   env=env, timeout=900)
    assert version_line(bin_dir, env) == "proxy-types 0.1.0\nguards: compiled (proxy_types._speedups)"


def test_sdist_without_a_compiler_falls_back_to_pure_python(tmp_path: Path) -> None:
    env = clean_env()
    source = copy_of_sources(tmp_path / "source")
    subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path / "dist")],
                   cwd=source, check=True, env=env, timeout=900, capture_output=True)
    (sdist,) = (tmp_path / "dist").glob("proxy_types-*.tar.gz")
    bin_dir = fresh_venv(tmp_path / "venv")
    no_compiler = {**env, "CC": "/nonexistent/cc"}
    subprocess.run([str(bin_dir / "pip"), "install", "--quiet", "--no-cache-dir", str(sdist)],
                   check=True, env=no_compiler, timeout=900)
    assert version_line(bin_dir, env).startswith("proxy-types 0.1.0\nguards: pure Python")
    checked = subprocess.run(
        [str(bin_dir / "python"), "-c",
         "from proxy_types import IntegerProxy, is_static_number as s; "
         "print(s(3), s(IntegerProxy('n')))"], capture_output=True, text=True, env=env)
    assert checked.stdout == "True False\n", checked.stderr
