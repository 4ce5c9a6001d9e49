"""The case files' harness: ``# E: [code] text`` markers against real mypy output.

Each marker in a case file expects exactly one error with that code on its
line; every other error is a mismatch.  The text after the code is a fragment
of the message (``# E: [code] int() turns``), the full message after ``=``
(``# E: [code] =int() turns dynamic number "p"``) or a regular expression
between slashes (``# E: [code] /turns dynamic number "(p|q)"/``).

A case file may carry its own settings, on top of its group's ``mypy.ini``::

    # settings:
    #   [mypy.plugins.proxy_types]
    #   strict_isinstance = false
    # flags: --warn-unreachable

Files with the same settings run together in a mypy of their own; only their
own errors count there.  No pytest here: ``run_cases.py`` uses it in a bare
venv (the oldest mypy).
"""

from __future__ import annotations

import configparser
import contextlib
import io
import os
import re
import shlex
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: The case groups' directory; PROXY_TYPES_CASES points the tests at a copy (the harness's
#: own tests run ``--update-cases`` on one).
CASES = Path(os.environ.get("PROXY_TYPES_CASES") or Path(__file__).parent / "cases")

#: group -> its config file name
GROUPS = {
    "default": "mypy.ini",
    "strict": "mypy.ini",
    "configured": "mypy.ini",
    "pyproject": "pyproject.toml",
    "migrate": "mypy.ini",
    "trials": "mypy.ini",
    "specialize": "mypy.ini",
    "guarded": "mypy.ini",
    "traced": "mypy.ini",
    "calls": "mypy.ini",
    "numpy": "mypy.ini",
}
#: Groups that import torch.
TORCH_GROUPS = frozenset({"default", "specialize", "traced", "calls"})
#: Groups that import numpy and torch (numpy is no dependency: they run where it is
#: installed next to mypy).
NUMPY_GROUPS = frozenset({"numpy"})

_MARKER = re.compile(r"#\s*E:\s*\[([a-z-]+)\]\s*([^#]*)")
_ERROR_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+): error: (?P<message>.*)  \[(?P<code>[a-z-]+)\]$")
_SETTINGS_LINE = re.compile(r"^#\s*settings:\s*$")
_FLAGS_LINE = re.compile(r"^#\s*flags:(?P<flags>.*)$")
#: Sections a settings block may name: mypy's own and the plugin's.
_SETTINGS_SECTION = re.compile(r"^(mypy|mypy-.+|mypy\.plugins\.proxy_types)$")


class CaseError(ValueError):
    """A case file or a run the harness cannot use; its text is one line naming the file."""


@dataclass(frozen=True)
class Expected:
    path: str
    line: int
    code: str
    #: ``text`` (a fragment), ``=text`` (the full message) or ``/regex/``
    fragment: str
    #: where the marker stands in its line (for ``--update``)
    span: tuple[int, int] = field(default=(0, 0), compare=False)

    def matches(self, message: str) -> bool:
        if self.fragment.startswith("="):
            return message == self.fragment[1:].strip()
        if _is_regex(self.fragment):
            return re.search(self.fragment[1:-1], message) is not None
        return self.fragment in message


@dataclass(frozen=True)
class Actual:
    path: str
    line: int
    code: str
    message: str


@dataclass(frozen=True)
class CaseSettings:
    """What a case file adds to its group's config: INI lines and command-line flags."""

    config: str = ""
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class CaseRun:
    """One mypy run of a group: the files that share these settings."""

    settings: CaseSettings
    files: tuple[Path, ...]


@dataclass(frozen=True)
class GroupResult:
    """What a group's runs reported against its markers; ``problems`` empty when they agree."""

    expected: list[Expected]
    actual: list[Actual]
    problems: list[str]
    #: the runs did not finish (a crash, bad settings): nothing to compare or update
    failed: bool = False


def _is_regex(fragment: str) -> bool:
    return len(fragment) >= 2 and fragment.startswith("/") and fragment.endswith("/")


def case_files(group: str, cases: Path = CASES) -> list[Path]:
    return sorted((cases / group).glob("*.py"))


