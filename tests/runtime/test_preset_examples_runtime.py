"""The thunder and JAX examples (examples/thunder, examples/jax) show real bugs.

thunder 0.2.6: ``thunder.jit(fn, cache="symbolic values")`` is called with two numbers;
each bad function gives a wrong result on one of them, each good function the eager one.
JAX: each bad ``jax.jit`` function raises jax's own error at the first call, each good
one computes the eager result for two inputs.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.tracer_envs import NO_THUNDER, REPO, THUNDER_IMPORT, THUNDER_PYTHON, jax_python, \
    with_checkout

EXAMPLES = REPO / "examples"

THUNDER_SCRIPT = THUNDER_IMPORT + """\
import importlib
import torch

for module in ("bad_thunder_numbers", "good_thunder_numbers"):
    functions = importlib.import_module(module)
    for name in ("scale_by_whole", "scale_unless_float"):
        function = getattr(functions, name)
        jitted = thunder.jit(function, cache="symbolic values")
        x = torch.ones(2)
        results = []
        for number in (2.0, 3.5):
            traced, eager = jitted(x, number), function(x, number)
            results.append("same" if torch.equal(traced, eager) else
                           f"{traced.tolist()} != {eager.tolist()}")
        print(module, name, *results, sep=" | ")
"""


@pytest.mark.network
@pytest.mark.skipif(not THUNDER_PYTHON.is_file(), reason=NO_THUNDER)
def test_thunder_examples_bad_gives_wrong_results_good_the_eager_ones() -> None:
    result = subprocess.run([str(THUNDER_PYTHON), "-c", THUNDER_SCRIPT],
                            cwd=EXAMPLES / "thunder", capture_output=True, text=True,
                            timeout=1200, env=with_checkout(THUNDER_PYTHON))
    assert result.returncode == 0, result.stderr[-2000:]
    rows = {tuple(line.split(" | ")[:2]): line.split(" | ")[2:]
            for line in result.stdout.splitlines()}
    for name in ("scale_by_whole", "scale_unless_float"):
        assert rows[("good_thunder_numbers", name)] == ["same", "same"]
        bad = rows[("bad_thunder_numbers", name)]
        assert bad[0] == "same" and bad[1] != "same", bad  # the first number is baked in


JAX_SCRIPT = """\
import importlib
import jax
import jax.numpy as jnp

x = jnp.ones(2)
for module in ("bad_jit_arguments", "good_jit_arguments"):
    functions = importlib.import_module(module)
    for name, calls, expected in (
            ("boost", [(x, 2.0), (x, 0.5)], [[2.0, 2.0], [1.0, 1.0]]),
            ("ones", [(2,), (3,)], [[1.0, 1.0], [1.0, 1.0, 1.0]])):
        try:
            results = [getattr(functions, name)(*args).tolist() for args in calls]
        except Exception as error:
            print(module, name, type(error).__name__, sep=" | ")
        else:
            print(module, name, "same" if results == expected else results, sep=" | ")
"""


@pytest.mark.network
def test_jax_examples_bad_raise_good_compute(tmp_path: Path) -> None:
    python = jax_python(tmp_path / "jax-venv")
    result = subprocess.run([str(python), "-c", JAX_SCRIPT], cwd=EXAMPLES / "jax",
                            capture_output=True, text=True, timeout=600,
                            env={**with_checkout(python), "JAX_PLATFORMS": "cpu"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.splitlines() == [
        "bad_jit_arguments | boost | TracerBoolConversionError",
        "bad_jit_arguments | ones | ConcretizationTypeError",
        "good_jit_arguments | boost | same",
        "good_jit_arguments | ones | same",
    ]


def test_torch_example_bad_compiles_per_size_good_once() -> None:
    """examples/torch: torch.compile(dynamic=True) unrolls the bad loop per width."""
    torch = pytest.importorskip("torch")
    import importlib.util

    from torch._dynamo.utils import counters

    graphs = {}
    for name in ("bad_size_specialize", "good_size_specialize"):
        spec = importlib.util.spec_from_file_location(name, EXAMPLES / "torch" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        torch._dynamo.reset()
        counters.clear()
        compiled = torch.compile(module.column_total, dynamic=True, backend="eager")
        for width in (5, 6, 7):
            x = torch.arange(3.0 * width).reshape(3, width)
            assert torch.equal(compiled(x), module.column_total(x))
        graphs[name] = counters["stats"]["unique_graphs"]
    assert graphs == {"bad_size_specialize": 3, "good_size_specialize": 1}
