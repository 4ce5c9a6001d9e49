"""The ``tracers`` setting: a project that runs make_fx only.

Shown, naming make_fx: a size sent to an ``int | Tensor`` parameter or to
``isinstance(n, int)``, ``torch.tensor`` of a size.  Hidden: text of a size (make_fx
names the symbol).  The table rows: proxy_types/_table.py, checked in
tests/runtime/test_tracer_outcomes_runtime.py.
"""

# settings:
#   [mypy.plugins.proxy_types]
#   tracers = make_fx

from __future__ import annotations

import torch
from torch import nn

from calls_params_helpers import scaled


class Traced(nn.Module):
    def forward(self, x: torch.Tensor, n: torch.SymInt) -> torch.Tensor:
        scaled(x.shape[0])  # E: [proxy-isinstance] /^scaled\(\): argument "x.shape\[0\]" reaches isinstance\(size, int\) .*; pass a static number, or make the callee accept dynamic numbers \(fails under make_fx\) \(reason:/
        isinstance(x.shape[0], int)  # E: [proxy-isinstance] /misclassifies dynamic number "SymInt".* \(fails under make_fx\) \(reason:/
        isinstance(n, int)  # E: [proxy-isinstance] =isinstance() against static number classes (int) misclassifies dynamic number "SymInt"; use proxy_types.is_static_number() / is_dynamic_number() or include proxy_types.NumberClasses (fails under make_fx)
        torch.tensor([x.shape[0], 3])  # E: [proxy-specialize] /^torch.tensor\(\) of a size installs a guard.* \(fails under make_fx\) \(reason:/
        name = f"rows {x.shape[0]}"  # make_fx names the symbol
        text = str(n) + "{}".format(n)
        return x if name and text else x
