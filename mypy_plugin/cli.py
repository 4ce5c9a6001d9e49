"""The ``proxy-types`` command line: run mypy with the plugin, explain codes.

``proxy-types check PATH...`` runs mypy in this process with the plugin on and
prints mypy's diagnostics plus a count per ``proxy-*`` code, as text, JSON or
SARIF 2.1.0.  Which mypy configuration it uses:

* ``--config FILE`` if given, else the file mypy itself would pick (``mypy.ini``,
  ``.mypy.ini``, ``pyproject.toml`` with ``[tool.mypy]``, ``setup.cfg`` with
  ``[mypy]``, searched from the working directory up to the repository root,
  then the user-wide files);
* if that file does not list ``mypy_plugin`` in ``plugins``, a temporary copy
  of its mypy sections with the plugin added (mypy has no ``--plugins`` flag);
* if there is none, the embedded ``default.ini`` next to this module.

Exit status follows mypy: 0 clean, 1 findings, 2 usage, configuration or
blocking errors.
"""

from __future__ import annotations

import argparse
import configparser
import io
import json
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import quote

from mypy_plugin.constants import PLUGIN_SECTION_INI
from proxy_types import ConfigurationError, ProxyTypesError

PROGRAM = "proxy-types"
PLUGIN_MODULE = "mypy_plugin"
DEFAULT_CONFIG = Path(__file__).with_name("default.ini")
INFORMATION_URI = "https://pypi.org/project/proxy-types/"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
OTHER_ERRORS = "other mypy errors"

EXIT_CLEAN, EXIT_USAGE = 0, 2

# The file names mypy looks for, in its order (mypy.defaults).
OWN_CONFIG_NAMES = ("mypy.ini", ".mypy.ini")
SHARED_CONFIG_NAMES = ("pyproject.toml", "setup.cfg")


class CommandLineError(ProxyTypesError):
    """A problem the user can fix; shown as one line, exit status 2."""


# -- configuration ----------------------------------------------------------


@dataclass(frozen=True)
class ProjectConfig:
    """A mypy configuration file reduced to its mypy sections, ini-style."""

    path: Path
    sections: dict[str, dict[str, str]]

    @property
    def plugins(self) -> list[str]:
        """The entries of ``plugins`` in the ``[mypy]`` section."""
        return split_commas(self.sections.get("mypy", {}).get("plugins", ""))

    @property
    def enables_plugin(self) -> bool:
        """True if ``plugins`` already loads this plugin."""
        return any(entry.split(":")[0] == PLUGIN_MODULE for entry in self.plugins)

    @property
    def names_targets(self) -> bool:
        """True if the config names what to check (``files``, ``modules``, ``packages``)."""
        mypy_section = self.sections.get("mypy", {})
        return any(mypy_section.get(key) for key in ("files", "modules", "packages"))


@dataclass(frozen=True)
class ChosenConfig:
    """The file handed to mypy and how it was chosen, for the summary line."""

    mypy_file: str  # as mypy gets it: the name in mypy's own messages
    source: str | None  # the user's file, relative when possible
    description: str
    names_targets: bool


def split_commas(value: str) -> list[str]:
    """The non-empty, stripped items of a comma-separated setting."""
    return [part.strip() for part in value.split(",") if part.strip()]


def one_line(text: str) -> str:
    """``text`` with every run of whitespace, newlines included, made one space."""
    return " ".join(text.split())


def read_ini(path: Path) -> dict[str, dict[str, str]]:
    """Read the mypy sections of an ini-style file (mypy.ini, setup.cfg)."""
    parser = configparser.RawConfigParser()
    try:
        with path.open(encoding="utf-8") as handle:
            parser.read_file(handle)
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandLineError(f"cannot read config {path}: {one_line(str(exc))}") from None
    except configparser.Error as exc:
        reason = str(exc).splitlines()[0]
        line = getattr(exc, "lineno", None)
        where = f" (line {line})" if line else ""
        raise CommandLineError(f"broken config {path}{where}: {one_line(reason)}") from None
    return {
        name: dict(parser.items(name))
        for name in parser.sections()
        if name == "mypy" or name.startswith(("mypy-", "mypy."))
    }


