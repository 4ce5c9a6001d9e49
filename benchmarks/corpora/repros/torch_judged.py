"""torch code that pins a scalar or size parameter of a traced function: found
among the plugin's unjudged reports (traced_functions settings, docs/real-world.md)
and confirmed the way torch_flow.py confirms its cases: make_fx(tracing_mode=
"symbolic") records a guard at the site that equates the value with a constant.

The number is made dynamic by computing it from a size of an input, chosen so
that the compared constant is hit (``x.shape[0] - 10`` is 0 for ``x`` of 10 rows).
Where an earlier line of the library already pins every size of ``x``, the
number comes from a second input, ``y``, that nothing else uses.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import torch
import torch._decomp.decompositions as decompositions
import torch._meta_registrations as meta
import torch._refs as refs
import torch._refs.linalg as refs_linalg
import torch._refs.nn.functional as refs_nn
import torch.nn.functional as F
from torch.nn.modules.linear_cross_entropy_options import LinearCrossEntropyOptions

from _repro import Case, expect_specialization, main

X = torch.randn(10, 6)
Y = torch.randn(7)
INTS = torch.arange(36).reshape(6, 6)


def _target() -> torch.Tensor:
    """Class indices, made inside the traced function (a captured real tensor is refused)."""
    return torch.zeros(10, dtype=torch.long)


# -- conditions on a scalar parameter ------------------------------------------


def gumbel_softmax_eps(x: torch.Tensor) -> torch.Tensor:
    return F.gumbel_softmax(x, eps=(x.shape[0] - 10) + 1e-10)  # the default eps


def linear_cross_entropy_label_smoothing(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.linear_cross_entropy(x, torch.randn(4, 6), _target(), label_smoothing=y.shape[0] - 7.0,
                                  options=LinearCrossEntropyOptions())


def smooth_l1_loss_beta(x: torch.Tensor) -> torch.Tensor:
    return F.smooth_l1_loss(x, x * 2, beta=x.shape[0] - 10.0)


def multi_margin_loss_p(x: torch.Tensor) -> torch.Tensor:
    return F.multi_margin_loss(x, _target(), p=x.shape[0] - 9)  # p == 1


def multi_margin_loss_module_p(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.MultiMarginLoss(p=x.shape[0] - 9)(x, _target())


def multi_margin_loss_decomposition_p(x: torch.Tensor) -> torch.Tensor:
    return decompositions.multi_margin_loss(x, _target(), p=x.shape[0] - 9)


def isclose_atol(x: torch.Tensor) -> torch.Tensor:
    return refs.isclose(x, x, atol=x.shape[0] - 10.0, rtol=0.0)


def addr_beta(x: torch.Tensor) -> torch.Tensor:
    return refs.addr(x, x[:, 0], x[0], beta=x.shape[0] - 10)


def constant_pad_nd_value(x: torch.Tensor) -> torch.Tensor:
    return refs.constant_pad_nd(x, [1, 1], value=x.shape[0] - 10)


def rot90_k2(x: torch.Tensor) -> torch.Tensor:
    return refs.rot90(x, k=x.shape[0] - 8)


def rot90_k3(x: torch.Tensor) -> torch.Tensor:
    return refs.rot90(x, k=x.shape[0] - 7)


def diag_embed_offset(x: torch.Tensor) -> torch.Tensor:
    return refs.diag_embed(x, offset=x.shape[0] - 10)


def slice_scatter_step(x: torch.Tensor) -> torch.Tensor:
    return decompositions.slice_scatter(x, x, 0, 0, 10, step=x.shape[0] - 9)


def slice_scatter_step_mask(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    step = y.shape[0] - 6  # 1; start 1 skips the fast path of line 851
    return decompositions.slice_scatter(x, x.new_zeros(((9 + step - 1) // step, 6)), 0, 1, 10,
                                        step=step)


def native_dropout_p(x: torch.Tensor) -> torch.Tensor:
    return decompositions.native_dropout(x, x.shape[0] - 9.0, True)[0]  # p == 1


def index_add_alpha(x: torch.Tensor) -> torch.Tensor:
    return torch.index_add(x, 0, torch.tensor([0, 1]), x[:2], alpha=x.shape[0] - 9)


def dropout_p_one(x: torch.Tensor) -> torch.Tensor:
    return refs_nn.dropout(x, x.shape[0] - 9.0, True)


def dropout_p_zero(x: torch.Tensor) -> torch.Tensor:
    return refs_nn.dropout(x, x.shape[0] - 10.0, True)


def alpha_dropout_p_one(x: torch.Tensor) -> torch.Tensor:
    return refs_nn.alpha_dropout(x, x.shape[0] - 9.0, True)


def alpha_dropout_p_zero(x: torch.Tensor) -> torch.Tensor:
    return refs_nn.alpha_dropout(x, x.shape[0] - 10.0, True)


def conv_out_channels_groups(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.Conv1d(6, x.shape[1], 1, groups=2)(x.T.unsqueeze(0))


# -- conversions: int() / float() / range() of a parameter ---------------------


def addmm_integer_beta(m: torch.Tensor) -> torch.Tensor:
    return decompositions.addmm(m, m, m, beta=m.shape[0] - 9)


def addmm_integer_alpha(m: torch.Tensor) -> torch.Tensor:
    return decompositions.addmm(m, m, m, alpha=m.shape[0] - 4)


def addmv_integer_beta(m: torch.Tensor) -> torch.Tensor:
    return decompositions.addmv(m[:, 0], m, m[0], beta=m.shape[0] - 5)


def addmv_integer_alpha(m: torch.Tensor) -> torch.Tensor:
    return decompositions.addmv(m[:, 0], m, m[0], alpha=m.shape[0] - 4)


def baddbmm_integer_beta(m: torch.Tensor) -> torch.Tensor:
    batch = m.unsqueeze(0)
    return decompositions.baddbmm(batch, batch, batch, beta=m.shape[0] - 5)


def baddbmm_integer_alpha(m: torch.Tensor) -> torch.Tensor:
    batch = m.unsqueeze(0)
    return decompositions.baddbmm(batch, batch, batch, alpha=m.shape[0] - 4)


def hardtanh_integer_min(m: torch.Tensor) -> torch.Tensor:
    return refs_nn.hardtanh(m, min_val=m.shape[0] - 8, max_val=30)


def hardtanh_integer_max(m: torch.Tensor) -> torch.Tensor:
    return refs_nn.hardtanh(m, min_val=0, max_val=m.shape[0] + 20)


def upsample_output_size(x: torch.Tensor) -> torch.Tensor:
    image = x.unsqueeze(0).unsqueeze(0)
    size = decompositions.upsample_compute_output_size(image.shape, None, [x.shape[0] * 0.2, 2.0])
    return x.new_zeros(size)


def upsample_tuple_scale_factor(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.Upsample(scale_factor=(x.shape[0] * 0.2, 2.0))(x.reshape(1, 1, 10, 6))


def foreach_norm_ord(x: torch.Tensor) -> torch.Tensor:
    return meta.meta_foreach_norm([x], ord=x.shape[0] - 8)[0]


def unfold_backward_size(x: torch.Tensor) -> torch.Tensor:
    # a grad of static shape is not the canonical one for a symbolic size: the loop path
    return decompositions.unfold_backward(torch.ones(8, 6, 3), [10, 6], 0, x.shape[0] - 7, 1)


def rnn_float_dropout(x: torch.Tensor) -> torch.Tensor:
    # float(dropout) guards first; the isinstance check two lines later (a confirmed
    # crash, torch_isinstance::rnn_dropout) then raises, which is caught here so the
    # trace ends and its guards can be read.
    try:
        torch.nn.RNN(4, 4, num_layers=2, dropout=x.shape[0] / 20)
    except ValueError:
        pass
    return x * 2


def channel_shuffle_cuda_groups(x: torch.Tensor) -> torch.Tensor:
    # The test runs for CUDA tensors only; make_fx's fake mode makes a CUDA tensor
    # without a GPU. x.shape[1] - 5 is 1 group.
    on_cuda = torch.empty(2, x.shape[1], 3, device="cuda")
    return refs_nn.channel_shuffle(on_cuda, x.shape[1] - 5).sum().cpu()


def lu_solve_mps_pivots(a: torch.Tensor) -> torch.Tensor:
    # The Python function torch registers as linalg_lu_solve's MPS kernel, called
    # directly on CPU tensors (a batch of matrices: the tensor-indexing path).
    lu, pivots = torch.linalg.lu_factor(a)
    out = torch.empty_like(a)
    refs_linalg.linalg_lu_solve_out_mps(lu, pivots, a, out=out)
    return out


def _case(name: str, site: str, fn: Callable[..., torch.Tensor],
          args: tuple[torch.Tensor, ...] = (X,)) -> Case:
    return Case(name, site, lambda: expect_specialization(fn, args, site))


CASES = [
    _case("gumbel_softmax_eps", "torch/nn/functional.py:2263", gumbel_softmax_eps),
    _case("linear_cross_entropy_label_smoothing", "torch/nn/functional.py:3885",
          linear_cross_entropy_label_smoothing, (X, Y)),
    _case("smooth_l1_loss_beta", "torch/nn/functional.py:4064", smooth_l1_loss_beta),
    _case("multi_margin_loss_p", "torch/nn/functional.py:4656", multi_margin_loss_p),
    _case("multi_margin_loss_module_p", "torch/nn/modules/loss.py:1885",
          multi_margin_loss_module_p),
    _case("multi_margin_loss_decomposition_p", "torch/_decomp/decompositions.py:5679",
          multi_margin_loss_decomposition_p),
    _case("isclose_atol", "torch/_refs/__init__.py:1627", isclose_atol),
    _case("addr_beta", "torch/_refs/__init__.py:2771", addr_beta),
    _case("constant_pad_nd_value", "torch/_refs/__init__.py:3094", constant_pad_nd_value),
    _case("rot90_k2", "torch/_refs/__init__.py:4170", rot90_k2),
    _case("rot90_k3", "torch/_refs/__init__.py:4172", rot90_k3),
    _case("diag_embed_offset", "torch/_refs/__init__.py:4727", diag_embed_offset),
    _case("slice_scatter_step", "torch/_decomp/decompositions.py:851", slice_scatter_step),
    _case("slice_scatter_step_mask", "torch/_decomp/decompositions.py:865",
          slice_scatter_step_mask, (X, Y)),
    _case("native_dropout_p_one", "torch/_decomp/decompositions.py:1282", native_dropout_p),
    _case("index_add_alpha", "torch/_decomp/decompositions.py:3367", index_add_alpha),
    _case("dropout_p_one", "torch/_refs/nn/functional/__init__.py:216", dropout_p_one),
    _case("dropout_p_zero", "torch/_refs/nn/functional/__init__.py:219", dropout_p_zero),
    _case("alpha_dropout_p_one", "torch/_refs/nn/functional/__init__.py:120",
          alpha_dropout_p_one),
    _case("alpha_dropout_p_zero", "torch/_refs/nn/functional/__init__.py:123",
          alpha_dropout_p_zero),
    _case("conv_out_channels_groups", "torch/nn/modules/conv.py:109", conv_out_channels_groups),
    _case("addmm_integer_beta", "torch/_decomp/decompositions.py:1634", addmm_integer_beta,
          (INTS,)),
    _case("addmm_integer_alpha", "torch/_decomp/decompositions.py:1635", addmm_integer_alpha,
          (INTS,)),
    _case("addmv_integer_beta", "torch/_decomp/decompositions.py:1688", addmv_integer_beta,
          (INTS,)),
    _case("addmv_integer_alpha", "torch/_decomp/decompositions.py:1689", addmv_integer_alpha,
          (INTS,)),
    _case("baddbmm_integer_beta", "torch/_decomp/decompositions.py:5857", baddbmm_integer_beta,
          (INTS,)),
    _case("baddbmm_integer_alpha", "torch/_decomp/decompositions.py:5858",
          baddbmm_integer_alpha, (INTS,)),
    _case("hardtanh_integer_min", "torch/_refs/nn/functional/__init__.py:1047",
          hardtanh_integer_min, (INTS,)),
    _case("hardtanh_integer_max", "torch/_refs/nn/functional/__init__.py:1048",
          hardtanh_integer_max, (INTS,)),
    _case("upsample_output_size", "torch/_decomp/decompositions.py:3562", upsample_output_size),
    _case("upsample_tuple_scale_factor", "torch/nn/modules/upsampling.py:163",
          upsample_tuple_scale_factor),
    _case("foreach_norm_ord", "torch/_meta_registrations.py:8879", foreach_norm_ord),
    _case("unfold_backward_size", "torch/_decomp/decompositions.py:1231", unfold_backward_size),
    _case("rnn_float_dropout", "torch/nn/modules/rnn.py:106", rnn_float_dropout),
    _case("channel_shuffle_cuda_groups", "torch/_refs/nn/functional/__init__.py:323",
          channel_shuffle_cuda_groups),
    _case("lu_solve_mps_pivots", "torch/_refs/linalg/__init__.py:371", lu_solve_mps_pivots,
          (torch.randn(2, 5, 5) + 5 * torch.eye(5),)),
]

if __name__ == "__main__":
    sys.exit(main(CASES))
