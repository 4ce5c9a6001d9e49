from migrate_legacy import NumberProxy


class ExemptFloat(NumberProxy, float):  # E: [proxy-base] Legacy proxy class "ExemptFloat"
    pass


def inspect(p: ExemptFloat) -> bool:
    return isinstance(p, float)


def takes_float(x: float) -> float:
    return x


def branch_kept(p: ExemptFloat) -> None:
    # Exempt: no report, but the branch stays type-checked, so mypy's own error shows.
    if isinstance(p, float):
        takes_float(p)  # E: [arg-type] incompatible type "ExemptFloat"
