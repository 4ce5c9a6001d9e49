class TracedNumber:
    def __lt__(self, other: int) -> bool:
        return False


def not_a_class() -> None: ...
