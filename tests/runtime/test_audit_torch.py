"""The runtime audit on real torch: make_fx symbolic tracing, ShapeEnv guards, torch.compile."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from torch._dynamo.source import ConstantSource  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402
from torch.fx.experimental.symbolic_shapes import ShapeEnv  # noqa: E402

from proxy_types import AuditRecord, audit, check, to_static  # noqa: E402
from proxy_types._audit import patched_names  # noqa: E402

HERE = Path(__file__).resolve()
SOURCE = HERE.read_text(encoding="utf-8").splitlines()
GUARD_LOGGER = logging.getLogger("torch.fx.experimental.symbolic_shapes")
_Module: Any = torch.nn.Module


def line_of(name: str) -> int:
    found = [number for number, text in enumerate(SOURCE, start=1)
             if text.rstrip().endswith(f"# mark: {name}")]
    assert len(found) == 1, (name, found)
    return found[0]


def mine(records: list[AuditRecord]) -> list[tuple[int, str, str, str | None, str]]:
    return [(r.line, r.code, r.operation, r.dynamic_class, r.outcome)
            for r in records if r.file == str(HERE)]


class ChecksInt(_Module):  # type: ignore[misc]
    """Branches on the traced size the ways models do."""

    def forward(self, x: Any) -> Any:
        size = x.shape[0]
        if isinstance(size, int):  # mark: isinstance-size
            x = x * 2
        if size > 2:  # mark: size-gt
            x = x + 1
        return x.reshape(int(size), -1)  # mark: int-size


class ChecksRight(_Module):  # type: ignore[misc]
    """The same decisions, made without merging the size into a static int."""

    def forward(self, x: Any) -> Any:
        size = x.shape[0]
        if isinstance(size, (int, torch.SymInt)):
            x = x * 2
        check(size > 2, "needs more than two rows")
        return x.reshape(to_static(size), -1)


def test_make_fx_symbolic_records_each_merge_and_each_guard_at_the_users_line() -> None:
    with audit(config=False) as found:
        graph = make_fx(ChecksInt(), tracing_mode="symbolic")(torch.randn(4, 3))
    assert "mul" not in graph.code  # isinstance(SymInt, int) is False while tracing
    records = mine(found.records)
    assert records[0] == (line_of("isinstance-size"), "proxy-isinstance", "isinstance",
                          "torch.SymInt", "False")
    by_line = {(line, code): (operation, cls, outcome) for line, code, operation, cls, outcome in records}
    assert by_line[(line_of("size-gt"), "proxy-concretize")] == (
        "__bool__", "torch.SymBool", "returned True")
    operation, _, expression = by_line[(line_of("size-gt"), "proxy-guard")]
    assert operation == "eval" and expression.endswith("> 2")
    assert by_line[(line_of("int-size"), "proxy-concretize")] == (
        "__int__", "torch.SymInt", "returned 4")
    operation, _, expression = by_line[(line_of("int-size"), "proxy-guard")]
    assert expression.startswith("Eq(") and expression.endswith(", 4)")
    assert len(records) == 5
    assert all(r.severity == "note" for r in found.records if r.code == "proxy-guard")


def test_the_right_way_leaves_no_record() -> None:
    with audit(config=False) as found:
        make_fx(ChecksRight(), tracing_mode="symbolic")(torch.randn(4, 3))
    assert found.records == []  # to_static's and check's guards are proxy_types' own


def backed_symint(shape_env: Any, name: str, hint: int) -> Any:
    symbol = shape_env.create_symbol(hint, ConstantSource(name))
    return shape_env.create_symintnode(symbol, hint=hint)


def test_shape_env_guards_of_a_condition_and_an_index() -> None:
    shape_env = ShapeEnv()
    n = backed_symint(shape_env, "n", 5)
    chosen = -1
    with audit(config=False) as found:
        if n * 2 > 6:  # mark: cond
            chosen = list(range(10))[n]  # mark: index
    assert chosen == 5
    records = mine(found.records)
    assert (line_of("cond"), "proxy-concretize", "__bool__", "torch.SymBool", "returned True") in records
    assert (line_of("index"), "proxy-concretize", "__index__", "torch.SymInt", "returned 5") in records
    guards = [(line, outcome) for line, code, _, _, outcome in records if code == "proxy-guard"]
    assert [line for line, _ in guards][:2] == [line_of("cond"), line_of("index")]
    assert len(shape_env.guards) >= 2


def logger_state() -> tuple[int, bool, bool, list[Any], list[Any]]:
    return (GUARD_LOGGER.level, GUARD_LOGGER.propagate, GUARD_LOGGER.disabled,
            list(GUARD_LOGGER.filters), list(GUARD_LOGGER.handlers))


def test_the_audit_leaves_torchs_guard_logger_alone() -> None:
    """Guards are read from ShapeEnv itself: no level, filter or handler changes."""
    before = logger_state()
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    shape_env = ShapeEnv()
    n = backed_symint(shape_env, "n", 5)
    assert not GUARD_LOGGER.isEnabledFor(logging.INFO)
    root_handler = Keep(logging.NOTSET)
    logging.getLogger().addHandler(root_handler)
    try:
        with audit(config=False) as quiet:
            assert logger_state() == before
            assert not GUARD_LOGGER.isEnabledFor(logging.INFO)
            bool(n > 3)
    finally:
        logging.getLogger().removeHandler(root_handler)
    assert logger_state() == before
    assert [r.code for r in quiet.records].count("proxy-guard") == 1
    assert seen == []  # the user's level shows no INFO: nothing was logged


def test_caplog_on_the_guard_logger_sees_every_guard_under_the_audit(
    caplog: pytest.LogCaptureFixture
) -> None:
    """A test that sets its own level while an audit runs (the pytest plugin's session)."""
    shape_env = ShapeEnv()
    n = backed_symint(shape_env, "n", 5)
    with audit(config=False) as found:
        caplog.set_level(logging.INFO, logger=GUARD_LOGGER.name)
        bool(n > 4)
        caplog.set_level(logging.WARNING, logger=GUARD_LOGGER.name)
        bool(n < 8)
    assert GUARD_LOGGER.level == logging.WARNING  # the test's level, kept at the audit's exit
    guards = [r.getMessage() for r in caplog.records
              if r.name == GUARD_LOGGER.name and "[guard added]" in r.getMessage()]
    assert len(guards) == 1 and guards[0].startswith("eval ")  # only the one at INFO
    assert [r.code for r in found.records].count("proxy-guard") == 2  # both, without the log


def test_dunder_wrappers_take_keyword_arguments() -> None:
    shape_env = ShapeEnv()
    symbol = shape_env.create_symbol(2.5, ConstantSource("x"))
    x: Any = shape_env.create_symfloatnode(symbol, hint=2.5)
    expected = [str(x.__round__()), str(x.__round__(None))]
    with audit(config=False) as found:
        rounded = [x.__round__(ndigits=None), round(x, ndigits=None)]
        assert "torch.SymFloat.__round__" in patched_names()
    # Still dynamic (SymInts): nothing merged, nothing recorded.
    assert [str(value) for value in rounded] == expected
    assert found.problems == [] and found.records == []


def test_a_torch_without_the_guard_method_is_said_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(ShapeEnv, "_log_guard")
    with pytest.warns(RuntimeWarning, match=r"cannot watch torch's guards: .*ShapeEnv has no "
                                            r"_log_guard\(\); no proxy-guard records") as caught:
        with audit(config=False) as found:
            pass
    assert len([w for w in caught if "guards" in str(w.message)]) == 1
    assert found.records == []


def test_sym_classes_are_restored_exactly() -> None:
    classes = (torch.SymInt, torch.SymFloat, torch.SymBool)
    before = [dict(cls.__dict__) for cls in classes]
    with audit(config=False):
        assert "torch.SymInt.__bool__" in patched_names()
        assert "torch.SymFloat.__float__" in patched_names()
    for cls, attributes in zip(classes, before):
        assert [k for k, v in attributes.items() if cls.__dict__.get(k) is not v] == []
        assert cls.__dict__.keys() == attributes.keys()


def compiled_checks(x: Any) -> Any:
    size = x.shape[0]
    if isinstance(size, int):  # mark: compiled-isinstance
        return x * 2
    return x + 1


def test_torch_compile_works_under_the_audit_and_dynamo_hides_its_checks() -> None:
    # dynamo answers isinstance(SymInt, int) itself, on its own variables, while it
    # traces: no Python isinstance runs on a SymInt, so there is nothing to record.
    torch._dynamo.reset()
    compiled = torch.compile(compiled_checks, dynamic=True, fullgraph=True, backend="eager")
    with audit(config=False) as found:
        first = compiled(torch.ones(5, 3))
        second = compiled(torch.ones(7, 3))
    assert float(first[0, 0]) == float(second[0, 0]) == 2.0  # dynamo says: an int
    assert [r for r in mine(found.records) if r[1] == "proxy-isinstance"] == []
    eager = make_fx(compiled_checks, tracing_mode="symbolic")(torch.ones(5, 3))
    assert "add" in eager.code  # the same function, traced by make_fx: not an int
    torch._dynamo.reset()


def test_torch_imported_during_an_audit_is_watched_and_restored(tmp_path: Path,
                                                                  cli_env: dict[str, str]) -> None:
    script = tmp_path / "late_torch.py"
    script.write_text(textwrap.dedent("""
        import builtins, json, logging, sys
        from proxy_types import audit
        from proxy_types._audit import patched_names

        assert "torch" not in sys.modules
        with audit(config=False) as found:
            import torch
            from torch.fx.experimental.proxy_tensor import make_fx

            def f(x):
                return x.view(int(x.shape[0]), -1)

            make_fx(f, tracing_mode="symbolic")(torch.randn(4, 3))
        logger = logging.getLogger("torch.fx.experimental.symbolic_shapes")
        print(json.dumps({
            "records": [[r.line, r.operation, r.outcome] for r in found.records],
            "patched": patched_names(),
            "loader": type(torch.__spec__.loader).__name__,
            "filters": len(logger.filters),
            "bool_is_torchs": not hasattr(torch.SymInt.__dict__["__int__"], "__proxy_types_audit__"),
        }))
    """), encoding="utf-8")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                            env=cli_env, cwd=tmp_path, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert [record[:2] for record in report["records"]] == [[12, "eval"], [12, "__int__"]]
    assert report["records"][1][2] == "returned 4"
    assert report["patched"] == [] and report["filters"] == 0 and report["bool_is_torchs"]
    assert report["loader"] == "SourceFileLoader"
