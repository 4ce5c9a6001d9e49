# E: [proxy-config] migrate_classes entry "relaxed_lib.check_type" is a function, not a class
from typing import Any


class LegacyProxy:
    pass


class LegacyInt(LegacyProxy, int):  # type: ignore[proxy-base]
    pass


def check_type(x: Any, t: type) -> None:
    assert isinstance(x, t)
