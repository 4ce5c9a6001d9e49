"""``python -m proxy_types.audit [options] script.py [args...]``.

Runs the script as ``python script.py args...`` would, under an audit of all
threads, then prints the audit's table on standard error and writes the
report if ``--output`` is given.  The exit status is the script's.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
import traceback
from pathlib import Path
from typing import NoReturn

from proxy_types._audit import audit
from proxy_types._audit_report import format_of
from proxy_types._errors import ConfigurationError
from proxy_types._files import check_writable

PROGRAM = "python -m proxy_types.audit"
EXIT_USAGE = 2


class UsageError(Exception):
    """A problem with the command line; one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    """The command's options; everything after the script goes to the script."""
    parser = _Parser(prog=PROGRAM, description="Run a Python script under a proxy_types "
                     "runtime audit and report every merge of a dynamic number into a static one.")
    parser.add_argument("--output", metavar="FILE",
                        help="also write the report here (format from the suffix: .json, .sarif, .txt)")
    parser.add_argument("--format", choices=("text", "json", "sarif"),
                        help="format of --output (default: from its suffix)")
    config = parser.add_mutually_exclusive_group()
    config.add_argument("--config", metavar="FILE",
                        help="config file with [mypy.plugins.proxy_types] or [tool.proxy_types] "
                             "(default: the file mypy would use)")
    config.add_argument("--no-config", action="store_true", help="read no config file")
    parser.add_argument("--all-files", action="store_true",
                        help="keep records from the standard library and site-packages too")
    parser.add_argument("script", help="the Python script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    return parser


def run_script(script: Path, args: list[str]) -> int:
    """Run ``script`` as ``__main__`` with ``args``; its exit status (1 on an exception)."""
    sys.argv = [str(script), *args]
    sys.path[0] = str(script.resolve().parent)
    try:
        runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exit:
        code = exit.code
        if code is None or isinstance(code, int):
            return code or 0
        print(code, file=sys.stderr)
        return 1
    except BaseException as error:  # shown as python shows it, from the script's frame on
        frames = traceback.extract_tb(error.__traceback__)
        start = next((i for i, f in enumerate(frames)
                      if os.path.abspath(f.filename) == str(script.resolve())), 0)
        print("Traceback (most recent call last):", file=sys.stderr)
        print("".join(traceback.format_list(frames[start:])), end="", file=sys.stderr)
        print("".join(traceback.format_exception_only(type(error), error)), end="",
              file=sys.stderr)
        return 130 if isinstance(error, KeyboardInterrupt) else 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    try:
        options = build_parser().parse_args(argv)
        script = Path(options.script)
        if not script.is_file():
            raise UsageError(f"no such script: {options.script}")
        output_format = options.format
        if options.output is not None and output_format is None:
            output_format = format_of(Path(options.output))
        if options.output is not None:
            try:
                check_writable(options.output)  # before the script runs, not after
            except OSError as exc:
                raise UsageError(str(exc)) from None
        config: str | bool = options.config if options.config is not None else not options.no_config
        session = audit(all_threads=True, config=config,
                        keep=(lambda filename: True) if options.all_files else None)
        with session:
            status = run_script(script, options.args)
        sys.stderr.write(session.report("text"))
        if options.output is not None:
            try:
                session.write_report(options.output, output_format)
            except OSError as exc:  # WriteFailed: one line naming the file and what is on disk
                print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
                return status or EXIT_USAGE  # the script's own failure comes first
        return status
    except (UsageError, ConfigurationError) as exc:
        print(f"{PROGRAM}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
