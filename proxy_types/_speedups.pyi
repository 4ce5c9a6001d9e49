from collections.abc import Callable

def is_static_number(x: object) -> bool: ...
def is_dynamic_number(x: object) -> bool: ...
def install(
    static_answers: dict[type, bool],
    dynamic_answers: dict[type, bool],
    classify: Callable[[type], tuple[bool, bool]],
    /,
) -> None: ...
