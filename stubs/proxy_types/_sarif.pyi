from pathlib import Path

PROGRAM: str
INFORMATION_URI: str
SARIF_SCHEMA: str

def tool_version() -> str: ...

class SarifLog:
    root: Path
    rules: list[dict[str, object]]
    results: list[dict[str, object]]
    def __init__(self, root: Path) -> None: ...
    def has_rule(self, code: str) -> bool: ...
    def add_rule(
        self,
        code: str,
        description: str,
        *,
        tags: list[str],
        help_text: str | None = None,
        help_markdown: str | None = None,
        level: str = "error",
    ) -> None: ...
    def add_result(
        self,
        code: str,
        level: str,
        message: str,
        file: str,
        line: int,
        column: int | None,
        end_line: int | None = None,
        end_column: int | None = None,
        properties: dict[str, object] | None = None,
    ) -> None: ...
    def location(
        self, file: str, line: int, column: int | None, end_line: int | None, end_column: int | None
    ) -> dict[str, object]: ...
    def render(
        self,
        properties: dict[str, object] | None = None,
        invocation: dict[str, object] | None = None,
    ) -> str: ...