def read_toml(path: Path) -> dict[str, Any]:
    """The parsed TOML file; a one-line ``CommandLineError`` if it is unreadable."""
    if sys.version_info >= (3, 11):
        import tomllib as toml
    else:  # mypy itself depends on tomli before 3.11
        import tomli as toml  # type: ignore[import-not-found, unused-ignore]
    try:
        with path.open("rb") as handle:
            data: object = toml.load(handle)
    except OSError as exc:
        raise CommandLineError(f"cannot read config {path}: {one_line(str(exc))}") from None
    except ValueError as exc:  # TOMLDecodeError
        raise CommandLineError(f"broken config {path}: {one_line(str(exc))}") from None
    return data if isinstance(data, dict) else {}


def toml_value_as_ini(key: str, value: object) -> str:
    """A TOML setting value as mypy expects it in an ini file."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        if key == "exclude":  # a list of regexes in TOML, one regex in ini
            return "|".join(f"(?:{pattern})" for pattern in value)
        return ", ".join(str(item) for item in value)
    return str(value)


def toml_as_ini_sections(path: Path, tool: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Translate ``[tool.mypy]`` (with overrides) and ``[tool.proxy_types]``."""
    mypy_table = tool.get("mypy")
    if not isinstance(mypy_table, dict):
        raise CommandLineError(f"broken config {path}: [tool.mypy] is not a table")
    sections: dict[str, dict[str, str]] = {"mypy": {}}
    for key, value in mypy_table.items():
        if key == "overrides":
            continue
        if isinstance(value, dict):
            raise CommandLineError(f"broken config {path}: [tool.mypy] {key} is a table")
        sections["mypy"][key] = toml_value_as_ini(key, value)
    overrides = mypy_table.get("overrides", [])
    if not isinstance(overrides, list):
        raise CommandLineError(f"broken config {path}: tool.mypy.overrides is not an array")
    for override in overrides:
        modules = override.get("module") if isinstance(override, dict) else None
        if isinstance(modules, str):
            modules = [modules]
        if not (isinstance(modules, list) and modules and all(isinstance(m, str) for m in modules)):
            raise CommandLineError(
                f"broken config {path}: every [[tool.mypy.overrides]] needs a 'module'"
            )
        assert isinstance(override, dict)
        section = sections.setdefault(f"mypy-{','.join(modules)}", {})
        for key, value in override.items():
            if key != "module":
                section[key] = toml_value_as_ini(key, value)
    plugin_table = tool.get("proxy_types")
    if isinstance(plugin_table, dict):
        sections[PLUGIN_SECTION_INI] = {
            key: toml_value_as_ini(key, value) for key, value in plugin_table.items()
        }
    return sections


def read_project_config(path: Path, *, required: bool) -> ProjectConfig | None:
    """Read a config file; None if it is a shared file without mypy settings."""
    if not path.is_file():
        if required:
            raise CommandLineError(f"config file not found: {path}")
        return None
    if path.suffix == ".toml":
        tool = read_toml(path).get("tool", {})
        if not isinstance(tool, dict) or "mypy" not in tool:
            if required:
                raise CommandLineError(f"broken config {path}: it has no [tool.mypy] table")
            return None
        check_plugin_settings(path)  # before TOML values are flattened to ini text
        return ProjectConfig(path, toml_as_ini_sections(path, tool))
    sections = read_ini(path)
    if "mypy" not in sections:
        if required or path.name in OWN_CONFIG_NAMES:
            raise CommandLineError(f"broken config {path}: it has no [mypy] section")
        return None
    check_plugin_settings(path)
    return ProjectConfig(path, sections)


def check_plugin_settings(path: Path) -> None:
    """Read the plugin's settings as the plugin will, failing with the plugin's message."""
    from mypy_plugin.config import ProxyTypesConfig  # imports mypy: only when checking

    try:
        ProxyTypesConfig(display_path(path), raise_errors=True)
    except ConfigurationError as exc:  # the line mypy would print, as for mypy's own errors
        raise CommandLineError(f"broken config {one_line(str(exc))}") from None


