"""The ``proxy-types`` argument parser and its commands."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from ..presets import PRESETS
from .check import run_check
from .confidence import LEVELS, with_min_confidence
from .common import DEFAULT_CONFIG, EXIT_CLEAN, EXIT_USAGE, PROGRAM, CommandLineError, one_line
from .report import RENDERERS


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line."""

    def error(self, message: str) -> NoReturn:
        """Raise the parse error as a one-line ``CommandLineError``."""
        raise CommandLineError(f"{message} (see {self.prog} --help)")


def guards_in_use() -> str:
    """Which implementation of ``is_static_number`` / ``is_dynamic_number`` imports here."""
    from proxy_types import _guards

    if getattr(_guards, "_speedups", None) is not None:
        return "guards: compiled (proxy_types._speedups)"
    return ("guards: pure Python (proxy_types._speedups is not built: no C compiler at "
            "install time?)")


class VersionAction(argparse.Action):
    """``--version``: the version and the guards in use (imported only when asked)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> NoReturn:
        from proxy_types._sarif import tool_version

        print(f"{parser.prog} {tool_version()}\n{guards_in_use()}")
        parser.exit()


def build_parser() -> ArgumentParser:
    """The ``proxy-types`` argument parser with its subcommands."""
    parser = ArgumentParser(prog=PROGRAM, description="Find dynamic numbers treated as static ones.")
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="show the version and whether the guards are compiled, then exit")
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
    check.add_argument("--runtime-report", metavar="FILE",
                       help="a runtime audit's JSON report: mark the findings it confirmed "
                            "and list what it alone saw")
    check.add_argument("--min-confidence", choices=LEVELS, default="any",
                       help="report plugin findings only when the value is declared dynamic "
                            "(declared), also when it flows from a traced value, a symbolic "
                            "size or a base class (flow), or also for Any/object (any, default)")
    check.add_argument("--preset", choices=list(PRESETS), metavar="NAME",
                       help="merge a preset's settings into the config for this run, writing "
                            f"nothing ({', '.join(PRESETS)})")
    init = commands.add_parser("init", help="write the plugin's settings (a preset's) into "
                                            "the project's mypy config file")
    init.add_argument("--preset", choices=list(PRESETS), metavar="NAME",
                      help=f"the settings to write ({', '.join(PRESETS)}); default: the "
                           "plugin alone")
    fix = commands.add_parser("fix", help="rewrite reported code with proxy_types guards")
    fix.add_argument("paths", nargs="*", metavar="PATH", help="files or directories to fix")
    fix.add_argument("--config", metavar="FILE", help="mypy config file to use")
    fix.add_argument("--cache-dir", metavar="DIR", help="mypy cache directory")
    fix.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    fix.add_argument("--style", choices=("guards", "classes"), default="guards",
                     help="isinstance fixes as guard calls or as class tuples")
    fix.add_argument("--intent", choices=("auto", "static", "number"), default="auto",
                     help="what isinstance checks ask (see docs/fix.md)")
    fix.add_argument("--register", action="store_true",
                     help="register configured and legacy classes defined in the checked files "
                          "with register_dynamic_type(), so their sites can be fixed")
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
    # What only some runs need is imported when asked for: a warm check is mostly imports.
    records = None
    if options.runtime_report is not None:
        from .runtime_report import read_runtime_report

        records = read_runtime_report(options.runtime_report)  # before mypy: a bad one costs no run
    # Imported here: it reads mypy's module finder, and `explain` runs without mypy.
    from .settings_check import PresetNotChecked, preset_problems, with_settings_findings

    preset = None if options.preset is None else PRESETS[options.preset]
    if preset is not None:
        # The preset's own names, before mypy runs: a missing library is no "Success".
        try:
            problems = preset_problems(preset, finder_config(config), options.paths)
        except PresetNotChecked as unchecked:
            # mypy reports the cause itself when it runs; the names stay unchecked
            print(f"{PROGRAM}: warning: {unchecked}", file=sys.stderr)
            problems = []
        for problem in problems:
            print(f"{PROGRAM}: error: {problem}", file=sys.stderr)
        if problems:
            return EXIT_USAGE
    # A text report prints mypy's lines: the plugin's reports only serve the other formats
    # and --min-confidence, and a warm run would otherwise read them all back.
    with_reports = options.format != "text" or options.min_confidence != "any"
    checked = with_settings_findings(
        run_check(options.paths, config, options.cache_dir, preset=preset,
                  with_reports=with_reports), options.paths)
    result = with_min_confidence(checked, options.min_confidence)
    if records is not None:
        from .runtime_report import join

        result.runtime = join({(f.file, f.line) for f in result.findings
                               if f.is_plugin_finding}, records)
        if result.exit_status == EXIT_CLEAN and result.runtime.runtime_only:
            result.exit_status = 1  # the audit saw merges the plugin did not
    report = RENDERERS[options.format](result)
    if options.output:
        from proxy_types._files import WriteFailed, write_atomically

        try:
            write_atomically(options.output, report)
        except WriteFailed as exc:
            raise CommandLineError(str(exc)) from None
    else:
        sys.stdout.write(report)
    for warning in result.warnings:
        print(warning, file=sys.stderr)
    return result.exit_status


def finder_config(forced: str | None) -> Path:
    """The config file mypy will read for the run (its search path), as check picks it."""
    from ..settings_files import SettingsFileError, find_config_file

    if forced is not None:
        return Path(forced)
    try:
        return find_config_file(Path.cwd()) or DEFAULT_CONFIG
    except SettingsFileError:
        return DEFAULT_CONFIG  # run_check reports the broken file


def command_fix(options: argparse.Namespace) -> int:
    """Run ``proxy-types fix`` (needs libcst); return the exit status."""
    try:
        from .fix import command_fix as fix
        from .fix.model import Options
    except ImportError as exc:
        if exc.name != "libcst":
            raise
        raise CommandLineError("fix needs libcst: pip install libcst (the [fix] extra of "
                               "proxy-types)") from None
    return fix(options.paths, options.config, options.cache_dir,
               Options(options.style, options.intent, register=options.register), options.diff)


def command_explain(options: argparse.Namespace) -> int:
    """Print one code's explanation, or the list of codes; return 0."""
    from .explain import explain_code, list_codes

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
        if options.command == "init":
            from .init import command_init

            return command_init(options.preset)
        return command_explain(options)
    except CommandLineError as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ModuleNotFoundError as exc:
        if exc.name != "mypy":
            raise
        print(f"{PROGRAM}: error: this command needs mypy: pip install mypy (the [mypy] extra "
              "of proxy-types)", file=sys.stderr)
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


def console_main() -> NoReturn:
    """The ``proxy-types`` console script: :func:`main`, then a fast exit.

    mypy's own command leaves without freeing its heap (``os._exit``); run in
    this process, it cannot, so the builds are kept alive and the process
    leaves the same way once everything it printed is flushed.  Freeing the
    trees costs a cold run 35-70% CPU.  Report files are closed by then.
    """
    from .. import collectors

    collectors.retain_build(True)
    status = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe: Python's own exit would report it the same way
        status = status or EXIT_USAGE
    os._exit(status)
