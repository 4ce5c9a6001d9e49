"""Run mypy with the plugin in this process and collect its findings as data."""

from __future__ import annotations

import io
import json
import os
import tempfile
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext, redirect_stderr, redirect_stdout
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import __version__
from .. import collectors
from ..collectors import ArgumentRecords
from .common import (
    EXIT_INTERNAL,
    EXIT_USAGE,
    HIDDEN_CODE,
    INTERNAL_CODE,
    CommandLineError,
    one_line,
    without_severity,
)
from .project_config import ChosenConfig, choose_config, display_path
from .report_cache import ReportCache

if TYPE_CHECKING:
    # The reports load where they are read: a text run prints mypy's lines and needs none.
    from ..findings import PassedArgument, Report
    from ..presets import Preset
    from .runtime_report import RuntimeJoin  # loaded with --runtime-report only

PLUGIN_CODE_PREFIX = "proxy-"


@dataclass
class Finding:
    """One mypy message; columns and lines are 1-based.

    ``report`` is what the plugin recorded for a ``proxy-*`` finding (its kind,
    classes, reason...), joined by position, code and message.  ``passed`` is
    what it recorded for mypy's own ``arg-type`` error about a dynamic number
    (only when the run recorded arguments, for ``fix``), joined by position.
    """

    file: str
    line: int
    column: int
    end_line: int | None
    end_column: int | None
    severity: str
    code: str | None
    message: str
    hint: str | None = None
    report: Report | None = field(default=None, compare=False)
    passed: PassedArgument | None = field(default=None, compare=False)

    @property
    def is_plugin_finding(self) -> bool:
        """An error of the plugin (``proxy-*`` code)."""
        return (self.severity == "error" and (self.code or "").startswith(PLUGIN_CODE_PREFIX)
                and self.code != HIDDEN_CODE)

    def as_dict(self) -> dict[str, object]:
        """The finding as JSON-ready data; plugin findings add their report's data."""
        data = asdict(self)
        del data["report"], data["passed"]
        if self.report is not None:
            details = self.report.as_dict()
            for located in ("file", "line", "column", "message", "code"):
                del details[located]
            data["kind"] = details["kind"]
            data["reason"] = details["reason"]
            data["report"] = details
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        """The finding of ``as_dict`` output (its report rebuilt from the data)."""
        from ..findings import Reason, Report

        fields = {key: data.get(key) for key in (
            "file", "line", "column", "end_line", "end_column", "severity", "code", "message",
            "hint")}
        details = data.get("report")
        report = None
        if isinstance(details, dict):
            reason = details.get("reason")
            report = Report(
                code=str(fields["code"]), kind=details["kind"], dynamic=details["dynamic"],
                operation=details["operation"], classes=tuple(details["classes"]),
                subject=details["subject"], extra=tuple(details["extra"]),
                reason=Reason(**reason) if isinstance(reason, dict) else None,
                tracers=tuple(details["tracers"]) if details.get("tracers") is not None
                else None,
                file=str(fields["file"]), line=int(str(fields["line"])),
                column=int(str(fields["column"])) - 1, message=str(fields["message"]),
            )
        return cls(**fields, report=report)  # type: ignore[arg-type]


@dataclass
class CheckResult:
    """The findings of one ``check`` run, mypy's exit status and what else it printed."""

    findings: list[Finding]
    exit_status: int
    config: ChosenConfig
    warnings: list[str] = field(default_factory=list)
    #: Files mypy had to check again because their cached errors came without reports.
    rechecked: list[str] = field(default_factory=list)
    #: How many times mypy ran: 1, or 2 when files had to be checked again.
    mypy_runs: int = 1
    #: With ``--runtime-report``: what a runtime audit confirmed, and saw alone.
    runtime: RuntimeJoin | None = None
    #: Findings the settings hide, by the code they have (off by default or disabled, or
    #: harmless under each tracer the ``tracers`` setting names).
    hidden: dict[str, int] = field(default_factory=dict)
    #: Of those, the ones the ``tracers`` setting hid, by code.
    hidden_by_tracers: dict[str, int] = field(default_factory=dict)
    #: Plugin findings ``--min-confidence`` left out, and the level it was given.
    below_confidence: int = 0
    min_confidence: str = "any"