def find_project_config(start: Path) -> ProjectConfig | None:
    """Find the configuration mypy would use, searching like mypy does."""
    directory = start.resolve()
    while True:
        for name in OWN_CONFIG_NAMES + SHARED_CONFIG_NAMES:
            found = read_project_config(directory / name, required=False)
            if found is not None:
                return found
        if (directory / ".git").exists() or (directory / ".hg").exists():
            break
        if directory.parent == directory:
            break
        directory = directory.parent
    user_files = ["~/.config/mypy/config", "~/.mypy.ini"]
    if "XDG_CONFIG_HOME" in os.environ:
        user_files.insert(0, os.path.join(os.environ["XDG_CONFIG_HOME"], "mypy/config"))
    for candidate in user_files:
        found = read_project_config(Path(os.path.expanduser(candidate)), required=False)
        if found is not None:
            return found
    return None


def with_plugin_added(config: ProjectConfig, directory: Path) -> Path:
    """Write a copy of ``config`` that also loads the plugin; return its path.

    Paths that mypy resolves against the config file's own directory (``.py``
    plugin paths and ``$MYPY_CONFIG_FILE_DIR``) are made absolute first.
    """
    config_dir = str(config.path.resolve().parent)
    plugins = []
    for entry in config.plugins:
        module = entry.split(":")[0]
        if module.endswith(".py") and not os.path.isabs(module):
            entry = os.path.join(config_dir, entry)
        plugins.append(entry)
    plugins.append(PLUGIN_MODULE)
    parser = configparser.RawConfigParser()
    for name, values in config.sections.items():
        parser.add_section(name)
        for key, value in values.items():
            value = value.replace("${MYPY_CONFIG_FILE_DIR}", config_dir)
            parser.set(name, key, value.replace("$MYPY_CONFIG_FILE_DIR", config_dir))
    parser.set("mypy", "plugins", ", ".join(plugins))
    copy = directory / "mypy.ini"
    with copy.open("w", encoding="utf-8") as handle:
        parser.write(handle)
    return copy


def choose_config(forced: str | None, directory: Path) -> ChosenConfig:
    """Pick the configuration; copies go to ``directory``."""
    if forced is not None:
        config = read_project_config(Path(forced), required=True)
    else:
        config = find_project_config(Path.cwd())
    if config is None:
        default = str(DEFAULT_CONFIG)
        return ChosenConfig(default, None, "embedded default (no mypy config found)", False)
    shown = display_path(config.path)
    if config.enables_plugin:
        return ChosenConfig(shown, shown, shown, config.names_targets)
    copy = str(with_plugin_added(config, directory))
    return ChosenConfig(copy, shown, f"{shown} + {PLUGIN_MODULE}", config.names_targets)


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when possible, with forward slashes."""
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


# -- running mypy -------------------------------------------------------------


@dataclass
class Finding:
    """One mypy message; columns and lines are 1-based."""

    file: str
    line: int
    column: int
    end_line: int | None
    end_column: int | None
    severity: str
    code: str | None
    message: str
    hint: str | None = None

    def as_dict(self) -> dict[str, object]:
        """The finding as JSON-ready data."""
        return asdict(self)


@dataclass
class CheckResult:
    """The findings of one ``check`` run, mypy's exit status and what else it printed."""

    findings: list[Finding]
    exit_status: int
    config: ChosenConfig
    warnings: list[str] = field(default_factory=list)


