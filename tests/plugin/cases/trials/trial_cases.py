"""Findings inside lambdas and comprehensions that mypy checks while trying overloads.

Each is reported once, and mypy infers what it infers without the plugin
(tests/plugin/test_no_inference_change.py compares every type and error).
"""

from typing import Callable, overload

from proxy_types import FloatProxy, IntegerProxy


def overloaded_builtins(rows: list[int | IntegerProxy], xs: list[float | FloatProxy]) -> None:
    kept = list(filter(lambda x: isinstance(x, int), rows))  # E: [proxy-isinstance] (int) misclassifies dynamic number "IntegerProxy"
    reveal_type(kept)
    ordered = sorted(rows, key=lambda x: isinstance(x, int))  # E: [proxy-isinstance] (int) misclassifies dynamic number "IntegerProxy"
    reveal_type(ordered)
    largest = max(xs, key=lambda x: isinstance(x, float))  # E: [proxy-isinstance] (float) misclassifies dynamic number "FloatProxy"
    reveal_type(largest)
    flags = list(map(lambda x: isinstance(x, float), xs))  # E: [proxy-isinstance] (float) misclassifies dynamic number "FloatProxy"
    reveal_type(flags)
    pairs = dict(map(lambda x: (x, isinstance(x, float)), xs))  # E: [proxy-isinstance] (float) misclassifies dynamic number "FloatProxy"
    reveal_type(pairs)
    floats = [float(x) for x in rows if isinstance(x, int)]  # E: [proxy-isinstance] (int) misclassifies dynamic number "IntegerProxy"
    reveal_type(floats)
    lowest = min((x for x in xs if isinstance(x, float)), default=0.0)  # E: [proxy-isinstance] (float) misclassifies dynamic number "FloatProxy"
    reveal_type(lowest)
    converted = list(map(lambda x: float(x), rows))  # E: [proxy-concretize] float() turns dynamic number "IntegerProxy"  # E: [arg-type] Argument 1 to "float" has incompatible type "int | IntegerProxy"
    reveal_type(converted)


@overload
def apply(check: Callable[[IntegerProxy], str]) -> str: ...
@overload
def apply(check: Callable[[int], bool]) -> int: ...
def apply(check: object) -> object:
    return check


def discarded_trial() -> None:
    # mypy first tries the lambda with an IntegerProxy parameter; that overload
    # loses (the lambda returns bool), so its report is withdrawn.
    chosen = apply(lambda v: isinstance(v, int))
    reveal_type(chosen)


def nested_class_tuple(p: IntegerProxy) -> bool:
    # Each class once in the message, however the tuples nest.
    return isinstance(p, (int, (int, float), ((float,),)))  # E: [proxy-isinstance] against static number classes (int, float) misclassifies dynamic number "IntegerProxy"


def last_statement(rows: list[int | IntegerProxy]) -> None:
    found = list(filter(lambda x: isinstance(x, int), rows))  # E: [proxy-isinstance] (int) misclassifies dynamic number "IntegerProxy"
    reveal_type(found)
