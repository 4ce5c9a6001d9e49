"""Every rewrite of ``proxy-types fix`` checked by running the code before and after it.

One project declares each function with one kind of dynamic number: proxy_types'
proxies, torch's Sym types, a legacy proxy class that still subclasses ``float``
(named ``FloatProxy`` like ours, thunder-style) and an unregistered one, and
legacy classes registered with ``register_dynamic_type``.  ``fix`` runs on it
(real mypy, the real command); then each function runs, before and after, on
static numbers, unregistered legacy values (static to the runtime), and the
dynamic values of its kind (torch's from a real ShapeEnv).  What must hold:

* static values: the same result (or the same exception type);
* dynamic values: no silent concretization or misclassification.  A check
  answers as its meaning says (a constant check: False; a number check: True;
  a kind check: the kind the value stands for); a conversion either raises
  ``ConcretizationError`` or returns the value with a guard recorded;
* a site where no rewrite meets this (an unregistered legacy class, an
  operation torch keeps symbolic) is left as it was and listed with the reason.
"""

from __future__ import annotations

import importlib.util
import math
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

RunCli = Callable[..., subprocess.CompletedProcess[str]]

CONFIG = """\
[mypy]
plugins = mypy_plugin
check_untyped_defs = True
follow_imports = silent
# torch's conversions guard: reported (and so rewritten) only with this code on.
enable_error_code = proxy-specialize

[mypy.plugins.proxy_types]
migrate_classes = legacy.FloatProxy, legacy.LegacyInt, legacy.RegisteredFloat,
    legacy.RegisteredInt
"""

LEGACY = '''\
"""Legacy proxies: classes that still subclass the builtin number they stand for."""

from __future__ import annotations

from proxy_types import register_dynamic_type


class FloatProxy(float):
    """Named like ours, as thunder's was; not registered."""


class LegacyInt(int):
    """Not registered."""


class RegisteredFloat(float):
    """Registered below: proxy_types knows it for a dynamic float."""


class RegisteredInt(int):
    """Registered below."""


register_dynamic_type(RegisteredFloat, float)
register_dynamic_type(RegisteredInt, int)
'''

# Each function states one question about one kind of dynamic number.
SITES = '''\
"""Sites of one kind of dynamic number ({kind})."""

from __future__ import annotations

import math
import numbers

{imports}


def constant_check(x: float | {F}) -> bool:
    return isinstance(x, numbers.Number)


def real_check(x: float | {F}) -> bool:
    return isinstance(x, (int, float))


def integral_check(n: int | {I}) -> bool:
    return isinstance(n, numbers.Integral)


def as_float(x: float | {F}) -> float:
    return float(x)


def root(x: float | {F}) -> float:
    return math.sqrt(x)


def rounded(x: float | {F}) -> int:
    return round(x)


def floored(x: float | {F}) -> int:
    return math.floor(x)


def pick(items: list[str], n: int | {I}) -> str:
    return items[n]


def show(x: float) -> str:
    return "<" + repr(x) + ">"


def shown(x: {F}) -> str:
    return show(x)
'''

KINDS = {
    "own": ("from proxy_types import FloatProxy, IntegerProxy", "FloatProxy", "IntegerProxy"),
    "torch": ("import torch", "torch.SymFloat", "torch.SymInt"),
    "legacy": ("from legacy import FloatProxy, LegacyInt", "FloatProxy", "LegacyInt"),
    "registered": ("from legacy import RegisteredFloat, RegisteredInt", "RegisteredFloat",
                   "RegisteredInt"),
}
CHECKS = ("constant_check", "real_check", "integral_check")
CONVERSIONS = ("as_float", "root", "rounded", "floored", "pick")
# What the table says round() and math.floor() do: symbolic for torch and configured
# classes (not reported), an error for our proxies (reported, and rewritten).
SYMBOLIC = ("rounded", "floored")
VALUE_CONVERSIONS = tuple(name for name in CONVERSIONS if name not in SYMBOLIC)
ITEMS = ["a", "b", "c", "d"]


def write_project(directory: Path) -> Path:
    directory.mkdir(parents=True)
    (directory / "mypy.ini").write_text(CONFIG, encoding="utf-8")
    (directory / "legacy.py").write_text(LEGACY, encoding="utf-8")
    for kind, (imports, float_type, int_type) in KINDS.items():
        text = SITES.format(kind=kind, imports=imports, F=float_type, I=int_type)
        (directory / f"sites_{kind}.py").write_text(text, encoding="utf-8")
    return directory


Fixed = tuple[Path, Path, subprocess.CompletedProcess[str]]


