"""The cross-call analysis' data readers: torch's operator schemas, read without torch."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from mypy_plugin.analysis.schemas import Schemas, schema_path

REPO = Path(__file__).resolve().parents[2]


def loaded(lines: list[str]) -> Schemas:
    found = Schemas(locate=False)
    found._static = {}
    for line in lines:
        found._read(line)
    return found


def test_static_schema_types_are_found_by_name_and_position() -> None:
    read = loaded(["- func: native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)\n",
                   "- func: narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)\n",
                   "- func: rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor\n",
                   "- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor\n"])
    assert read._static == {
        "native_dropout": {"": (frozenset({"p", "train"}), frozenset({1, 2}))},
        "narrow": {"": (frozenset({"dim"}), frozenset({1}))},
        "rot90": {"": (frozenset({"k", "dims"}), frozenset({1, 2}))},
        "add": {"Tensor": (frozenset(), frozenset())},
    }


def test_a_parameter_is_static_only_if_every_overload_that_has_it_says_so() -> None:
    read = loaded(["- func: istft(Tensor self, int n_fft, int? length=None) -> Tensor\n",
                   "- func: select.Dimname(Tensor(a) self, Dimname dim, int index) -> Tensor(a)\n",
                   "- func: select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)\n",
                   "- func: sum(Tensor self, *, ScalarType? dtype=None) -> Tensor\n",
                   "- func: sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False) -> Tensor\n",
                   "- func: diff(Tensor self, int n=1) -> Tensor\n",
                   "- func: diff.out(Tensor self, int n=1, *, Tensor(a!) out) -> Tensor(a!)\n",
                   "- func: narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)\n"])
    assert read.static_argument_type("istft", "length") == "int?"
    assert read.static_argument_type("istft", "n_fft") == "int"
    assert read.static_argument_type("select", "index") is None  # SymInt in select.int
    assert read.static_argument_type("select", "dim") is None  # Dimname in select.Dimname
    assert read.static_argument_type("sum", "dim") == "int[1]?"  # only overloads that have it
    assert read.static_argument_type("diff", "n") == "int"
    assert read.static_argument_type("narrow", "length") is None
    assert read.static_argument_type("narrow", "self") is None
    assert read.static_argument_type("unknown", "n") is None
    assert read.static_argument_type("istft", "unknown") is None


def test_a_missing_schema_file_makes_no_parameter_static() -> None:
    missing = Schemas(locate=False)
    assert missing.static_argument_type("istft", "length") is None
    assert missing.missing is not None


def test_a_missing_schema_file_is_said_once(capsys: pytest.CaptureFixture[str]) -> None:
    missing = Schemas(locate=False)
    missing._load()
    missing._load()
    err = capsys.readouterr().err
    assert err.count("operator schemas") == 1
    assert "native_functions.yaml) were not found" in err
    assert missing.missing is not None


def test_the_installed_schemas_are_found_without_importing_torch() -> None:
    pytest.importorskip("torchgen")
    script = ("import sys; from mypy_plugin.analysis.schemas import Schemas, schema_path; "
              "s = Schemas(); static = s._load(); "
              "print(schema_path() is not None, 'torch' in sys.modules, 'torchgen' in sys.modules, "
              "sorted(static['native_dropout'][''][0]), sorted(static['narrow'][''][0]))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=REPO, check=True)
    assert done.stdout.split(" ", 3)[:3] == ["True", "False", "False"]
    assert "['p', 'train'] ['dim']" in done.stdout


def test_schema_path_is_none_without_torchgen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert schema_path() is None
