"""Migration mode: a base class of a migrated proxy class may hold a legacy proxy."""

from __future__ import annotations

from migrate_legacy import NumberProxy


class Node:
    pass


class LegacyNumber(Node, NumberProxy):
    pass


class Constant(Node):
    pass


def bases(n: Node, c: Constant) -> None:
    isinstance(n, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "LegacyNumber"; use proxy_types.is_static_number() / is_dynamic_number() or include proxy_types.NumberClasses (reason: "Node" has dynamic subclasses: LegacyNumber)
    isinstance(c, int)
    if isinstance(n, NumberProxy):
        return
    isinstance(n, float)
