"""proxy_types.audit(): what it records, what it leaves alone, and that it puts everything back.

Lines are found by their ``# mark: NAME`` comment, so a record's line is checked
against the line that really made the call.
"""

from __future__ import annotations

import asyncio
import builtins
import importlib
import math
import numbers
import operator
import sys
import textwrap
import threading
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from proxy_types import (
    Audit,
    AuditRecord,
    BoolProxy,
    ConcretizationError,
    ConfigurationError,
    FloatProxy,
    IntegerProxy,
    NumberClasses,
    audit,
    external_isinstance,
    is_dynamic_number,
    is_static_number,
    register_dynamic_type,
    to_static,
)
from proxy_types._audit import is_library_file, patched_names
from proxy_types._proxies import NumberProxy

HERE = Path(__file__).resolve()
SOURCE = HERE.read_text(encoding="utf-8").splitlines()
#: The runtime's private guard state (the stubs, the typed contract, leave it out).
_guards: Any = importlib.import_module("proxy_types._guards")


def is_c_builtin(function: object) -> bool:
    return type(function) is types.BuiltinFunctionType


def load(name: str) -> Any:
    """A module the test wrote (no stubs for mypy)."""
    return importlib.import_module(name)


def line_of(name: str) -> int:
    """The line ending in ``# mark: name`` (exactly one)."""
    found = [number for number, text in enumerate(SOURCE, start=1)
             if text.rstrip().endswith(f"# mark: {name}")]
    assert len(found) == 1, (name, found)
    return found[0]


def mine(found: Audit) -> list[AuditRecord]:
    """The records made in this file."""
    return [record for record in found.records if record.file == str(HERE)]


def summary(records: list[AuditRecord]) -> list[tuple[int, str, str, str | None, str, int]]:
    return [(r.line, r.code, r.operation, r.dynamic_class, r.outcome, r.count) for r in records]