def expected_errors(files: list[Path]) -> list[Expected]:
    """Markers of ``files``: each ``# E: [code] text`` expects one error on its line."""
    found: list[Expected] = []
    for file in files:
        for number, text in enumerate(file.read_text().splitlines(), start=1):
            for marker in _MARKER.finditer(text):
                fragment = marker[2].strip()
                if _is_regex(fragment):
                    try:
                        re.compile(fragment[1:-1])
                    except re.error as error:
                        raise CaseError(f"{file.name}:{number}: marker {fragment}: not a regular "
                                        f"expression ({error})") from None
                found.append(Expected(file.name, number, marker[1], fragment,
                                      span=(marker.start(), marker.end())))
    return found


def actual_errors(mypy_stdout: str) -> list[Actual]:
    """Errors in mypy's output (notes and the summary line are dropped)."""
    found: list[Actual] = []
    for line in mypy_stdout.splitlines():
        match = _ERROR_LINE.match(line)
        if match:
            found.append(Actual(Path(match["path"]).name, int(match["line"]),
                                match["code"], match["message"]))
        elif ": error:" in line:
            raise AssertionError(f"unparsed mypy error line: {line}")
    return found


def case_settings(file: Path) -> CaseSettings:
    """The ``# settings:`` block and ``# flags:`` line of ``file`` (each at most once)."""
    lines = file.read_text().splitlines()
    config: str | None = None
    flags: tuple[str, ...] | None = None
    for index, line in enumerate(lines):
        where = f"{file.name}:{index + 1}"
        flag_line = _FLAGS_LINE.match(line)
        if flag_line is not None:
            if flags is not None:
                raise CaseError(f"{where}: a second '# flags:' line (one per file)")
            flags = tuple(shlex.split(flag_line["flags"]))
            if not flags:
                raise CaseError(f"{where}: '# flags:' names no flag")
        if _SETTINGS_LINE.match(line) is None:
            continue
        if config is not None:
            raise CaseError(f"{where}: a second '# settings:' block (one per file)")
        block: list[str] = []
        for following in lines[index + 1:]:
            if not following.startswith("#") or _FLAGS_LINE.match(following):
                break
            block.append(following[1:])
        config = _checked_settings(where, _dedent(block))
    return CaseSettings(config or "", flags or ())


def _dedent(lines: list[str]) -> str:
    indents = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    margin = min(indents, default=0)
    return "".join(line[margin:].rstrip() + "\n" for line in lines)


def _checked_settings(where: str, block: str) -> str:
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(block)
    except configparser.Error as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise CaseError(f"{where}: settings: {first}") from None
    if not parser.sections():
        raise CaseError(f"{where}: '# settings:' is followed by no '#   [section]' line")
    for section in parser.sections():
        if _SETTINGS_SECTION.match(section) is None:
            raise CaseError(f"{where}: settings: section [{section}] is not [mypy], "
                            "[mypy-<modules>] or [mypy.plugins.proxy_types]")
    return block


def case_runs(group: str, cases: Path = CASES) -> list[CaseRun]:
    """The group's runs: first its files without settings of their own, then one run per
    distinct settings."""
    by_settings: dict[CaseSettings, list[Path]] = {CaseSettings(): []}
    for file in case_files(group, cases):
        by_settings.setdefault(case_settings(file), []).append(file)
    if len(by_settings) > 1 and not GROUPS[group].endswith(".ini"):
        raise CaseError(f"{group}: per-case settings need a group whose config is a mypy.ini, "
                        f"not {GROUPS[group]}")
    return [CaseRun(settings, tuple(files)) for settings, files in by_settings.items() if files]


def merged_config(group_config: Path, settings: str) -> str:
    """``group_config`` with ``settings`` on top: a key set there replaces the group's value,
    a key set to nothing removes it.  ``$MYPY_CONFIG_FILE_DIR`` becomes the group's directory
    (the merged config is written elsewhere)."""
    parser = configparser.RawConfigParser()  # as mypy reads it
    directory = str(group_config.parent.resolve())
    parser.read_string(group_config.read_text().replace("$MYPY_CONFIG_FILE_DIR", directory))
    extra = configparser.RawConfigParser()
    extra.read_string(settings)
    for section in extra.sections():
        if not parser.has_section(section):
            parser.add_section(section)
        for key, value in extra.items(section):
            if value.strip():
                parser.set(section, key, value)
            else:
                parser.remove_option(section, key)
    merged = io.StringIO()
    parser.write(merged)
    return merged.getvalue()


