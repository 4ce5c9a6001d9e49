"""A call-site report names the sink's file the same way on every machine: after
``site-packages/`` for an installed package, relative to the current directory inside
it, else from the root of the sink's module (``pkg/helpers.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from mypy import api

from mypy_plugin.analysis.shown_paths import location_path, shown_path

REPO = Path(__file__).resolve().parents[2]

HELPERS = """\
import numbers


def widths(width):
    if isinstance(width, numbers.Integral):
        return (width,)
    return tuple(width)
"""

CALLER = """\
from proxy_types import IntegerProxy
from pkg.helpers import widths


def use(n: IntegerProxy) -> None:
    widths(n)
"""


@pytest.fixture
def inside(tmp_path: Path) -> Iterator[Path]:
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(cwd)


def test_an_installed_file_is_shown_from_site_packages() -> None:
    shown = shown_path("/opt/venv/lib/python3.12/site-packages/torch/nn/modules/linear.py",
                        "torch.nn.modules.linear")
    assert shown == "torch/nn/modules/linear.py"


def test_a_file_in_the_current_directory_is_shown_relative_to_it(inside: Path) -> None:
    assert shown_path(str(inside / "src" / "pkg" / "mod.py"), "pkg.mod") == "src/pkg/mod.py"
    assert shown_path("pkg/mod.py", "pkg.mod") == "pkg/mod.py"  # as mypy has it
    assert shown_path("./model.py") == "model.py"  # `check .` gives mypy ./model.py


def test_a_step_is_a_location_relative_inside_and_absolute_outside(inside: Path) -> None:
    assert location_path("./model.py") == "model.py"
    assert location_path(str(inside / "src" / "model.py")) == "src/model.py"
    installed = "/opt/venv/lib/python3.12/site-packages/torch/nn/modules/linear.py"
    assert location_path(installed) == installed  # a tool can open it
    assert shown_path(installed) == "torch/nn/modules/linear.py"  # a message names it


def test_a_file_elsewhere_is_shown_from_its_module_root(inside: Path) -> None:
    elsewhere = inside.parent / "elsewhere-root"
    assert shown_path(str(elsewhere / "pkg" / "sub" / "mod.py"), "pkg.sub.mod") == \
        "pkg/sub/mod.py"
    assert shown_path(str(elsewhere / "pkg" / "__init__.py"), "pkg") == "pkg/__init__.py"
    # without the module, the path as it is
    assert shown_path(str(elsewhere / "mod.py")) == str(elsewhere / "mod.py")


def test_the_report_names_a_sink_outside_the_current_directory_by_its_module_path(
        tmp_path: Path) -> None:
    library = tmp_path / "lib" / "pkg"
    library.mkdir(parents=True)
    (library / "__init__.py").write_text("")
    (library / "helpers.py").write_text(HELPERS)
    app = tmp_path / "app"
    app.mkdir()
    (app / "main.py").write_text(CALLER)
    (app / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}, {tmp_path / 'lib'}\n")
    cwd = os.getcwd()
    os.chdir(app)
    try:
        stdout, stderr, _ = api.run(["--config-file", "mypy.ini", "--cache-dir",
                                     str(tmp_path / "cache"), "--no-error-summary", "main.py"])
    finally:
        os.chdir(cwd)
    reports = [line for line in stdout.splitlines() if "[proxy-isinstance]" in line]
    assert len(reports) == 1, (stdout, stderr)
    assert "in pkg.helpers.widths (pkg/helpers.py:5) via width" in reports[0]
    assert str(tmp_path) not in stdout