class Silent:
    """Modelled on thunder 0.2.6's number proxies: conversions give the trace-time value."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __bool__(self) -> bool:
        return bool(self.value)

    def __index__(self) -> int:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def __round__(self, ndigits: int | None = None) -> Silent:
        return self  # stays dynamic: not a conversion


SILENT = f"{__name__}.Silent"


@pytest.fixture
def silent_class() -> Iterator[type[Silent]]:
    """Silent, registered as a dynamic int for the test only."""
    register_dynamic_type(Silent, python_type=int)
    try:
        yield Silent
    finally:
        _guards._registered.pop(id(Silent), None)
        _guards._forget_answers()


def snapshot() -> dict[str, Any]:
    """Everything an audit may touch, by identity."""
    watched = [NumberProxy, IntegerProxy, Silent]
    return {
        "builtins": dict(builtins.__dict__),
        "classes": {cls.__name__: dict(cls.__dict__) for cls in watched},
        "meta_path": list(sys.meta_path),
        "listeners": list(_guards._registration_listeners),
    }


def assert_same(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert after["builtins"].keys() == before["builtins"].keys()
    changed = [k for k, v in before["builtins"].items() if after["builtins"][k] is not v]
    assert changed == []
    for name, attributes in before["classes"].items():
        now = after["classes"][name]
        assert now.keys() == attributes.keys(), name
        assert [k for k, v in attributes.items() if now[k] is not v] == [], name
    assert after["meta_path"] == before["meta_path"]
    assert after["listeners"] == before["listeners"] == []


# -- zero cost when off, restored exactly ---------------------------------------------------------

def test_nothing_is_patched_while_no_audit_is_active() -> None:
    assert patched_names() == []
    assert is_c_builtin(builtins.isinstance) and is_c_builtin(builtins.issubclass)
    assert NumberProxy.__dict__["__bool__"].__qualname__ == "__bool__"
    assert not hasattr(NumberProxy.__dict__["__bool__"], "__proxy_types_audit__")


def test_an_active_audit_patches_and_its_end_restores_everything(silent_class: type) -> None:
    before = snapshot()
    with audit(config=False) as found:
        was_active = found.active
        assert not is_c_builtin(builtins.isinstance)
        names = patched_names()
        assert {"builtins.isinstance", "builtins.issubclass",
                "proxy_types._proxies.NumberProxy.__bool__", f"{SILENT}.__bool__",
                f"{SILENT}.__format__"} <= set(names)
        assert f"{SILENT}.__round__" in names  # watched; its dynamic result is no record
        assert f"{SILENT}.__init__" not in names
    assert (was_active, found.active) == (True, False)
    assert patched_names() == []
    assert_same(before, snapshot())


def test_an_exception_inside_the_audit_still_restores_everything(silent_class: type) -> None:
    before = snapshot()
    with pytest.raises(ZeroDivisionError):
        with audit(config=False):
            assert patched_names()
            1 / 0
    assert patched_names() == []
    assert_same(before, snapshot())


def test_an_audit_is_entered_once() -> None:
    session = audit(config=False)
    with session:
        pass
    with pytest.raises(RuntimeError, match="entered only once"):
        session.__enter__()


def test_importing_the_command_package_keeps_the_function() -> None:
    import proxy_types.audit  # what `python -m proxy_types.audit` imports

    assert isinstance(sys.modules["proxy_types.audit"], types.ModuleType)
    assert proxy_types.audit is audit and callable(proxy_types.audit)
    from proxy_types import audit as imported

    assert imported is audit


# -- isinstance / issubclass ----------------------------------------------------------------------

def test_checks_against_static_classes_only_are_recorded_with_counts() -> None:
    p = IntegerProxy("n", 3)
    with audit(config=False) as found:
        for _ in range(3):
            isinstance(p, int)  # mark: int-loop
        isinstance(p, (float, numbers.Integral))  # mark: tuple
        issubclass(type(p), int)  # mark: issubclass
        isinstance(p, int | None)  # mark: union
    records = mine(found)
    proxy_class = "proxy_types._proxies.IntegerProxy"
    assert summary(records) == [
        (line_of("int-loop"), "proxy-isinstance", "isinstance", proxy_class, "False", 3),
        (line_of("tuple"), "proxy-isinstance", "isinstance", proxy_class, "False", 1),
        (line_of("issubclass"), "proxy-isinstance", "issubclass", proxy_class, "False", 1),
        (line_of("union"), "proxy-isinstance", "isinstance", proxy_class, "False", 1),
    ]
    assert records[1].classes == ("float", "numbers.Integral")
    assert records[3].classes == ("int", "NoneType")
    first = records[0]
    assert (first.column, first.end_line) == (13, first.line)
    assert first.end_column == 13 + len("isinstance(p, int)")
    assert first.severity == "error" and "proxy_types.is_static_number()" in (first.hint or "")


def test_a_check_that_names_a_dynamic_class_is_not_recorded() -> None:
    """``(float, FloatProxy)`` sorts dynamic numbers on purpose: an IntegerProxy is no float."""
    p = IntegerProxy("n", 3)
    with audit(config=False) as found:
        isinstance(p, (float, FloatProxy))
        isinstance(p, float)  # mark: static-only
    assert [record.line for record in mine(found)] == [line_of("static-only")]


def test_correct_checks_and_proxy_types_own_guards_are_not_recorded() -> None:
    p: Any = IntegerProxy("n", 3)
    with audit(config=False) as found:
        assert not isinstance(p, str)
        assert isinstance(p, NumberClasses)
        assert isinstance(p, (int, IntegerProxy))
        assert isinstance(3, int) and issubclass(bool, int)
        assert is_dynamic_number(p) and not is_static_number(p)
        assert not external_isinstance(p, float)  # calls isinstance(p, float) in proxy_types
        assert to_static(p) == 3
        assert isinstance(p + 1, NumberProxy)
    assert found.records == []


def test_a_legacy_proxy_that_is_an_int_is_recorded_as_true() -> None:
    class LegacyInt(int):
        pass

    register_dynamic_type(LegacyInt, python_type=int)
    try:
        legacy = LegacyInt(5)
        with audit(config=False) as found:
            assert isinstance(legacy, int)  # mark: legacy-true
            total = legacy + 0  # int's own arithmetic: no conversion dunder runs
            if legacy:  # mark: legacy-bool
                total += 1
        assert summary(mine(found)) == [
            (line_of("legacy-true"), "proxy-isinstance", "isinstance",
             f"{__name__}.{LegacyInt.__qualname__}", "True", 1),
            (line_of("legacy-bool"), "proxy-concretize", "__bool__",
             f"{__name__}.{LegacyInt.__qualname__}", "returned True", 1),
        ]
        assert "__bool__" not in LegacyInt.__dict__  # the inherited slot came back
    finally:
        _guards._registered.pop(id(LegacyInt), None)
        _guards._forget_answers()


# -- conversions -----------------------------------------------------------------------------------

def test_refused_conversions_of_proxies_are_recorded_as_raised() -> None:
    p: Any = IntegerProxy("n", 3)
    b: Any = BoolProxy("b")
    with audit(config=False) as found:
        with pytest.raises(ConcretizationError):
            int(p)  # mark: int
        with pytest.raises(ConcretizationError):
            [1, 2, 3, 4][p]  # mark: index
        with pytest.raises(ConcretizationError):
            math.floor(p)  # mark: floor
        with pytest.raises(ConcretizationError):
            {p: 1}  # mark: hash
        with pytest.raises(ConcretizationError):
            if b:  # mark: bool
                pass
    raised = "raised ConcretizationError"
    assert [(r.line, r.operation, r.outcome) for r in mine(found)] == [
        (line_of("int"), "__int__", raised),
        (line_of("index"), "__index__", raised),
        (line_of("floor"), "__floor__", raised),
        (line_of("hash"), "__hash__", raised),
        (line_of("bool"), "__bool__", raised),
    ]
    assert all(r.code == "proxy-concretize" for r in found.records)


def test_printing_a_proxy_and_arithmetic_are_not_conversions() -> None:
    p: Any = IntegerProxy("n", 3)
    with audit(config=False) as found:
        assert f"{p}" == str(p) == "n"  # object's __format__: the name, not the value
        q = -(p * 2 + 1)
        assert isinstance(q, IntegerProxy) and repr(q)
    assert found.records == []


def test_a_registered_foreign_class_with_silent_conversions(silent_class: type[Silent]) -> None:
    value = silent_class(4)
    chosen = ""
    with audit(config=False) as found:
        if value:  # mark: silent-bool
            chosen = ["a", "b", "c", "d", "e"][value]  # mark: silent-index
        text = f"{value:03d}"  # mark: silent-format
        assert round(value) is value  # stays dynamic: no record
        isinstance(value, (int, float))  # mark: silent-isinstance
        assert isinstance(value, NumberClasses)
    assert (chosen, text) == ("e", "004")
    assert summary(mine(found)) == [
        (line_of("silent-bool"), "proxy-concretize", "__bool__", SILENT, "returned True", 1),
        (line_of("silent-index"), "proxy-concretize", "__index__", SILENT, "returned 4", 1),
        (line_of("silent-format"), "proxy-concretize", "__format__", SILENT, "returned '004'", 1),
        (line_of("silent-isinstance"), "proxy-isinstance", "isinstance", SILENT, "False", 1),
    ]


def test_a_class_registered_during_the_audit_is_watched_from_then_on() -> None:
    class LateProxy:
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    late = LateProxy(2)
    try:
        with audit(config=False) as found:
            operator.index(late)  # not yet a dynamic number: nothing to record
            register_dynamic_type(LateProxy, python_type=int)
            operator.index(late)  # mark: late
        assert [(r.line, r.operation) for r in mine(found)] == [(line_of("late"), "__index__")]
        assert not hasattr(LateProxy.__dict__["__index__"], "__proxy_types_audit__")
    finally:
        _guards._registered.pop(id(LateProxy), None)
        _guards._forget_answers()


# -- configured classes, filters, exempt modules ------------------------------------------------

def write_module(directory: Path, name: str, text: str) -> None:
    path = directory.joinpath(*name.split(".")).with_suffix(".py")
    path.parent.mkdir(parents=True, exist_ok=True)
    for parent in path.relative_to(directory).parents:
        if str(parent) != ".":
            (directory / parent / "__init__.py").touch()
    path.write_text(textwrap.dedent(text), encoding="utf-8")


TRACED_MODULE = """
    class TracedInt:
        def __init__(self, value):
            self.value = value

        def __int__(self):
            return self.value


    def convert(x):
        return int(x)


    def check(x):
        return isinstance(x, int)
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A project directory on sys.path, as the working directory; its modules are unloaded after."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / ".git").mkdir()  # the config search stops here
    before = set(sys.modules)
    yield tmp_path
    for name in set(sys.modules) - before:
        del sys.modules[name]