def run_group(group: str, cache_dir: Path, *extra: str,
              cases: Path = CASES) -> tuple[str, str, int]:
    """mypy in this process on every case file of ``group``, with the group's config only."""
    return _run_mypy(cases / group, cases / group / GROUPS[group], cache_dir,
                     [*extra, *(path.name for path in case_files(group, cases))])


def run_case_run(group: str, run: CaseRun, cache_dir: Path, *extra: str,
                 cases: Path = CASES) -> tuple[str, str, int]:
    """mypy in this process on the files of ``run``, with their settings on the group's."""
    arguments = [*run.settings.flags, *extra, *(path.name for path in run.files)]
    config = cases / group / GROUPS[group]
    if not run.settings.config:
        return _run_mypy(cases / group, config, cache_dir, arguments)
    with tempfile.TemporaryDirectory(prefix="proxy-types-case-settings-") as scratch:
        merged = Path(scratch) / "mypy.ini"
        merged.write_text(merged_config(config, run.settings.config))
        return _run_mypy(cases / group, merged, cache_dir, arguments)


def _run_mypy(directory: Path, config: Path, cache_dir: Path,
              arguments: list[str]) -> tuple[str, str, int]:
    from mypy import api

    cwd = os.getcwd()
    os.chdir(directory)  # modules of the group import each other
    # The plugin writes a bad setting's line to sys.stderr itself, past api.run's capture.
    direct = io.StringIO()
    try:
        with contextlib.redirect_stderr(direct):
            stdout, stderr, status = api.run(
                ["--config-file", str(config), "--cache-dir", str(cache_dir),
                 "--no-error-summary", "--show-traceback", *arguments])
        return stdout, direct.getvalue() + stderr, status
    finally:
        os.chdir(cwd)


def group_errors(group: str, cache_dir: Path, *, cases: Path = CASES) -> list[Actual]:
    """The errors of the group's case files, each from the run with its settings.

    Errors outside the group's case files (a stub, say) count once.
    """
    names = {path.name for path in case_files(group, cases)}
    found: list[Actual] = []
    for run in case_runs(group, cases):
        stdout, stderr, status = run_case_run(group, run, cache_dir, cases=cases)
        if "Traceback" in stdout + stderr:
            raise CaseError(f"mypy crashed:\n{stdout}{stderr}")
        # A config line mypy ignores is a warning on stderr; the plugin's notices are not.
        warnings = [line for line in stderr.splitlines()
                    if line.strip() and not line.startswith("proxy-types: ")]
        if status == 2 or warnings:
            raise CaseError(f"mypy failed on {', '.join(path.name for path in run.files)}: "
                            f"{' '.join(warnings) or stderr.strip() or stdout.strip()}")
        own = {path.name for path in run.files}
        found += [error for error in actual_errors(stdout)
                  if error.path in own or (error.path not in names and error not in found)]
    return found


def unmatched(expected: list[Expected],
              actual: list[Actual]) -> tuple[list[Expected], list[Actual]]:
    """The markers and the errors left over by a pairing that matches as many as can be
    (a general fragment never takes the error a more precise marker needs)."""
    candidates = [[index for index, got in enumerate(actual)
                   if (got.path, got.line, got.code) == (want.path, want.line, want.code)
                   and want.matches(got.message)] for want in expected]
    owner: dict[int, int] = {}  # actual index -> expected index

    def assign(marker: int, seen: set[int]) -> bool:
        for error in candidates[marker]:
            if error in seen:
                continue
            seen.add(error)
            if error not in owner or assign(owner[error], seen):
                owner[error] = marker
                return True
        return False

    matched = {marker for marker in range(len(expected)) if assign(marker, set())}
    return ([want for index, want in enumerate(expected) if index not in matched],
            [got for index, got in enumerate(actual) if index not in owner])


