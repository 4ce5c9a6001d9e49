"""Check every class and function the plugin settings name, at the settings' own lines.

The plugin can only report into a module it checks (line 1 of a module that
imports the entry's module, and only in a run that checks that module).  Here
``check`` looks each entry up itself, in every run: it finds the entry's module
as mypy would (mypy's own module finder, the project's search path) and reads
that module's top-level definitions.  A problem is one ``proxy-config`` finding
at the line of the entry in the settings file.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..settings_files import entry_line
from .check import CheckResult, Finding
from .common import EXIT_CLEAN, EXIT_FINDINGS

if TYPE_CHECKING:  # the reports load on a problem only: a sound config needs none
    from ..findings import Report
    from ..presets import Preset

#: Settings whose entries name classes, and those whose entries name functions.
CLASS_SETTINGS = ("dynamic_number_classes", "migrate_classes", "guarded_number_classes",
                  "audit_classes")
FUNCTION_SETTINGS = ("isinstance_functions", "concretizing_functions")
CONFIG_CODE = "proxy-config"
#: The plugin's own reports of the same problems (at line 1 of a module): replaced here.
_PLUGIN_ENTRY_MESSAGE = r'^.*: ({settings}) entry "'.format(settings="|".join(CLASS_SETTINGS))


class Entry(NamedTuple):
    """One name a setting lists."""

    setting: str
    name: str


def configured_entries(config_file: Path) -> list[Entry]:
    """The class and function names the plugin settings of ``config_file`` list.

    A file the plugin cannot read gives none: mypy reports it, with status 2.
    """
    from ..config import ProxyTypesConfig

    try:
        config = ProxyTypesConfig(str(config_file), raise_errors=True)
    except Exception:
        return []
    entries = [Entry(setting, name) for setting in CLASS_SETTINGS
               for name in getattr(config, setting)]
    entries += [Entry("isinstance_functions", name) for name in config.isinstance_functions]
    entries += [Entry("concretizing_functions", name) for name in config.concretizing_functions]
    return entries


class FinderUnavailable(Exception):
    """mypy's module finder could not be set up; the message says why, in mypy's words."""


class ModuleFinder:
    """mypy's module finder, set up as mypy sets it up for ``paths`` and the config."""

    def __init__(self, config_file: Path, paths: Sequence[str]) -> None:
        from mypy.build import default_data_dir
        from mypy.errors import CompileError
        from mypy.main import process_options
        from mypy.modulefinder import FindModuleCache, compute_search_paths

        errors = io.StringIO()
        try:
            with redirect_stdout(io.StringIO()), redirect_stderr(errors):
                # no targets needed: the config's files, or none, are as good here
                sources, options = process_options(
                    ["--config-file", str(config_file), "--", *paths] if paths else
                    ["--config-file", str(config_file)], require_targets=False)
                search_paths = compute_search_paths(sources, options, default_data_dir())
        except SystemExit:  # mypy's argument parser: a config or option it refuses
            said = [line for line in errors.getvalue().splitlines() if "error:" in line]
            raise FinderUnavailable(said[-1].partition("error: ")[2] if said else
                                    f"mypy refused the options of {config_file}") from None
        except CompileError as error:  # python_executable that does not exist
            raise FinderUnavailable("; ".join(error.messages)) from None
        except subprocess.CalledProcessError as error:  # python_executable that fails
            raise FinderUnavailable(f"{error.cmd[0]} failed to list its search path "
                                    f"(exit status {error.returncode})") from None
        self._cache = FindModuleCache(search_paths, None, options)

    def path(self, module: str) -> str | None:
        """The file of ``module``, or None if mypy cannot find it."""
        found = self._cache.find_module(module)
        return found if isinstance(found, str) else None


def problem_of(entry: Entry, finder: ModuleFinder) -> Report | None:
    """The plugin's report of what is wrong with ``entry`` (not yet located), or None."""
    parts = entry.name.split(".")
    for split in range(len(parts), 0, -1):
        module = ".".join(parts[:split])
        path = finder.path(module)
        if path is None:
            continue
        if split == len(parts):
            return not_a(entry, "module")
        return attribute_problem(Path(path), module, parts[split:], entry)
    from ..findings import UNRESOLVED_MODULE, Report

    return Report(CONFIG_CODE, UNRESOLVED_MODULE, classes=(entry.name,),
                  subject=".".join(parts[:-1]), extra=("setting", entry.setting))


def not_a(entry: Entry, what: str) -> Report:
    from ..findings import CONFIG_NOT_A_CLASS, Report

    return Report(CONFIG_CODE, CONFIG_NOT_A_CLASS, subject=entry.name,
                  extra=("", entry.setting, what))