def int_or_none(value: object) -> int | None:
    """``value`` if it is an int (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def finding_from_mypy(record: dict[str, Any]) -> Finding:
    """Convert one line of ``mypy --output json`` (0-based columns)."""
    line = max(int_or_none(record.get("line")) or 1, 1)
    column = max(int_or_none(record.get("column")) or 0, 0) + 1
    end_line = int_or_none(record.get("end_line"))
    end_column = int_or_none(record.get("end_column"))
    if end_line is None or end_column is None or (end_line, end_column + 1) <= (line, column):
        end_line = end_column = None
    else:
        end_column += 1
    code = record.get("code")
    hint = record.get("hint")
    return Finding(
        file=Path(str(record["file"])).as_posix(),
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        severity=str(record.get("severity", "error")),
        code=code if isinstance(code, str) else None,
        message=str(record.get("message", "")),
        hint=hint if isinstance(hint, str) else None,
    )


def run_mypy(arguments: list[str]) -> tuple[str, str, int]:
    """``mypy.api.run``, also capturing what plugins print to sys.stdout/stderr."""
    from mypy import api

    printed_out, printed_err = io.StringIO(), io.StringIO()
    with redirect_stdout(printed_out), redirect_stderr(printed_err):
        stdout, stderr, status = api.run(arguments)
    return printed_out.getvalue() + stdout, printed_err.getvalue() + stderr, status


def mypy_arguments(paths: Sequence[str], config: str, cache_dir: str | None) -> list[str]:
    """The mypy command line for ``paths`` with JSON output and the chosen config."""
    arguments = ["--config-file", config, "--output", "json", "--show-column-numbers"]
    arguments += ["--show-error-codes", "--hide-error-context", "--no-pretty", "--no-color-output"]
    if cache_dir is not None:
        arguments += ["--cache-dir", cache_dir]
    return [*arguments, "--", *paths]


def run_check(paths: Sequence[str], forced_config: str | None, cache_dir: str | None) -> CheckResult:
    """Run mypy in this process and collect its findings."""
    for path in paths:
        if not os.path.exists(path):
            raise CommandLineError(f"no such file or directory: {path}")
    with tempfile.TemporaryDirectory(prefix="proxy-types-") as scratch:
        config = choose_config(forced_config, Path(scratch))
        if not paths and not config.names_targets:
            raise CommandLineError(
                "no paths given and the config names no files; try: proxy-types check ."
            )
        stdout, stderr, status = run_mypy(mypy_arguments(paths, config.mypy_file, cache_dir))
        # mypy names the file it was given; show the user's file, not our copy.
        if config.source is not None and config.mypy_file != config.source:
            stdout = stdout.replace(config.mypy_file, config.source)
            stderr = stderr.replace(config.mypy_file, config.source)
    findings: list[Finding] = []
    warnings: list[str] = []
    for line in stdout.splitlines():
        record = json_record(line)
        if record is not None:
            findings.append(finding_from_mypy(record))
        elif line.strip():
            warnings.append(line)
    config_name = config.source or config.mypy_file
    interpret_stderr(stderr, config_name, warnings)
    config_problems = [f for f in findings if f.file == Path(config_name).as_posix()]
    if config_problems:
        problem = config_problems[0]
        raise CommandLineError(f"broken config {problem.file}: {one_line(problem.message)}")
    if status == EXIT_USAGE and not any(f.severity == "error" for f in findings):
        # mypy stopped before checking (no .py files, duplicate module names...)
        reason = one_line(warnings[0]) if warnings else "mypy stopped without a message"
        raise CommandLineError(f"mypy could not run: {reason}")
    return CheckResult(findings, status, config, warnings)


def json_record(line: str) -> dict[str, Any] | None:
    """One finding of ``mypy --output json``, or None for any other line."""
    if not line.startswith("{"):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) and "file" in record else None


def interpret_stderr(stderr: str, config_name: str, warnings: list[str]) -> None:
    """Raise for config errors and crashes on mypy's stderr; keep the rest."""
    lines = []
    for line in stderr.splitlines():
        # Blocking errors (a plugin that fails to load) come as JSON on stderr.
        record = json_record(line)
        if record is not None and record.get("file") == Path(config_name).as_posix():
            raise CommandLineError(f"broken config {config_name}: {one_line(record['message'])}")
        if record is not None:
            finding = finding_from_mypy(record)
            line = f"{finding.file}:{finding.line}:{finding.column}: {finding.message}"
        if line.strip():
            lines.append(line)
    if any(line.startswith("Traceback") or "INTERNAL ERROR" in line for line in lines):
        last = next((line for line in reversed(lines) if not line.startswith(" ")), lines[-1])
        raise CommandLineError(
            f"mypy crashed ({one_line(last)}); rerun plain mypy with --show-traceback"
        )
    for line in lines:
        if line.startswith(f"{config_name}:") and "Unrecognized option" not in line:
            raise CommandLineError(f"broken config {one_line(line)}")
        if line.startswith("usage:"):
            continue
        warnings.append(line)


# -- reports ------------------------------------------------------------------


def proxy_codes() -> list[tuple[str, str]]:
    """(code, description) of every plugin error code, in the plugin's order."""
    from mypy_plugin.errors import ALL_CODES

    return [(code.code, code.description) for code in ALL_CODES]


