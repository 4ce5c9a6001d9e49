"""The plugin's version as mypy's cache sees it: the release plus a hash of its sources.

mypy keeps a cache per module and trusts it while the plugin's snapshot is
unchanged; the snapshot is the entry module's ``__version__`` and the hash of
that one file (``mypy_plugin/__init__.py``).  An edited check, or a reinstall of
the same release with other code, would leave stale results in the cache.  So
the version carries a hash of every file whose content decides what the plugin
reports.  Hashing them all on each run would cost about a millisecond; instead
the hash is kept next to mypy's cache with the files' sizes and modification
times, and recomputed only when one of those changed.
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
    files: list[Path] = []
    for part in _PLUGIN_PARTS:
        files += sorted((PACKAGE / part).glob("*.py"))
    table = PACKAGE.parent / "proxy_types" / "_table.py"
    if table.is_file():  # the operations table every check reads
        files.append(table)
    return files


def _signature(files: list[Path]) -> list[list[object]]:
    signature: list[list[object]] = []
    for file in files:
        stat = file.stat()
        signature.append([str(file), stat.st_size, stat.st_mtime_ns])
    return signature


def _content_hash(files: list[Path]) -> str:
    digest = hashlib.blake2b(digest_size=8)
    for file in files:
        digest.update(file.relative_to(PACKAGE.parent).as_posix().encode())
        digest.update(b"\0")
        digest.update(file.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def source_hash(cache_dir: str | None) -> str:
    """A short hash of the plugin's sources, remembered in ``cache_dir`` when given."""
    files = plugin_sources()
    signature = _signature(files)
    memo = Path(cache_dir) / _MEMO_NAME if cache_dir and cache_dir != os.devnull else None
    if memo is not None:
        try:
            remembered = json.loads(memo.read_text(encoding="utf-8"))
            if remembered.get("signature") == signature:
                return str(remembered["hash"])
        except (OSError, ValueError, KeyError, AttributeError):
            pass  # no memo yet, or an unreadable one: hash the files
    hashed = _content_hash(files)
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
    """``0.1.0+src.<hash>`` (``.config.<hash>`` added under dmypy, see main.py)."""
    version = f"{release}+src.{source_hash(cache_dir)}"
    if config_fingerprint is not None:
        version += f".config.{config_fingerprint}"
    return version
