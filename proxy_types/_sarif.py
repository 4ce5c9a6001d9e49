"""SARIF 2.1.0 logs in one shape for ``proxy-types check`` and the runtime audit.

Code scanning shows both side by side, so rules, locations and the run
header are built here once.  Standard library only: the runtime has no mypy.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

PROGRAM = "proxy-types"
INFORMATION_URI = "https://pypi.org/project/proxy-types/"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def tool_version() -> str:
    """The installed proxy-types version, or ``0+unknown`` when not installed."""
    from importlib import metadata

    try:
        return metadata.version("proxy-types")
    except metadata.PackageNotFoundError:
        return "0+unknown"


class SarifLog:
    """One run's rules and results, rendered as a SARIF log.

    Paths inside ``root`` (the working directory) are written relative to
    ``%SRCROOT%``, others as absolute URIs.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.rules: list[dict[str, object]] = []
        self.results: list[dict[str, object]] = []
        self._rule_index: dict[str, int] = {}

    def has_rule(self, code: str) -> bool:
        """True once a rule for ``code`` was added."""
        return code in self._rule_index

    def add_rule(self, code: str, description: str, *, tags: list[str],
                 help_text: str | None = None, help_markdown: str | None = None,
                 level: str = "error") -> None:
        """The rule of an error code; its help defaults to the description."""
        self._rule_index[code] = len(self.rules)
        self.rules.append({
            "id": code,
            "name": "".join(part.capitalize() for part in code.replace("-", " ").split()),
            "shortDescription": {"text": description},
            "fullDescription": {"text": description},
            "help": {"text": help_text or description,
                     "markdown": help_markdown or help_text or description},
            "defaultConfiguration": {"level": level},
            "properties": {"tags": tags},
        })

    def add_result(self, code: str, level: str, message: str, file: str, line: int,
                   column: int | None, end_line: int | None = None,
                   end_column: int | None = None,
                   properties: dict[str, object] | None = None) -> None:
        """A finding at ``file:line:column`` under the rule of ``code`` (added before)."""
        result: dict[str, object] = {
            "ruleId": code,
            "ruleIndex": self._rule_index[code],
            "level": level,
            "message": {"text": message},
            "locations": [self.location(file, line, column, end_line, end_column)],
        }
        if properties is not None:
            result["properties"] = properties
        self.results.append(result)

    def location(self, file: str, line: int, column: int | None, end_line: int | None,
                 end_column: int | None) -> dict[str, object]:
        """A SARIF physical location; the end only when the start column is known."""
        # startColumn is required by code scanning: 1 where Python keeps no column.
        region: dict[str, int] = {"startLine": line, "startColumn": column or 1}
        if column is not None and end_line is not None and end_column is not None:
            region.update(endLine=end_line, endColumn=end_column)
        if file.startswith("<"):  # code without a file: <string>, <stdin>
            artifact: dict[str, str] = {"uri": quote(file)}
        else:
            absolute = Path(file).resolve()
            try:
                relative = absolute.relative_to(self.root)
                artifact = {"uri": quote(relative.as_posix()), "uriBaseId": "%SRCROOT%"}
            except ValueError:  # outside the source root: keep an absolute URI
                artifact = {"uri": absolute.as_uri()}
        return {"physicalLocation": {"artifactLocation": artifact, "region": region}}

    def render(self, properties: dict[str, object] | None = None,
               invocation: dict[str, object] | None = None) -> str:
        """The log as JSON text; ``properties`` go on the run, ``invocation`` (an
        ``invocation`` object: ``executionSuccessful``, notifications) in its invocations."""
        run: dict[str, object] = {
            "tool": {"driver": {
                "name": PROGRAM,
                "informationUri": INFORMATION_URI,
                "version": tool_version(),
                "rules": self.rules,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": self.root.as_uri() + "/"}},
            "results": self.results,
        }
        if invocation is not None:
            run["invocations"] = [invocation]
        if properties is not None:
            run["properties"] = properties
        document = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
        return json.dumps(document, indent=2) + "\n"
