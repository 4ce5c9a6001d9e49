"""Collections of what the plugin finds, kept while the command line runs mypy in-process.

Separate from ``findings.py`` (the records themselves) so that mypy's warm runs,
which ask only for :func:`cache_data`, build no dataclass.  Nothing here imports
mypy.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .findings import PassedArgument, Report

#: Each active collection, and the same reports as dict keys: "kept already?" is one
#: lookup (a list scan made 1,667 findings cost 1.39 M comparisons, issue #30).
_collectors: list[tuple[list[Report], dict[Report, None]]] = []
# The build's modules, kept past mypy's return when the process will end without
# freeing them (``retain_build``): freeing every tree costs a cold run 35-70% CPU.
_retained: list[object] | None = None
# Files (absolute) whose cached errors mypy must not replay in this run.
_recheck: set[str] = set()
# How many callers count hidden findings (see counting_hidden).
_hidden_counters: list[None] = []


@contextmanager
def collecting(recheck: Iterable[str] = ()) -> Iterator[list[Report]]:
    """Keep every report emitted in this process until the block ends.

    mypy replays the errors of a module it does not check again from its cache,
    and a replayed error comes without its report.  ``recheck`` names files
    (as mypy names them) whose cache mypy must find stale in this run.
    """
    reports: list[Report] = []
    collection: tuple[list[Report], dict[Report, None]] = (reports, {})
    _collectors.append(collection)
    _recheck.update(_normalized(path) for path in recheck)
    try:
        yield reports
    finally:
        # by identity: two collections holding equal reports compare equal
        _collectors[:] = [active for active in _collectors if active is not collection]
        if not _collectors:
            _recheck.clear()


def retain_build(retain: bool) -> None:
    """Keep (or stop keeping) every build's modules alive until the process ends.

    Only for a process that leaves with ``os._exit``: the console entry of the
    command line.  In-process callers (tests) leave it off, so nothing leaks.
    """
    global _retained
    _retained = [] if retain else None


def retain(modules: object) -> None:
    """Keep ``modules`` (mypy's trees of one build) alive if :func:`retain_build` is on.

    The last build only: ``fix`` runs mypy several times, and holding every
    build would multiply the memory a run needs.
    """
    if _retained is not None:
        _retained[:] = [modules]


def keep(report: Report) -> None:
    """Hand ``report`` to every active collector (none: nothing is kept), once each."""
    for reports, kept in _collectors:
        if report not in kept:
            kept[report] = None
            reports.append(report)


def withdraw(report: Report) -> None:
    """Take back a kept report (mypy's trial that made it was discarded)."""
    for reports, kept in _collectors:
        if report in kept:
            del kept[report]
            reports.remove(report)


class ArgumentRecords:
    """What one collection of passed arguments holds."""

    def __init__(self) -> None:
        self.passed: list[PassedArgument] = []
        #: Files whose calls the plugin saw in this run (the others' errors came from the cache).
        self.checked_files: set[str] = set()
        self._seen: set[PassedArgument] = set()


_argument_collectors: list[ArgumentRecords] = []


@contextmanager
def collecting_arguments() -> Iterator[ArgumentRecords]:
    """Keep every :class:`PassedArgument` the plugin records until the block ends.

    A plugin created inside the block records them (at a cost on every call, so
    only ``fix`` asks).
    """
    records = ArgumentRecords()
    _argument_collectors.append(records)
    try:
        yield records
    finally:
        _argument_collectors.remove(records)


def recording_arguments() -> bool:
    """True while somebody collects passed arguments."""
    return bool(_argument_collectors)


def note_checked_file(path: str) -> None:
    """``path`` (as mypy names it) is being checked in this run."""
    for records in _argument_collectors:
        records.checked_files.add(_normalized(path))


def keep_argument(passed: PassedArgument) -> None:
    """Hand ``passed`` to every active argument collector, once each."""
    for records in _argument_collectors:
        if passed not in records._seen:
            records._seen.add(passed)
            records.passed.append(passed)


@contextmanager
def counting_hidden() -> Iterator[None]:
    """Report the findings the settings hide under the internal code ``proxy-hidden``.

    Only the command line asks, and strips them from what it shows, counting them
    (a finding under a disabled code, proxy-specialize by default).  They go
    through mypy like any error, so a warm run replays them from the cache.
    """
    _hidden_counters.append(None)
    try:
        yield
    finally:
        _hidden_counters.pop()


def counts_hidden() -> bool:
    """True while somebody counts hidden findings."""
    return bool(_hidden_counters)


def cache_data(module: str, path: str, is_check: bool, data: object) -> object:
    """What the plugin gives mypy for its cache of module ``path`` (report_config_data).

    ``data`` (the settings) as a rule, marked while hidden findings are counted;
    when mypy validates the cache of a file
    in the ``recheck`` set of a collection (``is_check``), something else, so
    mypy finds it stale and checks the file again.  What is written stays
    ``data``: the file's interface hash, and so its dependents' cache, stay valid.
    """
    if _build_notes:
        note_module(module, path, written=not is_check)
    if is_check and _recheck and _normalized(path) in _recheck:
        return {"recheck": True}
    if _hidden_counters:
        # The cache then holds proxy-hidden errors: plain mypy must not replay them.
        return {"settings": data, "hidden": "counted"}
    return data


class BuildNotes:
    """What the command line learns of one mypy run besides its reports."""

    def __init__(self) -> None:
        #: Every module whose cache mypy read or wrote: file (absolute) -> module name.
        self.modules: dict[str, str] = {}
        #: Files (absolute) whose cache this run wrote: mypy checked them.
        self.written: set[str] = set()
        #: mypy's cache directory for this Python version; None without a cache.
        self.cache_dir: str | None = None


_build_notes: list[BuildNotes] = []


@contextmanager
def noting_build() -> Iterator[BuildNotes]:
    """Note the modules and the cache directory of the mypy runs inside the block."""
    notes = BuildNotes()
    _build_notes.append(notes)
    try:
        yield notes
    finally:
        _build_notes.remove(notes)


def note_cache(cache_dir: str, python_version: tuple[int, int], incremental: bool) -> None:
    """The plugin's options: where mypy keeps its cache (none: ``os.devnull``)."""
    for notes in _build_notes:
        if incremental and cache_dir and cache_dir != os.devnull:
            notes.cache_dir = os.path.join(os.path.abspath(cache_dir), "%d.%d" % python_version)


def note_module(module: str, path: str, *, written: bool) -> None:
    """mypy validated (or wrote, ``written``) the cache of ``module`` from ``path``."""
    for notes in _build_notes:
        absolute = _normalized(path)
        notes.modules[absolute] = module
        if written:
            notes.written.add(absolute)


def _normalized(path: str) -> str:
    # mypy names a file as it was given, or relative to the working directory.
    return os.path.abspath(path)
