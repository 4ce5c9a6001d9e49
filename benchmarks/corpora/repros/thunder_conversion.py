"""lightning-thunder 0.2.6 operator code that converts a traced number with int().

``int(proxy)`` returns the trace-time value without recording a check, so the
output size computed from a scale factor is baked into the cached trace.  The
gradient makes thunder run its own interpolate decomposition.
"""

from __future__ import annotations

import sys

import torch
import torch.nn.functional as F

from _repro import Case, main, thunder_calls

IMAGE = torch.randn(6, 6)


# The reshape to constant sizes keeps the image size static: with symbolic sizes
# thunder 0.2.6's bilinear path fails earlier, on to(FloatProxy, dtype).
def bilinear(x: torch.Tensor, scale_h: float, scale_w: float) -> torch.Tensor:
    return F.interpolate(x.reshape(1, 1, 6, 6), scale_factor=(scale_h, scale_w), mode="bilinear")


def nearest(x: torch.Tensor, scale: float) -> torch.Tensor:
    return F.interpolate(x.reshape(1, 1, 6, 6), scale_factor=scale, mode="nearest")


CASES = [
    Case("interpolate_bilinear_height", "thunder/torch/__init__.py:5549",
         lambda: thunder_calls(bilinear, [(IMAGE, 2.0, 2.0), (IMAGE, 3.0, 2.0)], grad=True)),
    Case("interpolate_bilinear_width", "thunder/torch/__init__.py:5550",
         lambda: thunder_calls(bilinear, [(IMAGE, 2.0, 2.0), (IMAGE, 2.0, 3.0)], grad=True)),
    Case("interpolate_nearest", "thunder/torch/__init__.py:5582",
         lambda: thunder_calls(nearest, [(IMAGE, 2.0), (IMAGE, 3.0)], grad=True)),
]

if __name__ == "__main__":
    sys.exit(main(CASES))
