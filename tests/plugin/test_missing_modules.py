"""No clean pass that saw nothing: a module defining dynamic classes that mypy cannot
find is reported where checked code imports it (issue #15).

``--no-site-packages`` hides torch from mypy here, as a machine without torch
(or with an editable install mypy cannot follow) would.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mypy import api

REPO = Path(__file__).resolve().parents[2]

SILENT_IMPORTS = "ignore_missing_imports = True\nfollow_imports = silent\n"


def run(tmp_path: Path, files: dict[str, str], settings: str = "", plugin_section: str = "",
        *flags: str) -> tuple[list[str], int]:
    """mypy with the plugin on ``files``; the error lines and the exit status."""
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    section = f"[mypy.plugins.proxy_types]\n{plugin_section}" if plugin_section else ""
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n{settings}{section}")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        stdout, _, status = api.run(["--config-file", "mypy.ini", "--cache-dir",
                                     str(tmp_path / "cache"), "--no-error-summary", *flags,
                                     *sorted(files)])
    finally:
        os.chdir(cwd)
    return [line for line in stdout.splitlines() if ": error:" in line], status


ANNOTATED = """\
import torch


def width(n: torch.SymInt, m: torch.SymInt) -> torch.SymInt:
    return n
"""

CONVERTED = """\
from torch import Tensor


def width(t: Tensor) -> int:
    return int(t.shape[0])
"""


def test_torch_missing_is_reported_at_the_import(tmp_path: Path) -> None:
    errors, status = run(tmp_path, {"model.py": ANNOTATED}, SILENT_IMPORTS, "",
                         "--no-site-packages")
    assert errors == [
        'model.py:1: error: Cannot find module "torch", which defines dynamic number classes '
        "(torch.SymBool, torch.SymFloat, torch.SymInt): mypy sees them as Any here and the "
        "proxy checks stay silent; install it where mypy runs (for an editable install use a "
        "non-editable one or editable_mode=compat), or add its directory to MYPYPATH  "
        "[proxy-config]"]
    assert status == 1


def test_reported_from_checked_calls_without_torch_annotations(tmp_path: Path) -> None:
    errors, _ = run(tmp_path, {"model.py": CONVERTED}, SILENT_IMPORTS, "", "--no-site-packages")
    assert len(errors) == 1 and errors[0].startswith('model.py:1: error: Cannot find module "torch"')


def test_exempt_modules_are_told_too(tmp_path: Path) -> None:
    errors, _ = run(tmp_path, {"legacy.py": ANNOTATED}, SILENT_IMPORTS,
                    "exempt_modules = legacy\n", "--no-site-packages")
    assert [line.split(": error: ")[0] for line in errors] == ["legacy.py:1"]
    assert "[proxy-config]" in errors[0]


def test_configured_class_in_a_missing_module(tmp_path: Path) -> None:
    source = "from tracing_lib import Traced\n\n\ndef f(t: Traced) -> float:\n    return float(t)\n"
    errors, _ = run(tmp_path, {"app.py": source}, SILENT_IMPORTS,
                    "dynamic_number_classes = tracing_lib.core.Traced\n")
    assert len(errors) == 1
    assert errors[0].startswith('app.py:1: error: Cannot find module "tracing_lib", which '
                                "defines dynamic number classes (tracing_lib.Traced)")


def test_a_skipped_module_is_named_as_skipped(tmp_path: Path) -> None:
    errors, _ = run(tmp_path, {"model.py": ANNOTATED},
                    "ignore_missing_imports = True\n[mypy-torch.*]\nfollow_imports = skip\n"
                    "[mypy-torch]\nfollow_imports = skip\n")
    assert len(errors) == 1
    assert errors[0].startswith('model.py:1: error: Module "torch", which defines dynamic number '
                                "classes (torch.SymBool, torch.SymFloat, torch.SymInt), is "
                                "skipped (follow_imports = skip)")


def test_resolved_modules_and_other_missing_modules_are_not_reported(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    source = ("import numpy_is_not_here\nfrom proxy_types import IntegerProxy\n\n\n"
              "def f(p: IntegerProxy) -> None:\n    pass\n")
    errors, status = run(tmp_path, {"app.py": source}, SILENT_IMPORTS)
    assert errors == [] and status == 0
