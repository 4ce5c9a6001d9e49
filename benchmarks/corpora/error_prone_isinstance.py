"""PyTorch's ERROR_PRONE_ISINSTANCE lint as a baseline: the lines it flags in a corpus.

    python benchmarks/corpora/error_prone_isinstance.py [--corpus torch|thunder] [--root DIR]

Prints every flagged line as ``path:line:text`` (grep -n style, path relative to
``--root``), the format ``score.py --findings`` reads.  The files are the
corpus scope from ground_truth.toml, found under ``--root`` (default: the
site-packages directory that holds the installed torch).  Exit code 0, or 2 when
the root holds none of the corpus files.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from score import GroundTruthError, in_scope, load_ground_truth  # noqa: E402

# The pattern of the ERROR_PRONE_ISINSTANCE linter in PyTorch's .lintrunner.toml
# (tools/linter/adapters/grep_linter.py runs it as `grep -nEHI PATTERN FILE...`):
#     '--pattern=isinstance\([^)]+(int|float)\)',
# applied there to torch/_refs, torch/_prims, torch/_prims_common, torch/_decomp
# and torch/_meta_registrations.py.  POSIX ERE and Python re agree on this pattern.
PATTERN = re.compile(r"isinstance\([^)]+(int|float)\)")

#: A wider grep for migrations off number bases: any isinstance/issubclass/check_type
#: call on a line that names a static number class (thunder's checks are mostly against
#: ``Number`` and go through ``check_type``).  The same in POSIX ERE:
#:     grep -nE '(isinstance|issubclass|check_type)\(.*\b(Number|int|float|complex|numbers\.[A-Z][a-z]+)\b'
NUMBER_CHECK_PATTERN = re.compile(
    r"(isinstance|issubclass|check_type)\(.*\b(Number|int|float|complex|numbers\.[A-Z][a-z]+)\b")


def corpus_files(root: Path, scope: list[str]) -> list[Path]:
    """The .py files under ``root`` that the ``scope`` patterns name, sorted."""
    found = {path for pattern in scope for path in root.glob(pattern) if path.is_file()}
    return sorted(path for path in found if in_scope(path.relative_to(root).as_posix(), scope))


def flagged_lines(path: Path, pattern: re.Pattern[str] = PATTERN) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line ``pattern`` matches, as grep reports them."""
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), start=1):
        if pattern.search(line):
            yield number, line


def default_root() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        return Path.cwd()
    return Path(spec.origin).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", default="torch", help="corpus in ground_truth.toml (default torch)")
    parser.add_argument("--root", type=Path, help="directory holding the corpus package "
                        "(default: the site-packages of the installed torch)")
    parser.add_argument("--ground-truth", type=Path, default=HERE / "ground_truth.toml")
    options = parser.parse_args(argv)
    try:
        truth = load_ground_truth(options.ground_truth)
    except GroundTruthError as error:
        print(f"error_prone_isinstance.py: error: {error}", file=sys.stderr)
        return 2
    if options.corpus not in truth.scopes:
        print(f"error_prone_isinstance.py: error: unknown corpus {options.corpus!r} "
              f"(known: {', '.join(sorted(truth.scopes))})", file=sys.stderr)
        return 2
    root: Path = (options.root or default_root()).resolve()
    files = corpus_files(root, truth.scopes[options.corpus])
    if not files:
        print(f"error_prone_isinstance.py: error: no {options.corpus} corpus file under {root}",
              file=sys.stderr)
        return 2
    for path in files:
        relative = path.relative_to(root).as_posix()
        for number, line in flagged_lines(path):
            print(f"{relative}:{number}:{line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
