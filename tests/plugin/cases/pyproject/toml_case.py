class Tracer:
    pass


def uses(t: Tracer, u: int) -> None:
    isinstance(t, int)  # E: [proxy-isinstance] dynamic number "Tracer"
    isinstance(u, int)