#: mypy's code for an argument whose type the parameter does not accept.
ARG_TYPE_CODE = "arg-type"


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
    """``mypy.api.run``, also capturing what plugins print to sys.stdout/stderr.

    mypy's SQLite cache raises out of mypy when it cannot be opened or written
    (a full disk, a quota, a file size limit, a damaged file): one line naming it.
    """
    import sqlite3

    from mypy import api

    printed_out, printed_err = io.StringIO(), io.StringIO()
    try:
        with redirect_stdout(printed_out), redirect_stderr(printed_err):
            stdout, stderr, status = api.run(arguments)
    except sqlite3.Error as error:
        raise CommandLineError(cache_failure(arguments, error)) from None
    return printed_out.getvalue() + stdout, printed_err.getvalue() + stderr, status


def cache_failure(arguments: list[str], error: Exception) -> str:
    """The line for mypy's SQLite cache failing: its file, SQLite's reason, a likely cause."""
    import resource

    from mypy.main import process_options

    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        _, options = process_options(arguments)
    version = "{}.{}".format(*options.python_version)
    database = display_path(Path(options.cache_dir) / version / "cache.db")
    limit, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if limit != resource.RLIM_INFINITY:
        cause = f"the file size limit (ulimit -f) is {limit} bytes; raise it"
    else:
        cause = ("a full disk, an exceeded quota or a damaged file?; free space, remove the "
                 "file, or give --cache-dir another directory")
    return f"mypy's cache {database} could not be used: {one_line(str(error))} ({cause})"


def mypy_has_workers() -> bool:
    """True if this mypy checks in worker processes when configured to (mypy 2)."""
    from mypy.options import Options

    return hasattr(Options(), "num_workers")


def mypy_arguments(paths: Sequence[str], config: str, cache_dir: str | None) -> list[str]:
    """The mypy command line for ``paths`` with JSON output and the chosen config."""
    arguments = ["--config-file", config, "--output", "json", "--show-column-numbers"]
    arguments += ["--show-error-codes", "--hide-error-context", "--no-pretty", "--no-color-output"]
    if mypy_has_workers():
        # Reports are collected in this process: no worker processes, whatever the config says.
        arguments += ["--num-workers", "0"]
    if cache_dir is not None:
        arguments += ["--cache-dir", cache_dir]
    return [*arguments, "--", *paths]


def run_check(paths: Sequence[str], forced_config: str | None, cache_dir: str | None,
              *, record_arguments: bool = False, preset: Preset | None = None,
              with_reports: bool = True) -> CheckResult:
    """Run mypy in this process and collect its findings.

    ``record_arguments``: also join each ``arg-type`` error about a dynamic number
    to the plugin's record of it (``Finding.passed``), as ``fix`` needs.
    ``with_reports``: give each plugin finding its report (``Finding.report``);
    without, the findings are mypy's lines alone, which is all a text report prints.
    """
    for path in paths:
        if not os.path.exists(path):
            raise CommandLineError(f"no such file or directory: {path}")
    with tempfile.TemporaryDirectory(prefix="proxy-types-") as scratch:
        config = choose_config(forced_config, Path(scratch), preset)
        if forced_config is None:
            ignored = ignored_plugin_table(Path.cwd(), config)
            if ignored is not None:
                raise CommandLineError(ignored)
        if not paths and not config.names_targets:
            raise CommandLineError(
                "no paths given and the config names no files; try: proxy-types check ."
            )
        run = run_mypy_collecting(mypy_arguments(paths, config.mypy_file, cache_dir),
                                  record_arguments, with_reports)
        stdout, stderr, status = run.stdout, run.stderr, run.status
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
    # mypy prints files in the order it checks them, which follows string hashes:
    # by file (stable: each file's own order kept), the output is the same for any seed.
    findings.sort(key=lambda finding: finding.file)
    findings, hidden, hidden_by_tracers = without_hidden(findings)
    if status == 1 and hidden and not any(f.severity == "error" for f in findings):
        status = 0  # only hidden findings: mypy's status counted them
    attach_reports(findings, run.reports)
    attach_arguments(findings, run.passed)
    config_name = config.source or config.mypy_file
    try:
        interpret_stderr(stderr, config_name, warnings)
    except CommandLineError as error:
        raise CommandLineError(config.explained(str(error))) from None
    config_problems = [f for f in findings if f.file == Path(config_name).as_posix()]
    if config_problems:
        problem = config_problems[0]
        raise CommandLineError(
            f"broken config {problem.file}: {config.explained(one_line(problem.message))}")
    if status == EXIT_USAGE and not any(f.severity == "error" for f in findings):
        # mypy stopped before checking (no .py files, a file it cannot decode...)
        raise CommandLineError(f"mypy could not run: {blocking_reason(warnings)}")
    if status != EXIT_USAGE and any(f.code == INTERNAL_CODE for f in findings):
        status = EXIT_INTERNAL  # ran, but some findings may be missing
    warnings.extend(run.notices)
    return CheckResult(findings, status, config, warnings, rechecked=sorted(run.rechecked),
                       mypy_runs=run.mypy_runs, hidden=hidden,
                       hidden_by_tracers=hidden_by_tracers)


