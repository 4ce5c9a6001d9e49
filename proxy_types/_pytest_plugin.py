"""pytest plugin (entry point ``pytest11``): ``pytest --proxy-types-audit[=REPORT]``.

Audits the whole session, collection included, in every thread; prints the
audit's table in the terminal summary and, given ``=REPORT.json`` (or
``.sarif`` / ``.txt``), writes the report there.  Under pytest-xdist each
worker audits its own tests and writes ``REPORT.<worker>.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from ._audit import Audit

OPTION = "--proxy-types-audit"
_AUDIT_KEY = pytest.StashKey["Audit"]()
_REPORT_KEY = pytest.StashKey[Path | None]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("proxy-types", "proxy_types runtime audit")
    group.addoption(
        OPTION, dest="proxy_types_audit", nargs="?", const="", default=None, metavar="REPORT",
        help="audit the run for merges of dynamic into static numbers; print a table at the "
             "end and, with =REPORT.json / .sarif / .txt, write the report there",
    )


def pytest_configure(config: pytest.Config) -> None:
    value = config.getoption("proxy_types_audit")
    if value is None:
        return  # the audit is not even imported
    from ._audit import audit
    from ._audit_report import FORMATS
    from ._errors import ConfigurationError

    report: Path | None = None
    if value:
        report = Path(value)
        if report.suffix.lower() not in FORMATS:
            # nargs="?" takes the next word: a test path given after the option lands here.
            raise pytest.UsageError(
                f"{OPTION}: the report must be named *.json, *.sarif or *.txt, got {value!r}; "
                f"write {OPTION}=REPORT.json, or put test paths before the option"
            )
        worker = getattr(config, "workerinput", {}).get("workerid")
        if worker is not None:
            report = report.with_name(f"{report.stem}.{worker}{report.suffix}")
        from ._files import check_writable

        try:
            check_writable(report)  # before the tests run, not after
        except OSError as error:
            raise pytest.UsageError(f"{OPTION}: {error}") from None
    config.stash[_REPORT_KEY] = report
    session_audit = audit(all_threads=True)
    try:
        session_audit.__enter__()
    except ConfigurationError as error:
        raise pytest.UsageError(f"{OPTION}: {error}") from None
    config.stash[_AUDIT_KEY] = session_audit


def pytest_sessionfinish(session: pytest.Session) -> None:
    _finish(session.config)


def pytest_unconfigure(config: pytest.Config) -> None:
    _finish(config)  # when the session never ran (usage errors, --help)


def _finish(config: pytest.Config) -> None:
    session_audit = config.stash.get(_AUDIT_KEY, None)
    if session_audit is None or not session_audit.active:
        return
    session_audit.__exit__(None, None, None)
    report = config.stash.get(_REPORT_KEY, None)
    if report is not None:
        from ._audit_report import format_of

        try:
            session_audit.write_report(report, format_of(report))
        except OSError as error:  # WriteFailed: one line naming the file and what is on disk
            raise pytest.UsageError(f"{OPTION}: {error}") from None


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    session_audit = config.stash.get(_AUDIT_KEY, None)
    if session_audit is None:
        return
    terminalreporter.write_sep("=", "proxy-types audit")
    for line in session_audit.report("text").splitlines():
        terminalreporter.write_line(line)
    report = config.stash.get(_REPORT_KEY, None)
    if report is not None:
        terminalreporter.write_line(f"report written to {report}")
