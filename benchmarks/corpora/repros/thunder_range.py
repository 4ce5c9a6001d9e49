"""lightning-thunder 0.2.6 operator code that loops ``range(n)`` over a traced number.

``range`` calls ``IntegerProxy.__index__``, which returns the trace-time value
without recording a check: the number of pieces is baked into the cached trace,
and a later call with another count crashes when the pieces are unpacked.
"""

from __future__ import annotations

import sys

import torch

from _repro import Case, main, thunder_calls

X = torch.randn(6, 6)


def tensor_split(x: torch.Tensor, sections: int) -> tuple[torch.Tensor, ...]:
    return torch.tensor_split(x, sections)


def split(x: torch.Tensor, size: int) -> tuple[torch.Tensor, ...]:
    return x.split(size)


def chunk(x: torch.Tensor, chunks: int) -> tuple[torch.Tensor, ...]:
    return x.chunk(chunks)


def _calls(fn: object) -> object:
    # 6 rows: 2 -> 2 or 3 pieces, 3 -> 3 or 2 pieces
    return lambda: thunder_calls(fn, [(X, 2), (X, 3)])  # type: ignore[arg-type]


CASES = [
    Case("tensor_split_sections", "thunder/torch/__init__.py:1296", _calls(tensor_split)),
    Case("split_size", "thunder/torch/__init__.py:1361", _calls(split)),
    Case("chunk_chunks", "thunder/torch/__init__.py:1063", _calls(chunk)),
]

if __name__ == "__main__":
    sys.exit(main(CASES))  # type: ignore[arg-type]