@pytest.mark.parametrize("config_name, section", [
    ("setup.cfg", "[mypy]\n[mypy.plugins.proxy_types]\naudit_classes = tracedlib.core.TracedInt\n"),
    ("mypy.ini", "[mypy]\n[mypy.plugins.proxy_types]\n"
                 "dynamic_number_classes = tracedlib.core.TracedInt\n"),
    ("pyproject.toml", '[tool.mypy]\n[tool.proxy_types]\naudit_classes = ["tracedlib.core.TracedInt"]\n'),
])
def test_configured_classes_are_watched_once_their_module_is_imported(
    project: Path, config_name: str, section: str
) -> None:
    (project / config_name).write_text(section, encoding="utf-8")
    write_module(project, "tracedlib.core", TRACED_MODULE)
    with audit() as found:
        core = load("tracedlib.core")  # imported during the audit: watched when loaded

        assert core.convert(core.TracedInt(7)) == 7
        assert core.check(core.TracedInt(7)) is False
    assert found.config_file == config_name
    assert [(Path(r.file).name, r.line, r.operation, r.outcome) for r in found.records] == [
        ("core.py", 11, "__int__", "returned 7"),
        ("core.py", 15, "isinstance", "False"),
    ]
    assert "__int__" in core.TracedInt.__dict__
    assert not hasattr(core.TracedInt.__dict__["__int__"], "__proxy_types_audit__")


