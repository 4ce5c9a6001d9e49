"""What torch 2.13 does with a call of Python's ``random`` module in traced code
(``RANDOM_FUNCTIONS`` in ``analysis/sources_sinks.py``, ``checks/random_calls.py``), on the
reduced denoising-diffusion-pytorch line ``if self.self_condition and random() < 0.5:``
(``CoinSelfCondition`` in benchmarks/corpora/denoising_diffusion_pytorch_sites.py):

* ``make_fx(tracing_mode="symbolic")`` runs ``random()`` once and bakes the branch it took:
  the graph depends on the seed at trace time, and every later call repeats that side;
* the replacement ``torch.rand(()) < 0.5`` (with ``torch.where``) is a graph op: one graph
  whatever the seed, and the coin is drawn per call.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.corpora.denoising_diffusion_pytorch_sites import (  # noqa: E402
    CoinSelfCondition,
    no_coin,
    traced_linear_counts,
)

_Module: Any = torch.nn.Module


class TorchCoinSelfCondition(_Module):  # type: ignore[misc]
    """The control: the coin drawn by ``torch.rand`` and applied with ``torch.where``."""

    def __init__(self) -> None:
        super().__init__()
        self.model = torch.nn.Linear(4, 4)

    def forward(self, x: Any) -> Any:
        coin = torch.rand(()) < 0.5
        with torch.no_grad():
            self_cond = torch.where(coin, self.model(x).detach(), torch.zeros_like(x))
        return self.model(x + self_cond).mean()


def _graph_ops(module: Any, seed: int) -> list[str]:
    random.seed(seed)
    torch.manual_seed(seed)
    gm = make_fx(lambda x: module(x), tracing_mode="symbolic",
                 _allow_non_fake_inputs=True)(torch.rand(2, 4))
    return [str(node.target) for node in gm.graph.nodes if node.op == "call_function"]


def test_random_in_traced_code_is_baked_by_make_fx() -> None:
    # seeds 0 and 1 draw random() on each side of 0.5: two different graphs
    assert random.Random(0).random() >= 0.5 > random.Random(1).random()
    assert traced_linear_counts(CoinSelfCondition) == {1, 2}
    assert traced_linear_counts(no_coin) == {1}


def test_baked_graph_ignores_the_seed_at_run_time() -> None:
    random.seed(1)
    gm = make_fx(lambda x: model(x), tracing_mode="symbolic", _allow_non_fake_inputs=True)
    model = CoinSelfCondition()
    traced = gm(torch.rand(2, 4))
    ops = [node.target for node in traced.graph.nodes]
    assert ops.count(torch.ops.aten.addmm.default) == 2  # the self-conditioning side, kept
    assert not any("rand" in str(op) for op in ops)  # no coin left in the graph


def test_torch_rand_coin_is_a_graph_op() -> None:
    module = TorchCoinSelfCondition()
    first, second = _graph_ops(module, 0), _graph_ops(module, 1)
    assert first == second
    assert "aten.rand.default" in first
    assert first.count("aten.addmm.default") == 2  # both passes, selected per call
    # and the traced program draws its own coin: over calls both sides come up
    gm = make_fx(lambda x: module(x), tracing_mode="symbolic",
                 _allow_non_fake_inputs=True)(torch.rand(2, 4))
    x = torch.rand(2, 4)
    with torch.no_grad():
        plain = module.model(module.model(x).mul(0).add(x)).mean()
        outputs = {bool(torch.isclose(gm(x), plain)) for _ in range(40)}
    assert outputs == {True, False}