def without_hidden(findings: Sequence[Finding]
                   ) -> tuple[list[Finding], dict[str, int], dict[str, int]]:
    """``findings`` without the plugin's hidden ones, their count by their own code, and
    the count of those the ``tracers`` setting hid.

    A hidden finding's message starts with its code (``proxy-specialize: ...``),
    followed by ``(tracers)`` when that setting hid it.  mypy's note that a ``# type:
    ignore[...]`` does not cover the internal code goes too.
    """
    shown: list[Finding] = []
    hidden: dict[str, int] = {}
    by_tracers: dict[str, int] = {}
    for finding in findings:
        if finding.code == HIDDEN_CODE:
            code, _, why = finding.message.partition(":")[0].partition(" ")
            hidden[code] = hidden.get(code, 0) + 1
            if why:
                by_tracers[code] = by_tracers.get(code, 0) + 1
        elif not (finding.severity == "note" and f'"{HIDDEN_CODE}"' in finding.message):
            shown.append(finding)
    return shown, hidden, by_tracers


class MypyRun(NamedTuple):
    """What mypy printed and returned, with the plugin's reports of the run."""

    stdout: str
    stderr: str
    status: int
    reports: list[Report]
    rechecked: set[str]  # files checked a second time to get their reports
    passed: list[PassedArgument]
    #: How many times mypy ran (1, or 2 when files had to be checked again).
    mypy_runs: int
    #: Lines for the user: files checked again and why.
    notices: list[str]


def run_mypy_collecting(arguments: list[str], record_arguments: bool = False,
                        with_reports: bool = True) -> MypyRun:
    """Run mypy in this process, keeping the report of every plugin finding.

    mypy replays the errors of a module it does not check again from its cache,
    and a replayed error never has its report.  Those come from the reports
    stored beside the cache by an earlier run (``report_cache.py``); files
    without stored reports are checked once more with their cache found stale,
    and so are modules whose cache was written for another path (a copy of the
    project sharing the cache).  ``record_arguments``: a file with an
    ``arg-type`` error whose calls the plugin did not see in the run is
    checked again too.  Without ``with_reports`` the stored reports are not
    read and no file is checked again for its reports; the reports of the
    files mypy checked are still stored, for the next run that needs them.
    """
    def recording() -> AbstractContextManager[ArgumentRecords | None]:
        return collectors.collecting_arguments() if record_arguments else nullcontext()

    with (recording() as records, collectors.collecting() as reports,
          collectors.counting_hidden(), collectors.noting_build() as notes):
        stdout, stderr, status = run_mypy(arguments)
    stored = None if notes.cache_dir is None else ReportCache(notes.cache_dir, __version__)
    notices = [stored.problem] if stored is not None and stored.problem else []
    by_file = records_by_file(stdout)
    replayed: set[str] = set()
    unreported = files_without_reports(by_file, reports) if with_reports else set()
    if stored is not None:
        for file in sorted(unreported):
            kept = stored.reports(file, by_file[file])
            if kept is not None:
                reports.extend(kept)
                replayed.add(file)
        unreported -= replayed
    if records is not None:
        unreported |= files_without_arguments(by_file, records)
    moved = moved_modules(by_file, notes)
    if moved:
        notices.append(moved_notice(moved, notes))
        unreported |= {display_path(Path(path)) for path in moved}
        replayed -= set(moved.values())
    passed = records.passed if records is not None else []
    runs = 1
    if unreported and status != EXIT_USAGE:
        with (recording() as again_records,
              collectors.collecting(recheck=unreported) as again,
              collectors.counting_hidden(), collectors.noting_build() as again_notes):
            stdout, stderr, status = run_mypy(arguments)
        runs = 2
        reports = again + reports
        passed = (again_records.passed if again_records is not None else []) + passed
        notes.written |= again_notes.written
        by_file = records_by_file(stdout)
    if stored is not None:
        problem = store_reports(stored, by_file, reports, notes.written, replayed)
        if problem is not None:
            notices.append(problem)
    return MypyRun(stdout, stderr, status, reports, unreported, passed, runs, notices)


