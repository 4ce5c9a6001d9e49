"""Runtime audit: every merge of a dynamic number into a static one that a run executes.

The public side: ``audit()`` / ``Audit``, the context manager, and ``patched_names()``.
While an audit is active, the session (``_audit_session``) has replaced
``builtins.isinstance`` / ``builtins.issubclass``, the concretizing dunders of every
dynamic number class (``_audit_wrappers``) and torch's ``ShapeEnv._log_guard``
(``_audit_torch``); when the last audit ends all of it is put back.  Records go to
the audits of the current context and to audits entered with ``all_threads=True``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from contextvars import Token
from pathlib import Path

from ._audit_records import AuditRecord as AuditRecord
from ._audit_records import _class_name, _RecordBook
from ._audit_records import is_library_file as is_library_file
from ._audit_records import outside_libraries as outside_libraries
from ._audit_session import _session
from ._audit_wrappers import (
    _add_all_threads,
    _context_audits,
    _isinstance,
    _Receiver,
    _remove_all_threads,
)
from ._config import RuntimeSettings, read_runtime_settings
from ._settings_files import DEFAULT_EXEMPT_MODULES

class Audit(_RecordBook):
    """An active or finished runtime audit; ``with proxy_types.audit() as found:``."""

    def __init__(
        self,
        *,
        keep: Callable[[str], bool] | None = None,
        classes: Iterable[type | str] = (),
        config: str | os.PathLike[str] | bool = True,
        all_threads: bool = False,
    ) -> None:
        super().__init__()
        self._keep = keep if keep is not None else outside_libraries
        self._extra_classes = tuple(classes)
        self._config = config
        self.all_threads = all_threads
        #: The config file the settings came from, as shown to the user (None: none).
        self.config_file: str | None = None
        self._state = "new"
        self._token: Token[tuple[_Receiver, ...]] | None = None
        self._kept: dict[str, bool] = {}

    def __repr__(self) -> str:
        return f"<Audit {self._state}: {len(self._events)} records>"

    @property
    def active(self) -> bool:
        """True between ``__enter__`` and ``__exit__``."""
        return self._state == "active"

    def __enter__(self) -> Audit:
        if self._state != "new":
            raise RuntimeError("an Audit can be entered only once; call proxy_types.audit() again")
        settings, classes = self._settings()
        self.config_file = settings.config_file
        _session.start(settings, classes)
        self._state = "active"
        if self.all_threads:
            with _session.lock:
                _add_all_threads(self)
        self._token = _context_audits.set(_context_audits.get() + (self,))
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._state != "active":
            return
        self._state = "finished"
        try:
            if self._token is not None:
                try:
                    _context_audits.reset(self._token)
                except ValueError:  # exited in another context than it was entered in
                    _context_audits.set(tuple(a for a in _context_audits.get() if a is not self))
        finally:
            with _session.lock:
                _remove_all_threads(self)
                _session.stop()

    def _settings(self) -> tuple[RuntimeSettings, tuple[type, ...]]:
        if self._config is False:
            settings = RuntimeSettings(None, (), DEFAULT_EXEMPT_MODULES)
        elif self._config is True:
            settings = read_runtime_settings()
        else:
            settings = read_runtime_settings(Path(self._config))
        names = list(settings.classes)
        objects: list[type] = []
        for item in self._extra_classes:
            if isinstance(item, str):
                names.append(item)
            elif isinstance(item, type):
                objects.append(item)
            else:
                raise TypeError(f"proxy_types.audit: classes must be classes or dotted names, "
                                f"got {item!r}")
        return settings._replace(classes=tuple(names)), tuple(objects)

    # -- recording --

    def _keeps(self, filename: str) -> bool:
        kept = self._kept.get(filename)
        if kept is None:
            kept = self._kept[filename] = bool(self._keep(filename))
        return kept

    # -- reports --

    def report(self, format: str = "text") -> str:
        """The records as ``text`` (a table), ``json`` or ``sarif`` (``proxy-types check``'s shapes)."""
        from . import _audit_report

        return _audit_report.render(self.records, format, self.config_file, self.problems)

    def write_report(self, path: str | os.PathLike[str], format: str | None = None) -> None:
        """Write the report to ``path``; the format defaults to the suffix (.json, .sarif, .txt).

        Raises ``OSError`` (``WriteFailed``) with a one-line message naming the file.
        """
        from . import _audit_report

        from ._files import write_atomically

        chosen = format or _audit_report.format_of(Path(path))
        write_atomically(path, self.report(chosen))  # a failed write keeps the old report


def audit(
    *,
    keep: Callable[[str], bool] | None = None,
    classes: Iterable[type | str] = (),
    config: str | os.PathLike[str] | bool = True,
    all_threads: bool = False,
) -> Audit:
    """A runtime audit of the merges of dynamic into static numbers, as a context manager.

    ``keep(filename)`` chooses the files whose records are kept (default: files
    outside the standard library and site-packages).  ``classes`` adds classes
    (or dotted names) treated as dynamic numbers; ``config`` is the config file
    to read ``audit_classes``, ``dynamic_number_classes``, ``migrate_classes``
    and ``exempt_modules`` from (True: the file mypy would use, False: none).
    ``all_threads`` also records what other threads and contexts do.
    """
    return Audit(keep=keep, classes=classes, config=config, all_threads=all_threads)


def patched_names() -> list[str]:
    """What an audit has patched right now ("builtins.isinstance", "torch.SymInt.__bool__"...)."""
    with _session.lock:
        return [f"{_class_name(p.owner) if _isinstance(p.owner, type) else p.owner.__name__}."
                f"{p.name}" for p in _session.patches]