def test_without_configuration_the_class_is_not_a_dynamic_number(project: Path) -> None:
    write_module(project, "tracedlib.core", TRACED_MODULE)
    core = load("tracedlib.core")
    with audit() as found:
        assert core.convert(core.TracedInt(7)) == 7
    assert found.config_file is None and found.records == []
    with audit(config=False, classes=[core.TracedInt]) as given:
        assert core.convert(core.TracedInt(7)) == 7
    assert [r.operation for r in given.records] == ["__int__"]


@pytest.mark.parametrize("text, problem", [
    ("[mypy]\n[mypy.plugins.proxy_types]\naudit_classes = TracedInt\n",
     'mypy.ini:3: error: [proxy_types] audit_classes: "TracedInt" is not a fully qualified '
     "class name like pkg.Class"),
    ("[mypy]\n[mypy.plugins.proxy_types]\nexempt_modules = a-b\n",
     'mypy.ini:3: error: [proxy_types] exempt_modules: "a-b" is not a module name or pkg.* pattern'),
    ("[mypy\n", "mypy.ini:1: error: [proxy_types] cannot read the config file: File contains no "
                "section headers."),
])
def test_a_bad_configuration_is_one_line_and_patches_nothing(
    project: Path, text: str, problem: str
) -> None:
    (project / "mypy.ini").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigurationError) as raised:
        with audit():
            pass
    assert str(raised.value) == problem
    assert patched_names() == []


def test_library_files_are_left_out_unless_the_filter_keeps_them(project: Path) -> None:
    library = project / "venv" / "lib" / "site-packages"
    write_module(library, "fakelib", "def check(x):\n    return isinstance(x, int)\n")
    sys.path.insert(0, str(library))
    try:
        fakelib = load("fakelib")
        p = IntegerProxy("n", 1)
        assert is_library_file(fakelib.__file__) and not is_library_file(__file__)
        assert is_library_file(numbers.__file__)
        with audit(config=False) as default, audit(config=False, keep=lambda f: True) as everything:
            fakelib.check(p)
            isinstance(p, int)  # mark: user-line
        assert [(r.line, Path(r.file).name) for r in default.records] == [
            (line_of("user-line"), HERE.name)]
        assert [Path(r.file).name for r in everything.records] == ["fakelib.py", HERE.name]
    finally:
        sys.path.remove(str(library))


def test_exempt_modules_of_the_configuration_are_not_recorded(project: Path) -> None:
    (project / "mypy.ini").write_text(
        "[mypy]\n[mypy.plugins.proxy_types]\nexempt_modules = tracing.*\n", encoding="utf-8")
    write_module(project, "tracing.internal", "def check(x):\n    return isinstance(x, int)\n")
    write_module(project, "other", "def check(x):\n    return isinstance(x, int)\n")
    other, internal = load("other"), load("tracing.internal")
    p = IntegerProxy("n", 1)
    with audit() as found:
        internal.check(p)
        other.check(p)
        assert not external_isinstance(p, float)  # proxy_types stays exempt whatever the setting
    assert [Path(r.file).name for r in found.records] == ["other.py"]


# -- nesting, threads, asyncio ----------------------------------------------------------------

def test_nested_audits_both_see_the_inner_records() -> None:
    p = IntegerProxy("n", 1)
    with audit(config=False) as outer:
        isinstance(p, int)  # mark: outer-only
        with audit(config=False) as inner:
            isinstance(p, float)  # mark: both
        assert patched_names()  # the outer audit is still running
        isinstance(p, complex)  # mark: outer-after
    assert [r.line for r in inner.records] == [line_of("both")]
    assert [r.line for r in outer.records] == [
        line_of("outer-only"), line_of("both"), line_of("outer-after")]
    assert patched_names() == []


