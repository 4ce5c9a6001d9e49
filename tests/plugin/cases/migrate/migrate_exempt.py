from migrate_legacy import NumberProxy


class ExemptFloat(NumberProxy, float):
    pass


def inspect(p: ExemptFloat) -> bool:
    return isinstance(p, float)
