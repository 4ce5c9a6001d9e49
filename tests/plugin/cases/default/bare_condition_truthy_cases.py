# mypy: enable-error-code="truthy-bool"
from __future__ import annotations

from proxy_types import BoolProxy


def truthy_bool_reports_it(flag: BoolProxy) -> None:
    # BoolProxy lacks __bool__ in the stubs: mypy's own truthy-bool reports it, the plugin stays quiet.
    if flag:  # E: [truthy-bool] "flag" has type "BoolProxy" which does not implement __bool__
        pass