def test_threads_keep_their_audits_apart_unless_all_threads() -> None:
    barrier = threading.Barrier(2, timeout=30)
    results: dict[str, Audit] = {}
    errors: list[BaseException] = []

    def worker(name: str, cls: type) -> None:
        try:
            with audit(config=False) as found:
                barrier.wait()  # both audits active at once
                isinstance(IntegerProxy("n", 1), cls)
                barrier.wait()
            results[name] = found
        except BaseException as error:  # reported below: a thread's failure must fail the test
            errors.append(error)

    with audit(config=False, all_threads=True) as everything:
        threads = [threading.Thread(target=worker, args=("a", int)),
                   threading.Thread(target=worker, args=("b", float))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert errors == []
    assert [r.classes for r in results["a"].records] == [("int",)]
    assert [r.classes for r in results["b"].records] == [("float",)]
    assert sorted(r.classes for r in everything.records) == [("float",), ("int",)]
    assert patched_names() == []


def test_asyncio_tasks_record_into_their_own_audit() -> None:
    async def audited(cls: type) -> Audit:
        with audit(config=False) as found:
            await asyncio.sleep(0)  # let the other task run inside its own audit
            isinstance(IntegerProxy("n", 1), cls)
            await asyncio.sleep(0)
        return found

    async def both() -> list[Audit]:
        return list(await asyncio.gather(audited(int), audited(float)))

    first, second = asyncio.run(both())
    assert [r.classes for r in first.records] == [("int",)]
    assert [r.classes for r in second.records] == [("float",)]
    assert patched_names() == []


# -- the program sees the same answers ------------------------------------------------------------

def nasty_values() -> list[object]:
    """Objects whose classes raise from hash, eq, instancecheck or class lookup."""

    class RaisingMeta(type):
        def __instancecheck__(cls, instance: object) -> bool:
            raise RuntimeError("instancecheck")

        def __hash__(cls) -> int:
            raise RuntimeError("hash")

        def __eq__(cls, other: object) -> bool:
            raise RuntimeError("eq")

    class WithRaisingMeta(metaclass=RaisingMeta):
        pass

    class IntWithRaisingMeta(int, metaclass=RaisingMeta):
        pass

    class ClassRaises:
        @property  # type: ignore[misc]
        def __class__(self) -> type:
            raise RuntimeError("class")

    return [WithRaisingMeta(), IntWithRaisingMeta(3), ClassRaises(), WithRaisingMeta,
            IntegerProxy("n", 1), 3, "text"]


def outcome(function: Any, *args: object) -> object:
    try:
        return function(*args)
    except Exception as error:  # compared with the audited outcome: same class and text
        return (type(error), str(error))


def test_isinstance_answers_and_errors_are_unchanged_for_nasty_objects() -> None:
    values = nasty_values()
    meta_class = values[3]
    class_arguments: list[Any] = [int, (int, float), NumberClasses, meta_class, (str, meta_class)]
    plain = [[outcome(isinstance, v, c) for c in class_arguments] for v in values]
    plain_sub = [outcome(issubclass, type(v), c) for v in values for c in class_arguments]
    with audit(config=False) as found:
        audited = [[outcome(isinstance, v, c) for c in class_arguments] for v in values]
        audited_sub = [outcome(issubclass, type(v), c) for v in values for c in class_arguments]
    assert audited == plain and audited_sub == plain_sub
    assert any(isinstance(answer, tuple) for row in plain for answer in row)  # some raise
    assert found.problems == []


def test_the_audits_own_failure_is_reported_not_raised() -> None:
    class BadNameMeta(type):
        def __getattribute__(cls, name: str) -> Any:
            if name == "__module__":
                raise RuntimeError("no name today")
            return super().__getattribute__(name)

    class Broken(metaclass=BadNameMeta):
        def __index__(self) -> int:
            return 2

    register_dynamic_type(Broken, python_type=int)
    try:
        with audit(config=False) as found:
            assert isinstance(Broken(), int) is False
            assert operator.index(Broken()) == 2
    finally:
        _guards._registered.pop(id(Broken), None)
        _guards._forget_answers()
    assert found.problems == ["RuntimeError: no name today (x2)"]
    assert "calls the audit could not judge: RuntimeError: no name today (x2)" in found.report()
