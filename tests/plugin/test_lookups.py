"""In a real mypy build, the plugin's lookup methods run once per name.

mypy asks for a hook before every call it checks; the plugin answers repeated
questions from a dict installed in place of each lookup method.  These tests
count how often the lookup methods themselves run during an in-process build.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mypy.options import Options
from mypy.plugin import AnalyzeTypeContext, MethodContext
from mypy.types import Type

from mypy_plugin.hooks import TYPE_ANALYZE
from mypy_plugin.main import ProxyTypesPlugin

SOURCE = """\
from typing import cast

def compare(a: int, b: int, c: str) -> bool:
    first = a < b
    second = a < b
    third = b < a
    return c < c and first and second and third

x = cast(int, 3)
y: int = 4
"""


class CountingPlugin(ProxyTypesPlugin):
    """The real plugin, counting the runs of two of its lookup methods by name."""

    def __init__(self, options: Options) -> None:
        self.method_lookups: Counter[str] = Counter()
        self.type_lookups: Counter[str] = Counter()
        super().__init__(options)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        self.method_lookups[fullname] += 1
        return super().get_method_hook(fullname)

    def get_type_analyze_hook(
        self, fullname: str
    ) -> Callable[[AnalyzeTypeContext], Type] | None:
        self.type_lookups[fullname] += 1
        return super().get_type_analyze_hook(fullname)


def checked(tmp_path: Path, build_in_process: Callable[..., None]) -> CountingPlugin:
    (tmp_path / "compared.py").write_text(SOURCE)
    options = Options()
    plugin = CountingPlugin(options)
    build_in_process(tmp_path, "compared", plugin, options)
    return plugin


def test_each_method_name_is_looked_up_once(
    tmp_path: Path, build_in_process: Callable[..., None]
) -> None:
    plugin = checked(tmp_path, build_in_process)
    # Three int comparisons in the source (and more in builtins): looked up once.
    assert plugin.method_lookups["builtins.int.__lt__"] == 1
    assert plugin.method_lookups["builtins.str.__lt__"] == 1
    assert max(plugin.method_lookups.values()) == 1


def test_type_lookups_repeat_only_for_the_classes_the_hook_wants(
    tmp_path: Path, build_in_process: Callable[..., None]
) -> None:
    plugin = checked(tmp_path, build_in_process)
    # int is annotated four times and cast to once: its answer depends on the module.
    assert plugin.type_lookups["builtins.int"] >= 4
    # Other names are answered (None) without running the lookup method at all.
    assert plugin.type_lookups["builtins.str"] == 0
    assert set(plugin.type_lookups) <= plugin.table.names(TYPE_ANALYZE)


def test_answers_match_the_lookup_methods(tmp_path: Path) -> None:
    plugin = CountingPlugin(Options())
    for name in ("builtins.int.__lt__", "builtins.list.append", "builtins.str.__eq__"):
        expected: Any = ProxyTypesPlugin.get_method_hook(plugin, name)
        answered = plugin.get_method_hook(name)
        assert (answered is None) == (expected is None)
