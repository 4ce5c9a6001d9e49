"""The ``tracers`` setting: a project that runs torch.export and torch.compile.

Shown, naming export only: a size sent to an ``int | Tensor`` parameter or to
``isinstance(n, int)``.  Text of a size names compile.  Hidden: ``torch.tensor`` of a
size (symbolic under both).  The table rows: proxy_types/_table.py, checked in
tests/runtime/test_tracer_outcomes_runtime.py.
"""

# settings:
#   [mypy.plugins.proxy_types]
#   tracers = export, compile

from __future__ import annotations

import torch
from torch import nn

from calls_params_helpers import scaled


class Exported(nn.Module):
    def forward(self, x: torch.Tensor, n: torch.SymInt) -> torch.Tensor:
        scaled(x.shape[0])  # E: [proxy-isinstance] /reaches isinstance\(size, int\) .* \(fails under export\) \(reason:/
        isinstance(n, int)  # E: [proxy-isinstance] /misclassifies dynamic number "SymInt".* \(fails under export\)$/
        torch.tensor([x.shape[0], 3])  # symbolic under export and torch.compile
        name = f"rows {x.shape[0]}"  # E: [proxy-specialize] /\(fails under compile\)/
        return x if name else x