def attribute_problem(path: Path, module: str, names: list[str], entry: Entry
                      ) -> Report | None:
    """What is wrong with ``module.names`` as defined in ``path``, or None."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (OSError, SyntaxError, ValueError):
        return None  # mypy reports a module it cannot read
    body: list[ast.stmt] = tree.body
    if any(isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
           for node in top_level(body)):
        return None  # any attribute may exist
    for depth, name in enumerate(names):
        found = [node for node in top_level(body) if binds(node, name)]
        if not found:
            missing = ".".join([module, *names[:depth + 1]])
            from ..findings import CONFIG_NO_SUCH_CLASS, Report

            return Report(CONFIG_CODE, CONFIG_NO_SUCH_CLASS, subject=missing,
                          extra=("", entry.setting))
        classes = [node for node in found if isinstance(node, ast.ClassDef)]
        if not classes:
            functions = [node for node in found
                         if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
            if functions and len(functions) == len(found) and entry.setting in CLASS_SETTINGS:
                return not_a(entry, "function")
            return None  # a variable, an import or an alias: may well be a class
        if depth == len(names) - 1:
            return None
        body = classes[0].body
    return None


def top_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of ``body`` that run when it runs: those in if/try/with blocks too."""
    for node in body:
        yield node
        if isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.AsyncWith)):
            yield from top_level(node.body)
            yield from top_level(node.orelse if not isinstance(node, (ast.With, ast.AsyncWith))
                                 else [])
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody,
                          *(handler.body for handler in node.handlers)):
                yield from top_level(block)


def binds(node: ast.stmt, name: str) -> bool:
    """Whether ``node`` defines ``name`` in the namespace it runs in."""
    if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return node.name == name
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return any((alias.asname or alias.name.split(".")[0]) == name or alias.name == "*"
                   for alias in node.names)
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    elif type(node).__name__ == "TypeAlias":  # Python 3.12
        targets = [getattr(node, "name")]
    return any(isinstance(target, ast.Name) and target.id == name
               for each in targets for target in ast.walk(each))


def settings_findings(config_file: Path, shown_as: str, paths: Sequence[str]
                      ) -> list[Finding] | None:
    """One ``proxy-config`` finding per settings entry that does not resolve, at its line;
    None if the entries could not be looked up."""
    entries = configured_entries(config_file)
    if not entries:
        return []
    try:
        finder = ModuleFinder(config_file, paths)
    except FinderUnavailable:
        return None  # mypy itself reports a config it cannot use
    found = []
    for entry in entries:
        problem = problem_of(entry, finder)
        if problem is not None:
            from ..errors import render  # mypy's plugin API and the checks' codes: on a problem only

            line = entry_line(config_file, entry.setting, entry.name)
            located = replace(problem, file=shown_as, line=line, column=0,
                              message=render(problem))
            found.append(Finding(shown_as, line, 1, None, None, "error", CONFIG_CODE,
                                 located.message, report=located))
    return found


def is_plugin_entry_report(finding: Finding) -> bool:
    """The plugin's report of a configured class, made at line 1 of a checked module."""
    return finding.code == CONFIG_CODE and re.match(_PLUGIN_ENTRY_MESSAGE, finding.message) is not None


def with_settings_findings(result: CheckResult, paths: Sequence[str]) -> CheckResult:
    """``result`` with the settings' problems at the settings' lines, first, in place of
    the plugin's reports of them at line 1 of checked modules."""
    source = result.config.source
    if source is None:
        return result
    found = settings_findings(Path(source), Path(source).as_posix(), paths)
    if found is None:
        return result
    findings = found + [f for f in result.findings if not is_plugin_entry_report(f)]
    status = result.exit_status
    if status == EXIT_CLEAN and found:
        status = EXIT_FINDINGS
    elif status == EXIT_FINDINGS and not any(f.severity == "error" for f in findings):
        status = EXIT_CLEAN
    return replace(result, findings=findings, exit_status=status)


def preset_entries(preset: Preset) -> list[Entry]:
    """The class and function names ``preset`` lists (``isinstance_functions`` without
    their argument indexes)."""
    entries = []
    for setting in (*CLASS_SETTINGS, *FUNCTION_SETTINGS):
        value = preset.plugin.get(setting, ())
        if isinstance(value, tuple):
            entries += [Entry(setting, name.partition(":")[0]) for name in value]
    return entries


class PresetNotChecked(Exception):
    """The names of a preset could not be looked up; the message is the line to show."""


def preset_problems(preset: Preset, config_file: Path, paths: Sequence[str]) -> list[str]:
    """One line per problem with the names ``preset`` lists, looked up as a written config's
    are: a package that cannot be found once for all its entries, then each entry that
    does not resolve.

    Raises :class:`PresetNotChecked` if the names could not be looked up."""
    entries = preset_entries(preset)
    if not entries:
        return []
    try:
        finder = ModuleFinder(config_file, paths)
    except FinderUnavailable as error:
        raise PresetNotChecked(
            f"preset {preset.name}: its {len(entries)} class and function names were not "
            f"checked: mypy's module finder could not be set up with {config_file} ({error})"
        ) from None
    missing: dict[str, list[Entry]] = {}
    lines = []
    for entry in entries:
        package = entry.name.split(".")[0]
        if finder.path(package) is None:
            missing.setdefault(package, []).append(entry)
            continue
        problem = problem_of(entry, finder)
        if problem is not None:
            from ..errors import render  # on a problem only, as above

            lines.append(f"preset {preset.name}: {render(problem)}")
    for package, named in missing.items():
        listed = ", ".join(f"{entry.setting} {entry.name}" for entry in named)
        lines.insert(0, f'preset {preset.name} names module "{package}" ({listed}), which '
                        "mypy cannot find; install it where mypy runs, add its directory to "
                        "mypy_path, or choose another preset")
    return lines
