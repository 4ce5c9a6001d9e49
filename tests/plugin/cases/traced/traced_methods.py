"""A traced method matched by its qualified name; other methods of the class are not traced."""

from __future__ import annotations


class Block:
    def __init__(self, width: int) -> None:
        isinstance(width, int)
        self.width = width

    def forward(self, width: int) -> int:
        if isinstance(width, int):  # E: [proxy-isinstance] (reason: parameter "width" of traced function "Block.forward"
            return width
        return 0
