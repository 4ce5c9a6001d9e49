"""Base classes of dynamic classes (any function), and traced functions (configured_ops.*)
in a project whose dynamic class is configured: flows are shown as that class."""

from __future__ import annotations

from typing import Optional, Union

from configured_proxies import FloatProxy, Interface, NumberProxy, Proxy, TensorProxy


def bases(p: Proxy, t: TensorProxy, u: Union[TensorProxy, Proxy], m: Optional[Proxy],
          i: Interface, o: object, f: FloatProxy) -> None:
    isinstance(p, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "NumberProxy"; use proxy_types.is_static_number() / is_dynamic_number() or include proxy_types.NumberClasses (reason: "Proxy" has dynamic subclasses: NumberProxy, FloatProxy, IntegerProxy)
    isinstance(u, float)  # E: [proxy-isinstance] (reason: "Proxy" has dynamic subclasses
    isinstance(m, float)  # E: [proxy-isinstance] (reason: "Proxy" has dynamic subclasses
    float(p)  # E: [proxy-concretize] float() turns dynamic number "NumberProxy" into a static value fixed at trace time; use proxy_types.to_static() to make the conversion explicit (reason: "Proxy" has dynamic subclasses  # E: [arg-type] Argument 1 to "float" has incompatible type "Proxy"
    isinstance(t, int)
    isinstance(i, int)
    isinstance(o, int)
    isinstance(f, float)  # E: [proxy-isinstance] dynamic number "FloatProxy"; use proxy_types.is_static_number() / is_dynamic_number() or include proxy_types.NumberClasses


def bases_as_objects(p: Proxy, ps: list[Proxy]) -> None:
    # Operations that work on any object say nothing about a number: a Proxy is
    # keyed, tested and compared by identity like any other object.
    by_proxy: dict[Proxy, int] = {}
    by_proxy[p]
    bool(p)
    any(q is not None for q in ps)
    if p is None:
        pass
    float(p)  # E: [proxy-concretize] float() turns dynamic number "NumberProxy"  # E: [arg-type] Argument 1 to "float"


def bases_narrowed(p: Proxy, q: Proxy, r: Proxy) -> None:
    if isinstance(p, NumberProxy):
        return
    isinstance(p, int)
    if not isinstance(q, TensorProxy):
        return
    isinstance(q, int)
    if isinstance(r, TensorProxy):
        isinstance(r, int)


def traced(n: int, x: float, p: Proxy, s: str) -> None:
    isinstance(n, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "NumberProxy"; use proxy_types.is_static_number() / is_dynamic_number() or include proxy_types.NumberClasses (reason: parameter "n" of traced function "traced"
    if x > 0:  # E: [proxy-concretize] Condition on a comparison of dynamic number "NumberProxy"
        pass
    isinstance(p, float)  # E: [proxy-isinstance] (reason: "Proxy" has dynamic subclasses
    isinstance(s, int)


def traced_after_a_base_class_branch(n: int, m: int, k: int, j: int) -> None:
    # Proxy is a base of the configured NumberProxy: a value outside it is no proxy
    if isinstance(n, Proxy):
        return
    isinstance(n, int)
    if isinstance(m, TensorProxy):  # a sibling of NumberProxy: takes no number proxy
        return
    isinstance(m, int)  # E: [proxy-isinstance] (int) misclassifies dynamic number "NumberProxy"
    isinstance(k, int) and not isinstance(k, Proxy)
    isinstance(j, int) and not isinstance(j, TensorProxy)  # E: [proxy-isinstance] (int) misclassifies dynamic number "NumberProxy"
