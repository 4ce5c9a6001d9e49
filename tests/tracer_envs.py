"""Python environments with a tracer the test venv lacks: lightning-thunder and JAX.

thunder: the environment ``.ci/run`` builds with benchmarks/corpora/repros/thunder_env.sh
(``THUNDER_PYTHON``).  JAX: ``JAX_PYTHON`` if set, else a fresh venv with jax (CPU
wheels) and this mypy from PyPI; skipped with the reason when pip cannot install them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
REPROS = REPO / "benchmarks" / "corpora" / "repros"
THUNDER_PYTHON = Path(os.environ.get("THUNDER_PYTHON", REPO / ".thunder" / "python"))
NO_THUNDER = (f"no thunder environment at {THUNDER_PYTHON} "
              "(bash benchmarks/corpora/repros/thunder_env.sh PYTHON DIR; set THUNDER_PYTHON)")

#: Imports thunder 0.2.6 on torch 2.13 (placeholders for removed Tensor methods).
THUNDER_IMPORT = (f"import sys\nsys.path.insert(0, {str(REPROS)!r})\n"
                  "from _repro import import_thunder\nthunder = import_thunder()\n")


def jax_python(directory: Path) -> Path:
    """A Python with jax and the running mypy: ``JAX_PYTHON``, or a new venv in ``directory``."""
    if os.environ.get("JAX_PYTHON"):
        return Path(os.environ["JAX_PYTHON"])
    import mypy.version

    subprocess.run([sys.executable, "-m", "venv", str(directory)], check=True, timeout=300)
    python = directory / "bin" / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "jax",
         f"mypy=={mypy.version.__version__}", "typing_extensions"],
        capture_output=True, text=True, timeout=1200)
    if installed.returncode != 0:
        pytest.skip(f"pip install jax failed (offline?): {installed.stderr.strip()[-300:]}")
    return python


def with_checkout(python: Path, *paths: Path) -> dict[str, str]:
    """An environment in which ``python`` imports proxy_types and mypy_plugin from this
    checkout (and ``paths``), and mypy finds the checkout's stubs."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("MYPY", "PYTHON"))}
    env["PYTHONPATH"] = os.pathsep.join(str(path) for path in (REPO, *paths))
    return env