def summarize(findings: Sequence[Finding]) -> dict[str, int]:
    """Count of findings per plugin code, with every other error counted together."""
    counts = {code: 0 for code, _ in proxy_codes()}
    counts[OTHER_ERRORS] = 0
    for finding in findings:
        if finding.severity == "error":
            key = finding.code if finding.code in counts else OTHER_ERRORS
            counts[key] += 1
    return counts


def render_text(result: CheckResult) -> str:
    """mypy's findings as text, then the summary table."""
    out = io.StringIO()
    for finding in result.findings:
        location = f"{finding.file}:{finding.line}:{finding.column}"
        code = f"  [{finding.code}]" if finding.code and finding.severity == "error" else ""
        out.write(f"{location}: {finding.severity}: {finding.message}{code}\n")
        for hint in (finding.hint or "").splitlines():
            out.write(f"{location}: note: {hint}\n")
    counts = summarize(result.findings)
    width = max(len(key) for key in counts)
    if result.findings:
        out.write("\n")
    out.write(f"proxy-types summary (config: {result.config.description})\n")
    for key, count in counts.items():
        out.write(f"  {key:<{width}}  {count}\n")
    return out.getvalue()


def render_json(result: CheckResult) -> str:
    """The findings, summary and config as one JSON document."""
    document = {
        "tool": PROGRAM,
        "version": tool_version(),
        "config": result.config.description,
        "exit_status": result.exit_status,
        "findings": [finding.as_dict() for finding in result.findings],
        "summary": summarize(result.findings),
    }
    return json.dumps(document, indent=2) + "\n"


def tool_version() -> str:
    """The installed proxy-types version, or ``0+unknown`` when not installed."""
    from importlib import metadata

    try:
        return metadata.version("proxy-types")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def sarif_rule(code: str, description: str) -> dict[str, object]:
    """The SARIF rule of an error code, with its explanation as help when there is one."""
    from mypy_plugin.explain import explanation_markdown, explanation_text

    text, markdown = description, description
    try:
        text, markdown = explanation_text(code), explanation_markdown(code)
    except KeyError:  # a mypy code we do not explain
        pass
    return {
        "id": code,
        "name": "".join(part.capitalize() for part in code.replace("-", " ").split()),
        "shortDescription": {"text": description},
        "fullDescription": {"text": description},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["types", "proxy-types" if code.startswith("proxy-") else "mypy"]},
    }


def mypy_code_description(code: str) -> str:
    """mypy's description of one of its own error codes."""
    from mypy import errorcodes

    known = errorcodes.error_codes.get(code)
    return known.description if known is not None else f"mypy error [{code}]"


def sarif_location(finding: Finding, root: Path) -> dict[str, object]:
    """A finding's SARIF location, relative to ``root`` when it lies inside it."""
    path = Path(finding.file)
    absolute = path if path.is_absolute() else (Path.cwd() / path)
    try:
        relative = absolute.resolve().relative_to(root)
        artifact: dict[str, str] = {"uri": quote(relative.as_posix()), "uriBaseId": "%SRCROOT%"}
    except ValueError:  # outside the source root: keep an absolute URI
        artifact = {"uri": absolute.resolve().as_uri()}
    region: dict[str, int] = {"startLine": finding.line, "startColumn": finding.column}
    if finding.end_line is not None and finding.end_column is not None:
        region.update(endLine=finding.end_line, endColumn=finding.end_column)
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def render_sarif(result: CheckResult) -> str:
    """The findings as a SARIF 2.1.0 log for code scanning."""
    root = Path.cwd().resolve()
    rules: list[dict[str, object]] = []
    rule_index: dict[str, int] = {}

    def add_rule(code: str, description: str) -> None:
        """Append the rule of ``code`` and remember its index."""
        rule_index[code] = len(rules)
        rules.append(sarif_rule(code, description))

    for code, description in proxy_codes():
        add_rule(code, description)
    results = []
    for finding in result.findings:
        if finding.severity != "error":
            continue
        code = finding.code or "mypy"
        if code not in rule_index:
            add_rule(code, mypy_code_description(code))
        message = finding.message + (f"\n{finding.hint}" if finding.hint else "")
        results.append({
            "ruleId": code,
            "ruleIndex": rule_index[code],
            "level": "error",
            "message": {"text": message},
            "locations": [sarif_location(finding, root)],
        })
    document = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": PROGRAM,
                "informationUri": INFORMATION_URI,
                "version": tool_version(),
                "rules": rules,
            }},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root.as_uri() + "/"}},
            "results": results,
        }],
    }
    return json.dumps(document, indent=2) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "sarif": render_sarif}


