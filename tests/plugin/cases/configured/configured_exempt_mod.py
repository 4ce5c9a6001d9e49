from proxy_types import IntegerProxy


def allowed(p: IntegerProxy) -> None:
    isinstance(p, int)
    if p > 0:
        pass
    float(p)  # E: [arg-type] Argument 1 to "float"