def records_by_file(stdout: str) -> dict[str, list[dict[str, Any]]]:
    """mypy's JSON messages grouped by file (as mypy names it), in mypy's order."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for record in map(json_record, stdout.splitlines()):
        if record is not None:
            grouped.setdefault(str(record["file"]), []).append(record)
    return grouped


def store_reports(stored: ReportCache, by_file: dict[str, list[dict[str, Any]]],
                  reports: Sequence[Report], checked: set[str], replayed: set[str]) -> str | None:
    """Keep the reports of every file mypy checked in this run; a line if that failed."""
    index = report_index(reports)
    with_findings = set()
    for file, records in by_file.items():
        if os.path.abspath(file) not in checked:
            continue  # replayed from mypy's cache: its stored reports, if any, stay
        findings = [finding_from_mypy(record) for record in records]
        attach_reports(findings, index)
        plugin = [f for f in findings if f.is_plugin_finding]
        if plugin:
            with_findings.add(os.path.abspath(file))
        if file not in replayed and plugin and all(f.report is not None for f in plugin):
            stored.store(file, records, [f.report for f in plugin if f.report is not None])
    for file in checked - with_findings:
        stored.forget(file)
    return stored.save()


def moved_modules(by_file: dict[str, list[dict[str, Any]]],
                  notes: collectors.BuildNotes) -> dict[str, str]:
    """Modules whose cached errors name another file: their file now -> the file named.

    mypy keeps a module's cache when the source at a new path has the same
    hash, and replays its errors with the old path (a copy of the project
    sharing the cache).
    """
    moved: dict[str, str] = {}
    for file in by_file:
        absolute = os.path.abspath(file)
        if absolute in notes.modules:
            continue
        stem = os.path.splitext(absolute)[0].replace(os.sep, "/")
        for path, module in notes.modules.items():
            relative = "/" + module.replace(".", "/")
            if path != absolute and (stem.endswith(relative)
                                     or stem.endswith(relative + "/__init__")):
                moved[path] = file
    return moved


def moved_notice(moved: dict[str, str], notes: collectors.BuildNotes) -> str:
    """One line saying which cached modules belonged to another path."""
    path, old = sorted(moved.items())[0]
    more = f" and {len(moved) - 1} more" if len(moved) > 1 else ""
    return (f"mypy's cache {notes.cache_dir} held {notes.modules[path]} as checked at {old}, "
            f"not {display_path(Path(path))}{more} (a copy sharing the cache?): checked again")


def report_key(file: str, line: int, column: int, code: str | None, message: str
               ) -> tuple[str, int, int, str | None, str]:
    """What joins a mypy message to the report it was rendered from (column 1-based)."""
    return (os.path.abspath(file), line, column, code, message)


ReportIndex = dict[tuple[str, int, int, "str | None", str], "Report"]


def report_index(reports: Sequence[Report]) -> ReportIndex:
    """The reports by :func:`report_key`.

    mypy checks some nodes twice (deferred functions, trial checks of operators)
    and drops repeated messages; a report kept twice describes the same site.
    """
    by_key: ReportIndex = {}
    for report in reports:
        key = report_key(report.file, report.line, max(report.column, 0) + 1, report.code,
                         report.message)
        by_key.setdefault(key, report)
    return by_key


def attach_reports(findings: Sequence[Finding], reports: Sequence[Report] | ReportIndex) -> None:
    """Give each plugin finding the report it was rendered from."""
    by_key = reports if isinstance(reports, dict) else report_index(reports)
    for finding in findings:
        if finding.is_plugin_finding:
            finding.report = by_key.get(report_key(
                finding.file, finding.line, finding.column, finding.code, finding.message))


def files_without_reports(by_file: dict[str, list[dict[str, Any]]],
                          reports: Sequence[Report]) -> set[str]:
    """Files of mypy's plugin findings that no kept report matches."""
    files = set()
    index = report_index(reports)
    for file, records in by_file.items():
        findings = [finding_from_mypy(record) for record in records]
        attach_reports(findings, index)
        if any(f.is_plugin_finding and f.report is None for f in findings):
            files.add(file)
    return files


