"""The plugin's reports kept beside mypy's cache, so that a warm ``check`` runs mypy once.

mypy replays the errors of a module it does not check again from its cache,
and a replayed error comes without the plugin's report.  After each run the
reports of every file with plugin findings are written to
``<cache dir>/<python version>/proxy_types_reports.json``, keyed by the file
(absolute), a hash of its source and every message mypy gave for it.  A
replayed file whose source and messages are the same gets its stored reports;
any other is checked again, as before.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # loaded when stored reports are read back
    from ..findings import Report

FILE_NAME = "proxy_types_reports.json"
#: Bumped whenever the stored layout changes: another layout is ignored, not misread.
LAYOUT = 1

#: One file's entry: its source hash, mypy's messages for it and the reports.
Entry = dict[str, Any]


def source_hash(path: str) -> str | None:
    """SHA-256 of the file's bytes, None if it cannot be read."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def message_key(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """mypy's JSON messages for one file, without the file name (the key holds it)."""
    return [json.dumps({k: v for k, v in record.items() if k != "file"}, sort_keys=True)
            for record in records]


def report_data(report: Report) -> dict[str, Any]:
    """Everything of ``report``, ``Reason.sizes`` included (``as_dict`` shows less)."""
    return asdict(report)


def report_from_data(data: Mapping[str, Any]) -> Report:
    """The report :func:`report_data` stored."""
    from ..findings import Reason, Report

    reason = data["reason"]
    tracers = data.get("tracers")
    fields = dict(data, classes=tuple(data["classes"]), extra=tuple(data["extra"]),
                  reason=Reason(**reason) if reason is not None else None,
                  tracers=tuple(tracers) if tracers is not None else None)
    return Report(**fields)


class ReportCache:
    """The stored reports of one mypy cache directory (read once, written once)."""

    def __init__(self, directory: str, plugin_version: str) -> None:
        self.path = os.path.join(directory, FILE_NAME)
        self.plugin_version = plugin_version
        self.entries: dict[str, Entry] = {}
        #: A line for the user when the file was there but unusable.
        self.problem: str | None = None
        self._changed = False
        try:
            with open(self.path, encoding="utf-8") as stored:
                data = json.load(stored)
        except FileNotFoundError:
            return
        except (OSError, ValueError) as error:
            self.problem = (f"ignored {self.path} ({type(error).__name__}); files with "
                            "replayed findings are checked again")
            return
        if (isinstance(data, dict) and data.get("layout") == LAYOUT
                and data.get("plugin") == plugin_version and isinstance(data.get("files"), dict)):
            self.entries = data["files"]

    def reports(self, file: str, records: Sequence[Mapping[str, Any]]) -> list[Report] | None:
        """The stored reports of ``file`` if its source and mypy's messages are unchanged."""
        entry = self.entries.get(os.path.abspath(file))
        if entry is None or entry.get("messages") != message_key(records):
            return None
        if entry.get("source") != source_hash(file):
            return None
        try:
            return [report_from_data(data) for data in entry["reports"]]
        except (KeyError, TypeError):
            return None

    def store(self, file: str, records: Sequence[Mapping[str, Any]],
              reports: Sequence[Report]) -> None:
        """Keep the reports mypy's check of ``file`` gave, with their key."""
        digest = source_hash(file)
        if digest is None:
            return
        self.entries[os.path.abspath(file)] = {
            "source": digest, "messages": message_key(records),
            "reports": [report_data(report) for report in reports]}
        self._changed = True

    def forget(self, file: str) -> None:
        """``file`` was checked and has no plugin finding now."""
        if self.entries.pop(os.path.abspath(file), None) is not None:
            self._changed = True

    def save(self) -> str | None:
        """Write the file atomically if anything changed; a line for the user if it failed."""
        if not self._changed or not os.path.isdir(os.path.dirname(self.path)):
            return None  # unchanged, or mypy wrote no cache (it stopped early)
        data = {"layout": LAYOUT, "plugin": self.plugin_version,
                "files": dict(sorted(self.entries.items()))}
        directory = os.path.dirname(self.path)
        try:
            handle, temporary = tempfile.mkstemp(prefix=".proxy_types_reports.", dir=directory)
        except OSError as error:
            return f"cannot write {self.path}: {error.strerror}; the next check runs mypy twice"
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out, sort_keys=True)
            # mkstemp makes the file private; a shared cache is read by others too.
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
            os.replace(temporary, self.path)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            return f"cannot write {self.path}: {error.strerror}; the next check runs mypy twice"
        return None