def mismatches(expected: list[Expected], actual: list[Actual]) -> list[str]:
    """Human-readable differences; empty when every marker matches exactly one error."""
    missing, unexpected = unmatched(expected, actual)
    return ([f"missing  {want.path}:{want.line}: [{want.code}] {want.fragment}"
             for want in missing]
            + [f"unexpected {got.path}:{got.line}: [{got.code}] {got.message}"
               for got in unexpected])


def check_group(group: str, cache_dir: Path, *, plugin_codes_only: bool = False,
                cases: Path = CASES) -> GroupResult:
    """One group's case files under the mypy of this interpreter.

    ``plugin_codes_only``: compare only the plugin's codes (mypy's own messages
    change between releases; the plugin's must not).
    """
    try:
        expected = expected_errors(case_files(group, cases))
        actual = group_errors(group, cache_dir, cases=cases)
    except CaseError as error:
        return GroupResult([], [], [str(error)], failed=True)
    if plugin_codes_only:
        expected = _plugin_codes(expected)
        actual = [a for a in actual if a.code.startswith("proxy-")]
    return GroupResult(expected, actual, mismatches(expected, actual))


def _plugin_codes(expected: list[Expected]) -> list[Expected]:
    return [e for e in expected if e.code.startswith("proxy-")]


def group_problems(group: str, cache_dir: Path, *, plugin_codes_only: bool = False,
                   cases: Path = CASES) -> list[str]:
    """The mismatches of one group's case files (see ``check_group``)."""
    return check_group(group, cache_dir, plugin_codes_only=plugin_codes_only,
                       cases=cases).problems


def marker_for(error: Actual) -> str:
    """The marker ``--update`` writes for ``error``: its full message as a fragment, unless
    the message would read as another form (then ``=message``) or holds ``#`` (a regex)."""
    if "#" in error.message:
        pattern = re.escape(error.message).replace("\\#", "\\x23")
        return f"# E: [{error.code}] /^{pattern}$/"
    if error.message.startswith("=") or _is_regex(error.message):
        return f"# E: [{error.code}] ={error.message}"
    return f"# E: [{error.code}] {error.message}"


def update_markers(directory: Path, result: GroupResult) -> list[str]:
    """Rewrite the markers of the case files in ``directory`` to match ``result.actual``.

    Markers that match are kept as written; stale ones are removed and each
    error no marker matched gets one.  Returns one line per rewritten file.
    """
    stale, missing = unmatched(result.expected, result.actual)
    places = {(want.path, want.line) for want in stale} | {(got.path, got.line) for got in missing}
    changed: list[str] = []
    for name in sorted({path for path, _ in places}):
        file = directory / name
        if not file.is_file():
            continue  # an error in a stub, say: nothing to rewrite
        with open(file, encoding="utf-8", newline="") as handle:
            lines = handle.read().splitlines(keepends=True)
        removed = added = 0
        for line_number in sorted(line for path, line in places
                                  if path == name and line <= len(lines)):
            index = line_number - 1
            body = lines[index].rstrip("\r\n")
            ending = lines[index][len(body):] or "\n"
            for want in sorted((want for want in stale
                                if want.path == name and want.line == line_number),
                               key=lambda want: -want.span[0]):
                start, end = want.span
                rest = body[end:].strip()
                body = body[:start].rstrip() + (f"  {rest}" if rest else "")
                removed += 1
            for got in missing:
                if got.path == name and got.line == line_number:
                    body = f"{body}  {marker_for(got)}" if body.strip() else marker_for(got)
                    added += 1
            lines[index] = body + ending
        if removed or added:
            with open(file, "w", encoding="utf-8", newline="") as handle:
                handle.write("".join(lines))
            changed.append(f"updated {name}: {added} markers added, {removed} removed")
    return changed


def update_group(group: str, result: GroupResult, *, plugin_codes_only: bool = False,
                 cases: Path = CASES) -> tuple[list[str], list[str]]:
    """``--update`` for one group: rewrite its markers from ``result`` (see
    ``update_markers``), then the mismatches left, which no marker can fix."""
    if result.failed or not result.problems:
        return [], result.problems
    changed = update_markers(cases / group, result)
    rewritten = expected_errors(case_files(group, cases))
    if plugin_codes_only:
        rewritten = _plugin_codes(rewritten)
    return changed, mismatches(rewritten, result.actual)