def fix_project(tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli,
                *options: str) -> Fixed:
    pytest.importorskip("torch")
    root = tmp_path_factory.mktemp("runtime")
    before = write_project(root / "before")
    after = write_project(root / "after")
    result = run_cli("fix", *options, ".", cwd=after)
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return before, after, result


@pytest.fixture(scope="module")
def static_intent(tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli) -> Fixed:
    return fix_project(tmp_path_factory, run_cli, "--intent", "static")


@pytest.fixture(scope="module")
def number_intent(tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli) -> Fixed:
    # Migration mode (migrate_classes) reads every check as "static or dynamic".
    return fix_project(tmp_path_factory, run_cli)


@pytest.fixture(scope="module")
def classes_style(tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli) -> Fixed:
    return fix_project(tmp_path_factory, run_cli, "--intent", "number", "--style", "classes")


# -- running the code ------------------------------------------------------------

_loaded = 0


def load(path: Path) -> ModuleType:
    """Import ``path`` under a fresh name, with its directory importable (``legacy``)."""
    global _loaded
    _loaded += 1
    sys.path.insert(0, str(path.parent))
    try:
        sys.modules.pop("legacy", None)  # each project's own legacy classes
        spec = importlib.util.spec_from_file_location(f"fix_runtime_{_loaded}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(path.parent))


class Values:
    """The values each function runs on, by what the runtime takes them for."""

    def __init__(self, legacy: ModuleType) -> None:
        from torch._dynamo.source import ConstantSource
        from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv

        from proxy_types import FloatProxy, IntegerProxy

        self.shape_env = ShapeEnv()

        def symbol(hint: float, name: str) -> Any:
            return self.shape_env.create_symbol(hint, ConstantSource(name),
                                                dynamic_dim=DimDynamic.DYNAMIC, positive=None)

        self.static: dict[str, object] = {
            "int": 3, "float": 2.5, "bool": True, "complex": 1 + 2j,
            # Unregistered legacy values are static numbers to the runtime.
            "unregistered legacy float": legacy.FloatProxy(2.5),
            "unregistered legacy int": legacy.LegacyInt(3),
        }
        self.dynamic: dict[str, dict[str, object]] = {
            "own": {"float": FloatProxy("p", 2.5), "int": IntegerProxy("n", 3)},
            "registered": {"float": legacy.RegisteredFloat(2.5), "int": legacy.RegisteredInt(3)},
            "torch": {
                "float": self.shape_env.create_symfloatnode(symbol(2.5, "f"), hint=2.5),
                "int": self.shape_env.create_symintnode(symbol(3, "n"), hint=3),
            },
        }
        self.dynamic["legacy"] = {"float": legacy.FloatProxy(2.5), "int": legacy.LegacyInt(3)}

    def guards(self) -> int:
        return len(self.shape_env.guards)


def outcome(function: Callable[..., Any], *args: object) -> tuple[str, object]:
    """("ok", result) or ("raises", exception type name)."""
    try:
        return "ok", function(*args)
    except Exception as error:  # the comparison is the point: any exception type
        return "raises", type(error).__name__


def call(module: ModuleType, name: str, value: object) -> tuple[str, object]:
    function = getattr(module, name)
    return outcome(function, ITEMS, value) if name == "pick" else outcome(function, value)


@pytest.fixture
def loaded() -> Iterator[Callable[[Fixed], dict[str, tuple[ModuleType, ModuleType, Values]]]]:
    def load_all(fixed: Fixed) -> dict[str, tuple[ModuleType, ModuleType, Values]]:
        before, after, _ = fixed
        modules = {}
        for kind in KINDS:
            old = load(before / f"sites_{kind}.py")
            new = load(after / f"sites_{kind}.py")
            legacy = sys.modules.get("legacy") or load(after / "legacy.py")
            modules[kind] = (old, new, Values(legacy))
        return modules

    yield load_all
    sys.modules.pop("legacy", None)


def left_sites(stdout: str) -> dict[tuple[str, int], str]:
    return {(m["file"], int(m["line"])): m["reason"] for m in re.finditer(
        r"^  (?P<file>\S+\.py):(?P<line>\d+):\d+: \[[\w-]+\] (?P<reason>.*)$", stdout,
        re.MULTILINE)}


def function_lines(path: Path) -> dict[str, tuple[int, int]]:
    """Line spans of each function in ``path``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    starts = [(i + 1, line.split("(")[0][4:]) for i, line in enumerate(lines)
              if line.startswith("def ")]
    spans = {}
    for index, (start, name) in enumerate(starts):
        end = starts[index + 1][0] - 1 if index + 1 < len(starts) else len(lines)
        spans[name] = (start, end)
    return spans


def left_in(fixed: Fixed, kind: str) -> dict[str, str]:
    """Function name -> why the fix left its finding, for ``sites_KIND.py``."""
    _, after, result = fixed
    spans = function_lines(after / f"sites_{kind}.py")
    found = {}
    for (file, line), reason in left_sites(result.stdout).items():
        if file == f"sites_{kind}.py":
            name = next(n for n, (start, end) in spans.items() if start <= line <= end)
            found[name] = reason
    return found


def changed(fixed: Fixed, kind: str, name: str) -> bool:
    before, after, _ = fixed
    old = function_source(before / f"sites_{kind}.py", name)
    return old != function_source(after / f"sites_{kind}.py", name)


def function_source(path: Path, name: str) -> str:
    lines = path.read_text(encoding="utf-8").splitlines()
    start, end = function_lines(path)[name]
    return "\n".join(lines[start - 1:end]).strip()


# -- what must hold ------------------------------------------------------------------

INTEGRAL = {"int"}
REAL = {"int", "float"}


def expected_check(name: str, intent: str, python_type: str) -> bool:
    """The meaning of a check for a dynamic number standing for ``python_type``."""
    if intent == "static":
        return False  # "is it a constant?"
    if name == "integral_check":
        return python_type in INTEGRAL
    return python_type in REAL  # a number (constant_check) or a real one (real_check)


def assert_static_values_keep_their_result(old: ModuleType, new: ModuleType, values: Values,
                                           names: tuple[str, ...]) -> None:
    from proxy_types import is_static_number

    for name in names:
        for label, value in values.static.items():
            if not is_static_number(value):
                continue  # a legacy class registered by the fix: a dynamic number now
            assert call(new, name, value) == call(old, name, value), (name, label)


def assert_checks_mean_what_they_ask(new: ModuleType, values: Values, kind: str,
                                     intent: str) -> None:
    for name in CHECKS:
        for python_type, value in values.dynamic[kind].items():
            assert call(new, name, value) == ("ok", expected_check(name, intent, python_type)), (
                name, kind, python_type)


def assert_conversions_are_not_silent(old: ModuleType, new: ModuleType, values: Values,
                                      kind: str, fixed: Fixed) -> None:
    from proxy_types import trace

    for name in CONVERSIONS:
        if not changed(fixed, kind, name):
            continue
        python_type = "int" if name == "pick" else "float"  # as the function declares
        for value in (values.dynamic[kind][python_type],):
            guards_before = values.guards()
            with trace() as recorded:
                result = call(new, name, value)
            guarded = values.guards() > guards_before or bool(recorded.guards)
            assert result == ("raises", "ConcretizationError") or (
                result[0] == "ok" and guarded and not is_dynamic(result[1])), (
                name, kind, python_type, result)
            # The value is the one the static number gives (a recorded specialization).
            if result[0] == "ok":
                static = 2.5 if python_type == "float" else 3
                assert result == call(old, name, static), (name, kind, python_type)


def is_dynamic(value: object) -> bool:
    from proxy_types import is_dynamic_number

    return is_dynamic_number(value)


# -- the tests ---------------------------------------------------------------------


def test_static_intent_rewrites_hold_at_run_time(static_intent: Fixed, loaded: Any) -> None:
    for kind, (old, new, values) in loaded(static_intent).items():
        assert_static_values_keep_their_result(old, new, values, CHECKS + CONVERSIONS)
        if kind != "legacy":
            assert_checks_mean_what_they_ask(new, values, kind, "static")
            assert_conversions_are_not_silent(old, new, values, kind, static_intent)


def test_number_intent_rewrites_hold_at_run_time(number_intent: Fixed, loaded: Any) -> None:
    for kind, (old, new, values) in loaded(number_intent).items():
        assert_static_values_keep_their_result(old, new, values, CHECKS + CONVERSIONS)
        assert_checks_mean_what_they_ask(new, values, kind, "number")


def test_classes_style_rewrites_hold_at_run_time(classes_style: Fixed, loaded: Any) -> None:
    for kind, (old, new, values) in loaded(classes_style).items():
        assert_static_values_keep_their_result(old, new, values, CHECKS)
        assert_checks_mean_what_they_ask(new, values, kind, "number")
    _, after, _ = classes_style
    assert "DynamicNumber" in (after / "sites_own.py").read_text(encoding="utf-8")


def test_guards_answer_for_every_kind_of_value(static_intent: Fixed, number_intent: Fixed,
                                               loaded: Any) -> None:
    """A guard does not depend on the declared type: every dynamic value, every guard."""
    for fixed, intent in ((static_intent, "static"), (number_intent, "number")):
        modules = loaded(fixed)
        _, new, values = modules["own"]
        for kind in ("own", "registered", "torch"):
            for python_type, value in values.dynamic[kind].items():
                if kind != "own":
                    value = modules[kind][2].dynamic[kind][python_type]
                for name in CHECKS:
                    assert call(new, name, value) == (
                        "ok", expected_check(name, intent, python_type)), (name, kind, intent)


def test_unregistered_legacy_sites_are_listed_with_the_registration_step(
    static_intent: Fixed, number_intent: Fixed
) -> None:
    left = left_in(static_intent, "legacy")
    for name in (*CHECKS, *CONVERSIONS):
        assert not changed(static_intent, "legacy", name), name
    for name in (*CHECKS, *VALUE_CONVERSIONS):
        assert name in left, (name, left)
    assert "register_dynamic_type(FloatProxy, float)" in left["constant_check"]
    assert "register_dynamic_type(LegacyInt, int)" in left["integral_check"]
    assert "unregistered: still silently concretized" in left["as_float"]
    # Number intent: the guards accept a legacy proxy, as the check did.
    for name in CHECKS:
        assert changed(number_intent, "legacy", name), name


def test_registered_legacy_checks_are_rewritten_and_conversions_listed(
    static_intent: Fixed
) -> None:
    left = left_in(static_intent, "registered")
    for name in CHECKS:
        assert changed(static_intent, "registered", name), name
    for name in CONVERSIONS:  # to_static() cannot read a class it does not own
        assert not changed(static_intent, "registered", name), name
    for name in VALUE_CONVERSIONS:
        assert "to_static() reads only proxy_types proxies" in left[name], left


def test_torch_symbolic_operations_are_left(static_intent: Fixed, loaded: Any) -> None:
    left = left_in(static_intent, "torch")
    for name in SYMBOLIC:  # the plugin no longer reports them; fix would refuse them anyway
        assert not changed(static_intent, "torch", name)
        # Listed only as what a check still reports: mypy's own error there.
        assert name not in left or "symbolic" in left[name] or left[name].startswith(
            "mypy's own error"), left
    for name in ("as_float", "root", "pick"):
        assert changed(static_intent, "torch", name), name
    # Why: round() of a SymFloat stays symbolic, round(to_static()) is a constant.
    from proxy_types import to_static

    values = loaded(static_intent)["torch"][2]
    symbolic = values.dynamic["torch"]["float"]
    assert is_dynamic(round(symbolic))
    assert round(to_static(symbolic)) == 2 and not is_dynamic(round(to_static(symbolic)))
    assert is_dynamic(math.floor(symbolic))


def test_own_proxies_get_a_recorded_guard_where_they_raised(static_intent: Fixed,
                                                            loaded: Any) -> None:
    old, new, values = loaded(static_intent)["own"]
    proxy = values.dynamic["own"]["float"]
    for name in ("as_float", "root", "rounded", "floored"):
        assert call(old, name, proxy) == ("raises", "ConcretizationError")
        assert changed(static_intent, "own", name), name
    from proxy_types import FloatProxy

    assert call(new, "as_float", FloatProxy("unknown")) == ("raises", "ConcretizationError")


def test_registered_values_are_no_longer_misclassified(static_intent: Fixed,
                                                       loaded: Any) -> None:
    old, new, values = loaded(static_intent)["registered"]
    value = values.dynamic["registered"]["float"]
    assert call(old, "constant_check", value) == ("ok", True)  # taken for a constant before
    assert call(new, "constant_check", value) == ("ok", False)


def test_annotation_rewrites_change_nothing_at_run_time(number_intent: Fixed,
                                                         loaded: Any) -> None:
    _, after, result = number_intent
    assert "def show(x: NumberLike)" in (after / "sites_own.py").read_text(encoding="utf-8")
    for kind, (old, new, values) in loaded(number_intent).items():
        everything = [*values.static.values(), *values.dynamic[kind].values()]
        for value in everything:
            for name in ("show", "shown"):
                assert call(new, name, value) == call(old, name, value), (kind, name)


def test_register_adds_the_registration_and_then_fixes_the_checks(
    tmp_path_factory: pytest.TempPathFactory, run_cli: RunCli, loaded: Any
) -> None:
    fixed = fix_project(tmp_path_factory, run_cli, "--register", "--intent", "static")
    _, after, result = fixed
    legacy = (after / "legacy.py").read_text(encoding="utf-8")
    assert "register_dynamic_type(FloatProxy, float)" in legacy
    assert "register_dynamic_type(LegacyInt, int)" in legacy
    assert re.search(r"^  register_dynamic_type\(\) added\s+2$", result.stdout, re.MULTILINE)
    for name in CHECKS:
        assert changed(fixed, "legacy", name), name
    old, new, values = loaded(fixed)["legacy"]
    assert_checks_mean_what_they_ask(new, values, "legacy", "static")
    assert_static_values_keep_their_result(
        old, new, values, CHECKS)  # real static numbers only: legacy values are now dynamic
