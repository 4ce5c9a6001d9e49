"""What ``fix`` takes a dynamic class to be at run time (no mypy run)."""

from __future__ import annotations

from pathlib import Path

from mypy_plugin.cli.fix.model import CONFIGURED, LEGACY, OWN, TORCH, UNKNOWN, Options
from mypy_plugin.cli.fix.plan import (
    ClassDefinition,
    class_definitions,
    known_ancestors,
    registered_classes,
)

LEGACY_OPTIONS = Options(legacy_classes=("thunder.proxies.FloatProxy",),
                         configured_classes=("mylib.Traced",))


def test_a_legacy_class_named_like_ours_is_told_apart_by_its_import() -> None:
    ours = LEGACY_OPTIONS.dynamic_class("FloatProxy", {"FloatProxy": "proxy_types.FloatProxy"})
    theirs = LEGACY_OPTIONS.dynamic_class("FloatProxy",
                                          {"FloatProxy": "thunder.proxies.FloatProxy"})
    assert (ours.kind, ours.python_type, ours.known_at_run_time) == (OWN, "float", True)
    assert (theirs.kind, theirs.known_at_run_time) == (LEGACY, False)
    # Not imported by name (a type from elsewhere): the configured class wins.
    assert LEGACY_OPTIONS.dynamic_class("FloatProxy").kind == LEGACY
    assert Options().dynamic_class("FloatProxy").kind == OWN


def test_kinds_of_other_classes() -> None:
    assert Options().dynamic_class("SymInt").kind == TORCH
    assert LEGACY_OPTIONS.dynamic_class("Traced").kind == CONFIGURED
    registered = Options(configured_classes=("mylib.Traced",), registered={"Traced": "int"})
    traced = registered.dynamic_class("Traced")
    assert (traced.known_at_run_time, traced.python_type) == (True, "int")
    assert Options().dynamic_class("Mystery").kind == UNKNOWN
    step = Options(builtin_bases={"Mystery": "int"}).dynamic_class("Mystery").registration_step()
    assert "register_dynamic_type(Mystery, int)" in step


def test_subclasses_of_our_proxies_are_ours() -> None:
    definitions = {
        "MyProxy": [ClassDefinition("a.py", ("FloatProxy",))],
        "Deeper": [ClassDefinition("a.py", ("MyProxy", "Mixin"))],
        "Twice": [ClassDefinition("a.py", ("IntegerProxy",)), ClassDefinition("b.py", ())],
    }
    assert known_ancestors(definitions) == {"MyProxy": "FloatProxy", "Deeper": "FloatProxy"}
    options = Options(table_subclasses=known_ancestors(definitions))
    assert (options.dynamic_class("Deeper").kind, options.dynamic_class("Twice").kind) == (
        OWN, UNKNOWN)
    # A class of the project named like ours is not ours, nor what derives from it.
    definitions["FloatProxy"] = [ClassDefinition("legacy.py", ("float",))]
    assert known_ancestors(definitions) == {}


def test_registrations_and_builtin_bases_are_found(tmp_path: Path) -> None:
    module = tmp_path / "legacy.py"
    module.write_text(
        "import proxy_types\nfrom proxy_types import register_dynamic_type\n\n\n"
        "class A(float):\n    pass\n\n\n"
        "@register_dynamic_type(python_type=int)\nclass B(int):\n    pass\n\n\n"
        "class C(float):\n    pass\n\n\n"
        "register_dynamic_type(A, float)\nproxy_types.register_dynamic_type(C, python_type=float)\n",
        encoding="utf-8")
    assert registered_classes([str(module)]) == {"A": "float", "B": "int", "C": "float"}
    assert {name: [d.builtin for d in found]
            for name, found in class_definitions([str(module)]).items()} == {
        "A": ["float"], "B": ["int"], "C": ["float"]}