# -- commands -----------------------------------------------------------------


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line."""

    def error(self, message: str) -> NoReturn:
        """Raise the parse error as a one-line ``CommandLineError``."""
        raise CommandLineError(f"{message} (see {self.prog} --help)")


def build_parser() -> ArgumentParser:
    """The ``proxy-types`` argument parser with its subcommands."""
    parser = ArgumentParser(prog=PROGRAM, description="Find dynamic numbers treated as static ones.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    commands.required = True
    check = commands.add_parser("check", help="run mypy with the proxy-types plugin")
    check.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to check")
    check.add_argument("--config", metavar="FILE", help="mypy config file to use")
    check.add_argument("--default-config", action="store_true",
                       help="ignore the project's mypy config; use the embedded default")
    check.add_argument("--format", choices=sorted(RENDERERS), default="text", help="output format")
    check.add_argument("--output", metavar="FILE", help="write the report here instead of stdout")
    check.add_argument("--cache-dir", metavar="DIR", help="mypy cache directory")
    fix = commands.add_parser("fix", help="rewrite reported code with proxy_types guards")
    fix.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to fix")
    fix.add_argument("--config", metavar="FILE", help="mypy config file to use")
    fix.add_argument("--cache-dir", metavar="DIR", help="mypy cache directory")
    fix.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    fix.add_argument("--style", choices=("guards", "classes"), default="guards",
                     help="isinstance fixes as guard calls or as class tuples")
    fix.add_argument("--intent", choices=("auto", "static", "number"), default="auto",
                     help="what isinstance checks ask (see docs/fix.md)")
    explain = commands.add_parser("explain", help="explain an error code")
    explain.add_argument("code", nargs="?", metavar="CODE", help="e.g. proxy-isinstance")
    return parser


def command_check(options: argparse.Namespace) -> int:
    """Run ``proxy-types check``; return the exit status."""
    config = options.config
    if options.default_config:
        if config is not None:
            raise CommandLineError("--config and --default-config exclude each other")
        config = str(DEFAULT_CONFIG)
    result = run_check(options.paths, config, options.cache_dir)
    report = RENDERERS[options.format](result)
    if options.output:
        try:
            Path(options.output).write_text(report, encoding="utf-8")
        except OSError as exc:
            raise CommandLineError(f"cannot write {options.output}: {one_line(str(exc))}") from None
    else:
        sys.stdout.write(report)
    for warning in result.warnings:
        print(warning, file=sys.stderr)
    return result.exit_status


def command_fix(options: argparse.Namespace) -> int:
    """Run ``proxy-types fix`` (needs libcst); return the exit status."""
    try:
        from mypy_plugin import fix
    except ImportError as exc:
        if exc.name != "libcst":
            raise
        raise CommandLineError("fix needs libcst: pip install 'proxy-types[fix]'") from None
    return fix.command_fix(
        options.paths, options.config, options.cache_dir, options.style, options.intent,
        options.diff,
    )


def command_explain(options: argparse.Namespace) -> int:
    """Print one code's explanation, or the list of codes; return 0."""
    from mypy_plugin.explain import explain_code, list_codes

    sys.stdout.write(list_codes() if options.code is None else explain_code(options.code))
    return EXIT_CLEAN


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``proxy-types`` console script."""
    try:
        options = build_parser().parse_args(argv)
        if options.command == "check":
            return command_check(options)
        if options.command == "fix":
            return command_fix(options)
        return command_explain(options)
    except CommandLineError as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{PROGRAM}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug of ours: one line, never a traceback wall
        where = traceback.extract_tb(exc.__traceback__)[-1]
        print(
            f"{PROGRAM}: internal error: {type(exc).__name__}: {one_line(str(exc))} "
            f"({Path(where.filename).name}:{where.lineno})",
            file=sys.stderr,
        )
        return EXIT_USAGE
