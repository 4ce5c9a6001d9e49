from migrate_legacy import NumberProxy


class ExemptFloat(NumberProxy, float):  # E: [proxy-base] Legacy proxy class "ExemptFloat"
    pass


def inspect(p: ExemptFloat) -> bool:
    return isinstance(p, float)
