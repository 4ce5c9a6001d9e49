"""One gate decides which modules get reports (mypy_plugin/gate.py), applied by routing.

Which modules those are is decided on a real TypeChecker: the hooks of a real
in-process mypy build record the decision for each module they run in.  Every
kind of check is then shown to follow it: a module full of findings reports
each of them, and reports none once exempt, except the class definition.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from mypy.options import Options
from mypy.plugin import FunctionSigContext
from mypy.types import FunctionLike

from mypy import api

from mypy_plugin import _mypy_compat as compat
from mypy_plugin.gate import Verdict
from mypy_plugin.main import ProxyTypesPlugin

REPO = Path(__file__).resolve().parents[2]


class RecordingPlugin(ProxyTypesPlugin):
    """The real plugin, also noting for each module whether its hooks skip it."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self.skipped: dict[str, bool] = {}

    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        hook = super().get_function_signature_hook(fullname)
        if hook is None:
            return None
        real_hook = hook

        def record(ctx: FunctionSigContext) -> FunctionLike:
            verdict = self.gate.in_checker(ctx.api)
            tree = compat.checked_tree(ctx.api)
            self.skipped[tree.fullname if tree is not None else ""] = verdict != Verdict.REPORTED
            return real_hook(ctx)

        return record


@pytest.mark.parametrize(
    ("follow_imports", "expected"),
    [
        ("silent", {"checked": False, "imported": True, "exempted": True}),
        ("normal", {"checked": False, "imported": False, "exempted": True}),
    ],
)
def test_hooks_skip_silenced_and_exempt_modules(
    tmp_path: Path,
    follow_imports: str,
    expected: dict[str, bool],
    build_in_process: Callable[..., None],
) -> None:
    (tmp_path / "checked.py").write_text("import imported, exempted\nx = float('1')\n")
    (tmp_path / "imported.py").write_text("y = float('2')\n")
    (tmp_path / "exempted.py").write_text("z = float('3')\n")
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n[mypy.plugins.proxy_types]\nexempt_modules = exempted\n")
    options = Options()
    options.config_file = str(config)
    options.follow_imports = follow_imports
    plugin = RecordingPlugin(options)
    build_in_process(tmp_path, "checked", plugin, options)
    assert {name: plugin.skipped.get(name) for name in expected} == expected


#: One finding of every check kind that runs in function bodies, plus a class definition.
EVERY_KIND = """\
from typing import cast

from proxy_types import BoolProxy, IntegerProxy


def checks(p: IntegerProxy, flag: BoolProxy, items: list[IntegerProxy]) -> None:
    isinstance(p, int)  # proxy-isinstance
    float(p)  # proxy-concretize (and mypy's own arg-type)
    if p > 0:  # proxy-concretize
        pass
    if flag:  # proxy-concretize
        pass
    cast(int, p)  # proxy-cast
    type(p) is int  # proxy-isinstance
    any(q > 0 for q in items)  # proxy-concretize
    keys: dict[IntegerProxy, int] = {p: 1}  # proxy-concretize
    print(keys)
    f"{p:.2f}"  # proxy-concretize


class Legacy(IntegerProxy, int):  # proxy-base, even where exempt
    pass
"""


def _codes_by_line(stdout: str) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for line in stdout.splitlines():
        if line.startswith("every_kind.py:") and "[proxy-" in line:
            number = int(line.split(":")[1])
            found.setdefault(number, set()).add(line.rsplit("[", 1)[1].rstrip("]"))
    return found


@pytest.mark.parametrize("exempt", [False, True], ids=["reported", "exempt"])
def test_every_check_follows_the_gate(tmp_path: Path, exempt: bool) -> None:
    (tmp_path / "every_kind.py").write_text(EVERY_KIND)
    settings = "[mypy.plugins.proxy_types]\nexempt_modules = every_kind\n" if exempt else ""
    (tmp_path / "mypy.ini").write_text(
        f"[mypy]\nplugins = mypy_plugin\nmypy_path = {REPO / 'stubs'}\n{settings}")
    stdout, stderr, _ = api.run(["--config-file", str(tmp_path / "mypy.ini"), "--cache-dir",
                                 str(tmp_path / "cache"), str(tmp_path / "every_kind.py")])
    found = _codes_by_line(stdout.replace(str(tmp_path) + "/", ""))
    class_line = EVERY_KIND.splitlines().index("class Legacy(IntegerProxy, int):  "
                                               "# proxy-base, even where exempt") + 1
    assert found.pop(class_line, set()) == {"proxy-base"}, stdout
    body_lines = [number for number, text in enumerate(EVERY_KIND.splitlines(), 1)
                  if "# proxy-" in text and number != class_line]
    if exempt:
        assert found == {}, stdout
    else:
        assert sorted(found) == body_lines, stdout
    assert "proxy-internal" not in stdout + stderr


GATING_NAMES = ("is_exempt", "reports_hidden", "in_checker", "in_analyzer", "is_installed_library")


def test_only_the_routing_layer_and_the_gate_decide_which_modules_get_reports() -> None:
    plugin = REPO / "mypy_plugin"
    deciding = sorted(
        str(path.relative_to(plugin))
        for path in plugin.rglob("*.py")
        if "cli" not in path.relative_to(plugin).parts
        and any(f"{name}(" in path.read_text() for name in GATING_NAMES)
    )
    # config.py defines is_exempt/is_installed_library, _mypy_compat reads mypy's verdict;
    # main.py routes, runner.py runs each check under the gate's verdict; entry_points.py
    # follows calls into checked code only (which functions are traced, not who is told);
    # call_sites asks the gate whether a callee gets reports of its own (then a sink of a
    # parameter it declares dynamic is reported there, not at each call); missing_modules
    # reports an unresolved name in the user's modules but not in an installed library's;
    # daemon_deps tracks the sources of user modules for dmypy (which change), not reports.
    assert deciding == ["_mypy_compat.py", "analysis/entry_points.py", "checks/call_sites.py",
                        "checks/missing_modules.py", "config.py", "daemon_deps.py", "gate.py",
                        "main.py", "runner.py"], deciding
