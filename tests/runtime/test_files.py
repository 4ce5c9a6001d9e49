"""``write_atomically``: the new content whole, or the old file byte-identical and a true message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from proxy_types._files import WriteFailed, write_atomically

REPO = Path(__file__).resolve().parents[2]
OLD = b"old content\n" * 10


def write_limited(path: Path, content: str, blocks: int) -> subprocess.CompletedProcess[str]:
    """``write_atomically(path, content)`` in a process under a real ``ulimit -f``."""
    script = ("import sys\nfrom proxy_types._files import write_atomically\n"
              "try:\n    write_atomically(sys.argv[1], sys.argv[2])\n"
              "except OSError as error:\n    print(error)\n")
    return subprocess.run(
        ["bash", "-c", f'ulimit -f {blocks} && exec "$0" "$@"', sys.executable, "-c", script,
         str(path), content],
        capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_a_write_past_the_size_limit_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_bytes(OLD)
    result = write_limited(path, "x" * 5000, blocks=2)
    assert result.stdout == f"cannot write {path}: File too large; the file was left unchanged\n"
    assert path.read_bytes() == OLD
    assert os.listdir(tmp_path) == ["report.json"]  # no temporary file left


def test_a_write_within_the_size_limit_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_bytes(OLD)
    result = write_limited(path, "x" * 1000, blocks=2)
    assert result.stdout == ""
    assert path.read_bytes() == b"x" * 1000


def test_a_new_file_that_cannot_be_written_says_none_was(tmp_path: Path) -> None:
    path = tmp_path / "new.json"
    result = write_limited(path, "x" * 5000, blocks=2)
    assert result.stdout == f"cannot write {path}: File too large; no file was written\n"
    assert os.listdir(tmp_path) == []


def test_mode_is_kept_and_new_files_follow_the_umask(tmp_path: Path) -> None:
    kept = tmp_path / "kept.py"
    kept.write_bytes(OLD)
    kept.chmod(0o751)
    write_atomically(kept, "new\n")
    assert kept.read_bytes() == b"new\n"
    assert kept.stat().st_mode & 0o777 == 0o751
    umask = os.umask(0o027)
    try:
        write_atomically(tmp_path / "fresh.txt", b"\x00\x01")
    finally:
        os.umask(umask)
    assert (tmp_path / "fresh.txt").stat().st_mode & 0o777 == 0o640
    assert (tmp_path / "fresh.txt").read_bytes() == b"\x00\x01"


def test_text_keeps_its_newlines_and_takes_the_encoding(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    write_atomically(path, "caf\xe9\r\n", "latin-1")
    assert path.read_bytes() == b"caf\xe9\r\n"
    with pytest.raises(WriteFailed, match=r"cannot be encoded as latin-1; the file was left"):
        write_atomically(path, "\u2603", "latin-1")
    assert path.read_bytes() == b"caf\xe9\r\n"


def test_a_symbolic_link_keeps_pointing_at_the_new_content(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_bytes(OLD)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_atomically(link, "new")
    assert link.is_symlink() and target.read_bytes() == b"new"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "locked.txt"
    path.write_bytes(OLD)
    path.chmod(0o444)
    with pytest.raises(WriteFailed, match="Permission denied; the file was left unchanged"):
        write_atomically(path, "new")
    assert path.read_bytes() == OLD


def test_a_missing_directory_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such.json"
    with pytest.raises(WriteFailed) as raised:
        write_atomically(path, "x")
    assert str(raised.value) == (f"cannot write {path}: No such file or directory; "
                                 "no file was written")


def test_check_writable_probes_the_directory_and_leaves_nothing(tmp_path: Path) -> None:
    from proxy_types._files import check_writable

    check_writable(tmp_path / "report.json")
    (tmp_path / "old.json").write_bytes(OLD)
    check_writable(tmp_path / "old.json")
    assert sorted(os.listdir(tmp_path)) == ["old.json"]
    assert (tmp_path / "old.json").read_bytes() == OLD
    with pytest.raises(WriteFailed, match=r": No such file or directory$"):
        check_writable(tmp_path / "no" / "report.json")
    with pytest.raises(WriteFailed, match=r": Is a directory$"):
        check_writable(tmp_path)


def test_check_writable_refuses_a_locked_directory(tmp_path: Path) -> None:
    from proxy_types._files import check_writable

    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() == 0:  # root ignores modes: make the directory immutable
        if subprocess.run(["chattr", "+i", str(locked)], capture_output=True).returncode:
            pytest.skip("running as root without a working chattr +i")
    else:
        locked.chmod(0o555)
    try:
        with pytest.raises(WriteFailed, match=r"cannot write .*report.json: (Operation not "
                                              r"permitted|Permission denied)$"):
            check_writable(locked / "report.json")
        with pytest.raises(WriteFailed, match=r"; no file was written$"):
            write_atomically(locked / "report.json", "x")
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(locked)], capture_output=True)
        locked.chmod(0o755)
    assert os.listdir(locked) == []
