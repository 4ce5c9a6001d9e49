"""Migration mode: a base class of a migrated proxy class may hold a legacy proxy."""

from __future__ import annotations

from typing import Any

from migrate_legacy import NumberProxy, Proxy, StringProxy


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


def after_a_base_class_branch(x: Any, y: Any, z: Any, w: Any, v: Any, n: Node, p: Proxy) -> None:
    # thunder's `if isinstance(x, Proxy): return ...` then `isinstance(x, Number)`:
    # Proxy is a base of NumberProxy, so no number proxy gets past it
    if isinstance(x, Proxy):
        return
    isinstance(x, int)
    if isinstance(y, (StringProxy, str)):
        return
    isinstance(y, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "Any"
    if isinstance(z, Node):  # a base of one proxy subclass only (LegacyNumber)
        return
    isinstance(z, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "Any"
    if not isinstance(w, Proxy):
        isinstance(w, float)
    else:
        isinstance(w, float)  # E: [proxy-isinstance] (float) misclassifies dynamic number "NumberProxy"
    isinstance(v, int) and not isinstance(v, Proxy)  # excluded on purpose
    isinstance(v, int) and not isinstance(v, StringProxy)  # E: [proxy-isinstance] (int) misclassifies dynamic number "Any"
    isinstance(p, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "NumberProxy"
    if isinstance(p, Proxy):
        isinstance(p, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "NumberProxy"
