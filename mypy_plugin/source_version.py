"""The plugin's version as mypy's cache sees it: the release plus a hash of its sources.

mypy keeps a cache per module and trusts it while the plugin's snapshot is
unchanged; the snapshot is the entry module's ``__version__`` and the hash of
that one file (``mypy_plugin/__init__.py``).  An edited check, or a reinstall of
the same release with other code, would leave stale results in the cache.  So
the version carries a hash of every file whose content decides what the plugin
reports.  An installed release stands for its files
by pip's RECORD (one read).  In a source tree, hashing them all on each run
would cost about two milliseconds; instead the hash is kept next to mypy's
cache with the files' sizes and modification times, and recomputed only when
one of those changed.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
#: Directories of the package whose modules run inside mypy (the command line does not).
_PLUGIN_PARTS = (".", "analysis", "checks")
_MEMO_NAME = "proxy_types_sources.json"


def plugin_sources() -> list[Path]:
    """The files whose content decides what the plugin reports, in a fixed order."""
    return [Path(path) for path, _, _ in _stat_sources()]


def _stat_sources() -> list[tuple[str, int, int]]:
    """(path, size, modification time) of each source file: os.scandir, no glob (warm runs
    pay for this on every start)."""
    found: list[tuple[str, int, int]] = []
    for part in _PLUGIN_PARTS:
        with os.scandir(PACKAGE / part) as entries:
            files = sorted((entry.path, entry.stat()) for entry in entries
                           if entry.name.endswith(".py") and entry.is_file())
        found += [(path, stat.st_size, stat.st_mtime_ns) for path, stat in files]
    table = PACKAGE.parent / "proxy_types" / "_table.py"
    if table.is_file():  # the operations table every check reads
        stat = table.stat()
        found.append((str(table), stat.st_size, stat.st_mtime_ns))
    return found


def _content_hash(files: list[Path]) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for file in files:
        digest.update(file.relative_to(PACKAGE.parent).as_posix().encode())
        digest.update(b"\0")
        digest.update(file.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def installed_record(release: str) -> Path | None:
    """The RECORD of a regular (non-editable) install of ``release``, or None.

    pip writes it with a hash of every installed file, and rewrites it on each
    reinstall: a hash of it stands for the sources at the cost of one read.
    """
    record = PACKAGE.parent / f"proxy_types-{release}.dist-info" / "RECORD"
    return record if record.is_file() else None


def source_hash(cache_dir: str | None) -> str:
    """A short hash of the plugin's sources, remembered in ``cache_dir`` when given."""
    stats = _stat_sources()
    signature = [list(entry) for entry in stats]
    memo = Path(cache_dir) / _MEMO_NAME if cache_dir and cache_dir != os.devnull else None
    if memo is not None:
        try:
            remembered = json.loads(memo.read_text(encoding="utf-8"))
            if remembered.get("signature") == signature:
                return str(remembered["hash"])
        except (OSError, ValueError, KeyError, AttributeError):
            pass  # no memo yet, or an unreadable one: hash the files
    hashed = _content_hash([Path(path) for path, _, _ in stats])
    if memo is not None:
        try:
            memo.parent.mkdir(parents=True, exist_ok=True)
            partial = memo.with_name(f"{memo.name}.{os.getpid()}")
            partial.write_text(json.dumps({"signature": signature, "hash": hashed}),
                               encoding="utf-8")
            os.replace(partial, memo)  # concurrent runs sharing the cache see a whole file
        except OSError:
            pass  # a read-only cache: hash again next time
    return hashed


def plugin_version(release: str, cache_dir: str | None, config_fingerprint: str | None) -> str:
    """``0.1.0+src.<hash>`` (``.config.<hash>`` added under dmypy, see main.py).

    An installed release hashes its RECORD; a source tree (a checkout, an
    editable install) its files.
    """
    record = installed_record(release)
    if record is not None:
        digest = hashlib.blake2b(record.read_bytes(), digest_size=8).hexdigest()
        version = f"{release}+record.{digest}"
    else:
        version = f"{release}+src.{source_hash(cache_dir)}"
    if config_fingerprint is not None:
        version += f".config.{config_fingerprint}"
    return version
