"""Check-time hooks skip modules whose reports would be discarded or are unwanted.

Which modules those are is decided on a real TypeChecker: the hooks of a real
in-process mypy build record the decision for each module they run in.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from mypy.options import Options
from mypy.plugin import FunctionSigContext
from mypy.types import FunctionLike

from mypy_plugin.analysis.context import current_module, gets_no_reports
from mypy_plugin.main import ProxyTypesPlugin


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
            self.skipped[current_module(ctx.api)] = gets_no_reports(ctx.api, self.config)
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
