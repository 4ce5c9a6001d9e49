"""Writing a file so that a failure leaves the old one whole: the one writer of the package.

The new content goes to a temporary file in the same directory, is flushed to
disk, takes the old file's permission bits, and only then replaces the old file
(``os.replace`` is atomic on one file system).  A full disk, an exceeded quota
or ``ulimit -f`` therefore cost the new content, never the old one.

Standard library only; the command line (``mypy_plugin.cli``) uses it too.
"""

from __future__ import annotations

import os
import secrets
import stat

# Files new to the directory get what open() would give them, the umask applied.
_NEW_FILE_MODE = 0o666


class WriteFailed(OSError):
    """A write that did not happen; its text is one line and says what is on disk."""


def write_atomically(path: str | os.PathLike[str], content: str | bytes,
                     encoding: str = "utf-8") -> None:
    """Replace ``path`` with ``content`` (text is encoded with ``encoding``, newlines as given).

    On failure, raises ``WriteFailed`` after removing the temporary file: the old
    file is byte-identical (or there still is none), and the message says so.
    """
    target = os.path.realpath(path)  # a symbolic link keeps pointing at the new content
    existed = os.path.exists(target)
    kept = "the file was left unchanged" if existed else "no file was written"
    try:
        data = content.encode(encoding) if isinstance(content, str) else content
    except UnicodeEncodeError as error:
        raise WriteFailed(f"cannot write {os.fspath(path)}: the text cannot be encoded as "
                          f"{error.encoding}; {kept}") from None
    if existed and not os.access(target, os.W_OK):
        # Renaming over a read-only file would succeed: respect the mode instead.
        raise WriteFailed(f"cannot write {os.fspath(path)}: Permission denied; {kept}")
    directory, name = os.path.split(target)
    temporary = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE)
    except OSError as error:
        raise _failure(path, error, kept) from None
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view):]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        if existed:
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    except BaseException as error:  # an interrupt too must not leave the temporary file
        try:
            os.unlink(temporary)
        except OSError:
            pass  # already gone; the old file is untouched either way
        if isinstance(error, OSError):
            raise _failure(path, error, kept) from None
        raise


def _failure(path: str | os.PathLike[str], error: OSError, kept: str) -> WriteFailed:
    reason = error.strerror or str(error).replace("\n", " ")
    failed = WriteFailed(f"cannot write {os.fspath(path)}: {reason}; {kept}")
    failed.errno = error.errno
    return failed


def check_writable(path: str | os.PathLike[str]) -> None:
    """Raise ``WriteFailed`` now if ``write_atomically(path, ...)`` could not create its file.

    Creates and removes a temporary file beside ``path``: the real test of a
    directory's permissions, a read-only file system or a missing directory.
    """
    target = os.path.realpath(path)
    if os.path.isdir(target):
        raise WriteFailed(f"cannot write {os.fspath(path)}: Is a directory")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise WriteFailed(f"cannot write {os.fspath(path)}: Permission denied")
    directory, name = os.path.split(target)
    probe = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE))
        os.unlink(probe)
    except OSError as error:
        reason = error.strerror or str(error).replace("\n", " ")
        raise WriteFailed(f"cannot write {os.fspath(path)}: {reason}") from None
