"""Score an analysis's findings against the ground truth of confirmed bug sites.

    python benchmarks/corpora/score.py FINDINGS... [--codes PATTERN] [--tolerance N]

FINDINGS are files ("-" for stdin) of mypy output lines
(``path:line: error: message  [code]``, ``path:line:col: error: ...``) or of
grep-style lines (``path:line:text``, what error_prone_isinstance.py prints).
Paths may be absolute or relative; the part from the corpus package on
(``torch/...``, ``thunder/...``) is what counts.  Findings outside every corpus
scope in ground_truth.toml are left out.

A finding matches a ground-truth entry in the same file when its line is within
``--tolerance`` lines (default 0); failing that, when the finding's line text
(given by a grep-style line, or read from the file if the path exists) equals the
entry's ``code``, so a site is still found after its line moved.  Per corpus it
prints: reports, confirmed (reports matching a real site), judged not a bug,
unjudged, recall (real sites found / real sites), precision (confirmed /
reports), recall per kind, and the real sites nobody reported.

A corpus with ``basis = "human fix"`` has as real sites the lines a human fix
changed in one build: findings match them by line only, and a ``[[not_bug]]``
entry may say ``verdict = "not in fix"`` (real by reading, left by the fix).
``--corpus NAME`` scores one corpus, for corpora whose scopes overlap.

Exit code 0, or 2 for an unreadable findings file, a bad ground truth or an
unknown ``--corpus``.
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_GROUND_TRUTH = HERE / "ground_truth.toml"

REAL = "real"
NOT_BUG_VERDICTS = ("harmless", "false positive")
#: What a corpus's real sites are: bugs confirmed at run time (the default), or the
#: sites a human fix changed (``basis = "human fix"``; sites carry ``changed_to``,
#: ``declared``, ``proxy_typed`` and ``reason`` instead of ``outcome`` and ``repro``).
RUNTIME, HUMAN_FIX = "runtime", "human fix"
BASES = (RUNTIME, HUMAN_FIX)
#: A not_bug verdict of human-fix corpora only: real by reading, but the fix left it.
NOT_IN_FIX = "not in fix"
KINDS = ("isinstance", "conversion", "math", "condition", "index", "hash", "format")
OUTCOMES = ("crash", "wrong result", "specializes")


class GroundTruthError(Exception):
    """The ground-truth file is unreadable or malformed; the message is one line."""


class FindingsError(Exception):
    """A findings file is unreadable; the message is one line."""


@dataclass(frozen=True)
class Entry:
    """One ground-truth entry: a real site or a site judged not a bug."""

    corpus: str
    file: str
    line: int
    code: str
    verdict: str
    kind: str = ""
    label: str = ""  # the repro id of a real site, the reason of a not-bug one
    proxy_typed: bool = False  # human-fix site: the checked value is declared as a proxy base


@dataclass(frozen=True)
class GroundTruth:
    scopes: dict[str, list[str]]
    real: list[Entry]
    not_bug: list[Entry]
    bases: dict[str, str] = field(default_factory=dict)  # corpus -> RUNTIME or HUMAN_FIX


@dataclass(frozen=True)
class Finding:
    file: str  # as reported
    line: int
    text: str | None  # the source line, when the report carries it
    code: str | None  # mypy's error code


@dataclass
class CorpusScore:
    corpus: str
    reports: int = 0
    confirmed: int = 0
    judged_not_bug: int = 0
    not_in_fix: int = 0  # of judged_not_bug: real by reading, left by the human fix
    unjudged: list[tuple[str, int]] = field(default_factory=list)
    found: set[Entry] = field(default_factory=set)
    real: list[Entry] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return len(self.found) / len(self.real) if self.real else 0.0

    @property
    def precision(self) -> float:
        return self.confirmed / self.reports if self.reports else 0.0

    @property
    def precision_with_not_in_fix(self) -> float:
        """Precision that also counts reports judged real but left by the human fix."""
        return (self.confirmed + self.not_in_fix) / self.reports if self.reports else 0.0


# -- ground truth --------------------------------------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib as toml
    else:  # mypy itself depends on tomli before 3.11
        import tomli as toml  # type: ignore[import-not-found, unused-ignore]
    try:
        with path.open("rb") as handle:
            data: dict[str, Any] = toml.load(handle)
    except OSError as error:
        raise GroundTruthError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:  # TOMLDecodeError
        raise GroundTruthError(f"{path}: not valid TOML: {error}") from None
    return data


def load_ground_truth(path: Path) -> GroundTruth:
    """The ground truth in ``path``, checked: every entry names a known corpus and
    has its keys with the right types and values."""
    data = read_toml(path)
    corpora = data.get("corpus")
    if not isinstance(corpora, dict) or not corpora:
        raise GroundTruthError(f"{path}: no [corpus.NAME] table")
    scopes: dict[str, list[str]] = {}
    bases: dict[str, str] = {}
    for name, table in corpora.items():
        scope = table.get("scope") if isinstance(table, dict) else None
        if not isinstance(scope, list) or not scope or not all(isinstance(p, str) for p in scope):
            raise GroundTruthError(f"{path}: [corpus.{name}] needs scope, a list of path patterns")
        scopes[name] = scope
        bases[name] = table.get("basis", RUNTIME)
        if bases[name] not in BASES:
            raise GroundTruthError(f"{path}: [corpus.{name}] basis must be one of "
                                   f"{', '.join(BASES)}, got {bases[name]!r}")
    real = [_entry(path, "site", index, item, scopes, bases)
            for index, item in enumerate(_tables(path, data, "site"))]
    not_bug = [_entry(path, "not_bug", index, item, scopes, bases)
               for index, item in enumerate(_tables(path, data, "not_bug"))]
    seen: dict[tuple[str, str, int], str] = {}
    for entry in real + not_bug:
        key = (entry.corpus, entry.file, entry.line)
        if key in seen:
            raise GroundTruthError(f"{path}: {entry.file}:{entry.line} is listed twice "
                                   f"({seen[key]} and {entry.verdict})")
        seen[key] = entry.verdict
    return GroundTruth(scopes, real, not_bug, bases)


def _tables(path: Path, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    items = data.get(key, [])
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise GroundTruthError(f"{path}: {key} must be an array of tables ([[{key}]])")
    return items


def _entry(path: Path, table: str, index: int, item: dict[str, Any],
           scopes: dict[str, list[str]], bases: dict[str, str]) -> Entry:
    where = f"{path}: [[{table}]] #{index + 1}"

    def get(key: str, kind: type) -> Any:
        value = item.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise GroundTruthError(f"{where}: {key} must be a {kind.__name__}, got {value!r}")
        return value

    corpus, file, line, code = get("corpus", str), get("file", str), get("line", int), get("code", str)
    if corpus not in scopes:
        raise GroundTruthError(f"{where}: unknown corpus {corpus!r}")
    if not in_scope(file, scopes[corpus]):
        raise GroundTruthError(f"{where}: {file} is outside the scope of corpus {corpus}")
    if line < 1:
        raise GroundTruthError(f"{where}: line must be positive, got {line}")
    verdict = get("verdict", str)
    if table == "site":
        kind = get("kind", str)
        if verdict != REAL:
            raise GroundTruthError(f"{where}: verdict of a site must be {REAL!r}, got {verdict!r}")
        if kind not in KINDS:
            raise GroundTruthError(f"{where}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if bases[corpus] == HUMAN_FIX:
            get("changed_to", str), get("declared", str)
            proxy_typed = item.get("proxy_typed")
            if not isinstance(proxy_typed, bool):
                raise GroundTruthError(f"{where}: proxy_typed must be true or false, "
                                       f"got {proxy_typed!r}")
            return Entry(corpus, file, line, code, verdict, kind, get("reason", str), proxy_typed)
        outcome = get("outcome", str)
        if outcome not in OUTCOMES:
            raise GroundTruthError(f"{where}: outcome must be one of {', '.join(OUTCOMES)}, "
                                   f"got {outcome!r}")
        return Entry(corpus, file, line, code, verdict, kind, get("repro", str))
    allowed = NOT_BUG_VERDICTS + ((NOT_IN_FIX,) if bases[corpus] == HUMAN_FIX else ())
    if verdict not in allowed:
        raise GroundTruthError(f"{where}: verdict must be one of {', '.join(allowed)}, "
                               f"got {verdict!r}")
    return Entry(corpus, file, line, code, verdict, label=get("reason", str))


def in_scope(file: str, patterns: Sequence[str]) -> bool:
    """Whether the package-relative ``file`` matches a pattern (``*`` within a folder,
    ``**/`` any number of folders)."""
    return any(_pattern_regex(pattern).fullmatch(file) for pattern in patterns)


def _pattern_regex(pattern: str) -> re.Pattern[str]:
    parts = re.split(r"(\*\*/|\*)", pattern)
    translated = {"**/": "(?:[^/]+/)*", "*": "[^/]*"}
    return re.compile("".join(translated.get(part, re.escape(part)) for part in parts))


# -- findings ------------------------------------------------------------------

_MYPY = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+)(?::\d+)?: (?P<severity>error|note|warning)"
                   r": (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$")
_GREP = re.compile(r"^(?P<file>[^:\s][^:]*\.pyi?):(?P<line>\d+):(?P<text>.*)$")
_SUMMARY = re.compile(r"^(Found \d+ errors?|Success: no issues found)")


def parse_findings(lines: Iterable[str]) -> tuple[list[Finding], list[str]]:
    """The findings among ``lines`` (mypy errors or grep lines) and the lines that are
    neither a finding nor a mypy note or summary."""
    findings: list[Finding] = []
    unrecognized: list[str] = []
    for raw in lines:
        line = raw.rstrip("\n")
        if not line.strip() or _SUMMARY.match(line):
            continue
        mypy = _MYPY.match(line)
        if mypy is not None:
            if mypy["severity"] == "error":
                findings.append(Finding(mypy["file"], int(mypy["line"]), None, mypy["code"]))
            continue
        grep = _GREP.match(line)
        if grep is not None:
            findings.append(Finding(grep["file"], int(grep["line"]), grep["text"], None))
            continue
        unrecognized.append(line)
    return findings, unrecognized


def package_relative(file: str, scopes: dict[str, list[str]]) -> tuple[str, str] | None:
    """(corpus, package-relative path) of a reported path, or None outside every scope.
    The leftmost path component from which the rest is in a corpus scope wins."""
    parts = Path(file).as_posix().split("/")
    for start in range(len(parts)):
        candidate = "/".join(parts[start:])
        for corpus, scope in scopes.items():
            if in_scope(candidate, scope):
                return corpus, candidate
    return None


def line_text(finding: Finding, source_root: Path | None) -> str | None:
    """The stripped source line a finding points at, if the report or a readable file gives it."""
    if finding.text is not None:
        return finding.text.strip()
    candidates = [Path(finding.file)]
    if source_root is not None:
        candidates.insert(0, source_root / finding.file)
    for candidate in candidates:
        if candidate.is_file():
            lines = candidate.read_text(encoding="utf-8", errors="replace").splitlines()
            if 0 < finding.line <= len(lines):
                return lines[finding.line - 1].strip()
    return None


def match(file: str, line: int, text: str | None, entries: Sequence[Entry],
          tolerance: int) -> Entry | None:
    """The entry a finding at ``file:line`` (source ``text``) reports: the nearest one in
    the same file within ``tolerance`` lines, else the nearest with the same code text."""
    same_file = [entry for entry in entries if entry.file == file]
    near = [entry for entry in same_file if abs(entry.line - line) <= tolerance]
    if not near and text:
        near = [entry for entry in same_file if entry.code == text]
    return min(near, key=lambda entry: abs(entry.line - line), default=None)


def score(truth: GroundTruth, findings: Sequence[Finding], *, tolerance: int = 0,
          codes: Sequence[str] = (), source_root: Path | None = None,
          corpus: str | None = None) -> dict[str, CorpusScore]:
    """Per-corpus scores of ``findings``; ``codes`` (fnmatch patterns) keeps only mypy
    findings with a matching error code (grep findings have none and are kept).
    ``corpus`` scores that corpus alone, for corpora whose scopes overlap (two
    releases of one package)."""
    scopes = truth.scopes if corpus is None else {corpus: truth.scopes[corpus]}
    scores = {name: CorpusScore(name, real=[e for e in truth.real if e.corpus == name])
              for name in scopes}
    for finding in findings:
        if codes and finding.code is not None and not any(
                fnmatch.fnmatchcase(finding.code, pattern) for pattern in codes):
            continue
        if codes and finding.code is None and finding.text is None:
            continue  # a mypy error without a code cannot pass a code filter
        located = package_relative(finding.file, scopes)
        if located is None:
            continue
        name, file = located
        result = scores[name]
        result.reports += 1
        # A human fix's sites are at their lines in the one build it fixed: a report on
        # another line with the same text is another site.
        text = None if truth.bases.get(name) == HUMAN_FIX else line_text(finding, source_root)
        real = match(file, finding.line, text, result.real, tolerance)
        if real is not None:
            result.confirmed += 1
            result.found.add(real)
            continue
        others = [entry for entry in truth.not_bug if entry.corpus == name]
        judged = match(file, finding.line, text, others, tolerance)
        if judged is not None:
            result.judged_not_bug += 1
            result.not_in_fix += judged.verdict == NOT_IN_FIX
        else:
            result.unjudged.append((file, finding.line))
    return scores


# -- report --------------------------------------------------------------------


def render(scores: dict[str, CorpusScore]) -> str:
    lines = ["| corpus | reports | confirmed | judged not a bug | unjudged | real sites "
             "| found | recall | precision |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for result in scores.values():
        lines.append(
            f"| {result.corpus} | {result.reports} | {result.confirmed} | {result.judged_not_bug} "
            f"| {len(result.unjudged)} | {len(result.real)} | {len(result.found)} "
            f"| {result.recall:.2f} | {result.precision:.2f} |")
    for result in scores.values():
        kinds = sorted({entry.kind for entry in result.real})
        per_kind = ", ".join(
            f"{kind} {sum(1 for e in result.found if e.kind == kind)}/"
            f"{sum(1 for e in result.real if e.kind == kind)}" for kind in kinds)
        lines.append(f"\n{result.corpus}: found per kind: {per_kind or 'no real sites'}")
        typed = [entry for entry in result.real if entry.proxy_typed]
        if typed:
            lines.append(f"{result.corpus}: sites on values declared as a proxy base found: "
                         f"{sum(1 for e in typed if e in result.found)}/{len(typed)}")
        if result.not_in_fix:
            lines.append(f"{result.corpus}: {result.not_in_fix} reports are real by reading but "
                         f"left by the fix; precision counting them: "
                         f"{result.precision_with_not_in_fix:.2f}")
        missed = [entry for entry in result.real if entry not in result.found]
        if missed:
            lines.append(f"{result.corpus}: real sites not reported ({len(missed)}):")
            lines.extend(f"  {e.file}:{e.line} [{e.kind}] {e.code}  ({e.label})" for e in missed)
        if result.unjudged:
            lines.append(f"{result.corpus}: reports matching no ground-truth entry "
                         f"({len(result.unjudged)}):")
            lines.extend(f"  {file}:{line}" for file, line in result.unjudged)
    return "\n".join(lines) + "\n"


def read_findings(sources: Sequence[str]) -> tuple[list[Finding], list[str]]:
    findings: list[Finding] = []
    unrecognized: list[str] = []
    for source in sources:
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        except OSError as error:
            raise FindingsError(f"cannot read findings file {source}: {error.strerror}") from None
        found, skipped = parse_findings(text.splitlines())
        findings.extend(found)
        unrecognized.extend(skipped)
    return findings, unrecognized


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("findings", nargs="+", help="findings files, '-' for stdin")
    parser.add_argument("--ground-truth", type=Path, default=DEFAULT_GROUND_TRUTH)
    parser.add_argument("--tolerance", type=int, default=0, help="line distance that still matches")
    parser.add_argument("--codes", action="append", default=[], metavar="PATTERN",
                        help="keep only mypy errors whose code matches (fnmatch, repeatable), "
                             "e.g. 'proxy-*'")
    parser.add_argument("--corpus", help="score this corpus of the ground truth only "
                        "(for corpora whose scopes overlap)")
    parser.add_argument("--source-root", type=Path,
                        help="directory that relative finding paths are read from for code matching")
    options = parser.parse_args(argv)
    if options.tolerance < 0:
        print(f"score.py: error: --tolerance must be >= 0, got {options.tolerance}", file=sys.stderr)
        return 2
    try:
        truth = load_ground_truth(options.ground_truth)
        findings, unrecognized = read_findings(options.findings)
    except (GroundTruthError, FindingsError) as error:
        print(f"score.py: error: {error}", file=sys.stderr)
        return 2
    if options.corpus is not None and options.corpus not in truth.scopes:
        print(f"score.py: error: unknown corpus {options.corpus!r} (known: "
              f"{', '.join(sorted(truth.scopes))})", file=sys.stderr)
        return 2
    if unrecognized:
        print(f"score.py: {len(unrecognized)} input lines are not findings, e.g. "
              f"{unrecognized[0][:100]!r}", file=sys.stderr)
    print(render(score(truth, findings, tolerance=options.tolerance, codes=options.codes,
                       source_root=options.source_root, corpus=options.corpus)), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
