"""The ``tracers`` setting: a project that runs torch.compile only.

Reports that torch.compile passes are hidden (counted as hidden findings): a size sent
to an ``int | Tensor`` parameter or to ``isinstance(n, int)`` (Dynamo answers the check
itself), ``torch.tensor`` of a size (kept symbolic), an ``assert`` on tensor data
(``torch._assert``).  Text of a size is shown and names torch.compile; what fails
under every tracer is shown as before.  The table rows:
proxy_types/_table.py, checked in tests/runtime/test_tracer_outcomes_runtime.py.
"""

# settings:
#   [mypy.plugins.proxy_types]
#   tracers = compile

from __future__ import annotations

import torch
from torch import nn

from calls_params_helpers import norm_positional, scaled


class Compiled(nn.Module):
    def forward(self, x: torch.Tensor, n: torch.SymInt) -> torch.Tensor:
        scaled(x.shape[0])  # int | Tensor: torch.compile answers isinstance itself
        norm_positional(x.shape[-1])
        isinstance(x.shape[0], int)
        isinstance(n, int)
        torch.tensor([x.shape[0], 3])  # symbolic under torch.compile
        torch.as_tensor([x.shape[0], 3])  # E: [proxy-specialize] =torch.as_tensor() of a size installs a guard on dynamic number "SymInt": sound, but the program is specialized on its traced value; use proxy_types.to_static() to make the conversion explicit (reason: "x.shape" is a tensor size, symbolic under dynamic shapes (symbolic_shapes))
        name = f"rows {x.shape[0]}"  # E: [proxy-specialize] /into text: .* \(fails under compile\) \(reason: /
        text = str(n)  # E: [proxy-specialize] /^str\(\) turns .*cannot trace it .*\(fails under compile\)$/
        int(x.shape[1])  # E: [proxy-specialize] /^int\(\) installs a guard on dynamic number "SymInt": .* explicit \(reason:/
        assert (x > -100).all()  # torch.compile turns it into torch._assert
        if (x > 0).all():  # E: [proxy-specialize] /^Condition on Tensor.all\(\) is data-dependent .*traced code$/
            x = x + 1
        return x if name and text else x