def files_without_arguments(by_file: dict[str, list[dict[str, Any]]],
                            records: ArgumentRecords) -> set[str]:
    """Files of ``arg-type`` errors whose calls the plugin did not see in this run
    (mypy replayed their errors from its cache)."""
    return {file for file, found in by_file.items()
            if os.path.abspath(file) not in records.checked_files
            and any(record.get("code") == ARG_TYPE_CODE for record in found)}


def attach_arguments(findings: Sequence[Finding], passed: Sequence[PassedArgument]) -> None:
    """Give each ``arg-type`` error the record of the dynamic argument it is about, if any."""
    by_place = {(os.path.abspath(record.file), record.line, max(record.column, 0) + 1): record
                for record in passed}
    for finding in findings:
        if finding.code == ARG_TYPE_CODE and finding.severity == "error":
            finding.passed = by_place.get(
                (os.path.abspath(finding.file), finding.line, finding.column))


def ignored_plugin_table(start: Path, chosen: ChosenConfig) -> str | None:
    """The line saying a plugin settings table is in a file mypy does not read, or None.

    mypy reads one config file (``mypy.ini``, ``.mypy.ini``, ``pyproject.toml``
    with ``[tool.mypy]``, ``setup.cfg`` with ``[mypy]``); a plugin table in
    another of those files, in the directories searched, is silently ignored.
    """
    from ..settings_files import (
        PLUGIN_SECTION_INI,
        SettingsFileError,
        config_file_candidates,
        has_plugin_section,
    )

    chosen_file = Path(chosen.source).resolve() if chosen.source else None
    for path in config_file_candidates(start, user_files=False):
        if path.resolve() == chosen_file:
            continue
        try:
            has_table = has_plugin_section(path)
        except SettingsFileError:
            continue  # mypy reports an unreadable config it uses; this one it does not
        if has_table:
            table = "[tool.proxy_types]" if path.suffix == ".toml" else f"[{PLUGIN_SECTION_INI}]"
            return _ignored_table_line(display_path(path), table, chosen)
    return None


def _ignored_table_line(path: str, table: str, chosen: ChosenConfig) -> str:
    if chosen.source is not None:
        return (f"{path}: {table} is not read: mypy reads {chosen.source} instead; move the "
                f"settings to {chosen.source}")
    section = "a [tool.mypy] table" if path.endswith(".toml") else "a [mypy] section"
    return (f"{path}: {table} is not read: without {section} mypy does not read {path}, and "
            f"check would use the embedded default; add {section} to {path}")


def blocking_reason(lines: list[str]) -> str:
    """Why mypy stopped: its first error line (stderr included), not its summary line."""
    for line in lines:
        if ": error:" in line or line.startswith("error:"):
            return one_line(line)
    return one_line(lines[0]) if lines else "mypy stopped without a message"


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
            raise CommandLineError(f"broken config {without_severity(one_line(line))}")
        if line.startswith("usage:"):
            continue
        warnings.append(line)
