"""Issue #30's sweep: real corpora, three settings, no internal error, bounded cost, one output.

For each corpus and each setting (``default``, ``traced``, ``strict``) it runs
plain mypy (``--output json``) and ``python -m mypy_plugin check --format json``,
each under ``PYTHONHASHSEED`` 1 and 2, each from an empty cache and one after
the other (the CPU time of a child is read from ``os.wait4``).  A run fails when:

* mypy or ``check`` crashed, or ``check`` reported a ``proxy-internal`` finding
  other than a function too large to follow (``flow-too-large``: allowed, but
  listed);
* ``check`` took more than ``--limit`` (1.5) times plain mypy's CPU seconds
  under the same seed;
* the plugin's own part of the two JSON documents (its findings, its counts)
  differs in any byte;
* mypy's own errors in the two documents differ at a place (file, line, code)
  where plain mypy's errors under the same two seeds do not.  mypy's output
  depends on the hash seed in places (sympy); a difference plain mypy shows too
  is mypy's: listed, not a failure.

A corpus is ``NAME=PATH`` (the directory holding its top package, the targets
relative to it) or a known name (``sympy``, ``pandas/core``, ``mpmath``...)
found in ``--site-packages``.  It is copied into ``--workdir`` so that mypy
checks it as source, not as an installed package.  Settings: the ``check``
defaults of ``benchmarks/corpus.py`` (``CORPUS_SETTINGS``); ``traced`` adds
``traced_functions = <package>.*`` (every function of the corpus traced, the
heaviest flow analysis); ``strict`` adds ``strict_isinstance = true``.

    PYTHONPATH=. MYPYPATH=stubs nice -n 15 /tmp/sweep-venv/bin/python -m benchmarks.sweep \\
        --site-packages /tmp/sweep-venv/lib/python3.11/site-packages \\
        --corpus sympy --corpus pandas/core --settings traced

Prints one table row per run, mypy's own differences, then one line per
failure; exit status 1 if any run failed, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import DEFAULT_WORKDIR, format_ratio, note, ratio, render_table  # noqa: E402
from benchmarks.corpus import CORPUS_SETTINGS, with_plugin  # noqa: E402

SETTINGS = ("default", "traced", "strict")
HASH_SEEDS = ("1", "2")
#: The codes of the plugin's findings; every other finding of ``check`` is mypy's own.
PLUGIN_CODE_PREFIX = "proxy-"
#: ``check``'s count of mypy's own errors in its summary (mypy's part, not the plugin's).
MYPY_COUNT_KEY = "other mypy errors"
DEFAULT_LIMIT = 1.5
FLOW_TOO_LARGE = "flow-too-large"
INTERNAL_CODE = "proxy-internal"

#: The corpora of issue #30 by name: (package to copy, targets inside it).
KNOWN_CORPORA: dict[str, tuple[str, tuple[str, ...]]] = {
    "sympy": ("sympy", ("sympy",)),
    "pandas/core": ("pandas", ("pandas/core",)),
    "mpmath": ("mpmath", ("mpmath",)),
    "networkx": ("networkx", ("networkx",)),
    "numpy": ("numpy", ("numpy",)),
    "scipy.stats": ("scipy", ("scipy/stats",)),
    "jax": ("jax", ("jax",)),
    "transformers": ("transformers", ("transformers",)),
    "thunder": ("thunder", ("thunder",)),
}


@dataclass(frozen=True)
class CorpusSpec:
    """Where a corpus comes from: ``source/package`` is copied, ``targets`` are checked."""

    name: str
    source: Path  # the directory holding the package
    package: str
    targets: tuple[str, ...]


def parse_corpus(value: str, site_packages: Path | None) -> CorpusSpec:
    """``NAME=PATH`` or a known name; ValueError with a one-line message."""
    if "=" in value:
        name, _, raw_path = value.partition("=")
        path = Path(raw_path).expanduser()
        if not name or not raw_path:
            raise ValueError(f'--corpus "{value}": expected NAME=PATH')
        if not path.is_dir():
            raise ValueError(f'--corpus "{value}": {path} is not a directory')
        return CorpusSpec(name, path.resolve().parent, path.name, (path.name,))
    if value not in KNOWN_CORPORA:
        raise ValueError(f'--corpus "{value}": unknown (known: {", ".join(KNOWN_CORPORA)}; '
                         "or NAME=PATH)")
    if site_packages is None:
        raise ValueError(f'--corpus "{value}": needs --site-packages (where it is installed)')
    package, targets = KNOWN_CORPORA[value]
    if not (site_packages / package).is_dir():
        raise ValueError(f'--corpus "{value}": {site_packages / package} does not exist '
                         f"(pip install it into that environment)")
    return CorpusSpec(value, site_packages, package, targets)


def parse_settings(value: str) -> list[str]:
    """``default,traced,strict`` or part of it as a list; ValueError with one line."""
    names = [name.strip() for name in value.split(",") if name.strip()]
    if not names or any(name not in SETTINGS for name in names):
        raise ValueError(f'--settings: expected some of {",".join(SETTINGS)}, got "{value}"')
    return names


def config_text(setting: str, package: str, plugin: bool) -> str:
    """The mypy config of ``setting``; without the plugin its section is ignored by mypy."""
    section = {"default": "", "traced": f"traced_functions = {package}.*\n",
               "strict": "strict_isinstance = true\n"}[setting]
    text = CORPUS_SETTINGS + (f"\n[mypy.plugins.proxy_types]\n{section}" if section else "")
    return with_plugin(text) if plugin else text


@dataclass(frozen=True)
class Run:
    """One finished child: its exit status, output and CPU seconds (user + system)."""

    status: int
    stdout: str
    stderr: str
    cpu: float
    wall: float


def run_child(command: list[str], cwd: Path, environment: dict[str, str],
              timeout: float) -> Run:
    """Run ``command``; its CPU time from ``os.wait4``; killed (status -9) past ``timeout``."""
    started = time.monotonic()
    with open(cwd / ".sweep-stdout", "w+b") as out, open(cwd / ".sweep-stderr", "w+b") as err:
        process = subprocess.Popen(command, cwd=cwd, env=environment, stdout=out, stderr=err)
        deadline = started + timeout
        while True:
            pid, wait_status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                pid, wait_status, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.05)
        process.returncode = os.waitstatus_to_exitcode(wait_status)  # Popen must not wait again
        out.seek(0)
        err.seek(0)
        return Run(process.returncode, out.read().decode("utf-8", "replace"),
                   err.read().decode("utf-8", "replace"), usage.ru_utime + usage.ru_stime,
                   time.monotonic() - started)


@dataclass
class Outcome:
    """What one corpus under one setting gave, and what failed."""

    corpus: str
    setting: str
    #: Plain mypy's and check's CPU seconds, one per hash seed.
    mypy_cpu: list[float] = field(default_factory=list)
    check_cpu: list[float] = field(default_factory=list)
    findings: int = 0
    too_large: list[str] = field(default_factory=list)
    #: Places where mypy's own errors differ between the seeds in plain mypy too.
    mypy_differences: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def worst_ratio(self) -> float:
        return max((ratio(cpu, base) for cpu, base in zip(self.check_cpu, self.mypy_cpu)),
                   default=float("nan"))


def internal_findings(document: Mapping[str, object]) -> tuple[list[str], list[str]]:
    """``(internal errors, functions too large)`` of a ``check --format json`` document,
    each as ``file:line: message``."""
    errors: list[str] = []
    too_large: list[str] = []
    raw_findings = document.get("findings")
    for finding in raw_findings if isinstance(raw_findings, list) else []:
        if not isinstance(finding, dict) or finding.get("code") != INTERNAL_CODE:
            continue
        where = f'{finding.get("file")}:{finding.get("line")}: {finding.get("message")}'
        (too_large if finding.get("kind") == FLOW_TOO_LARGE else errors).append(where)
    return errors, too_large


def crash_line(run: Run) -> str | None:
    """Why a run counts as crashed (timeout, traceback, status other than 0/1/3), or None."""
    if run.status == -9:
        return "killed after the timeout"
    text = run.stdout + run.stderr
    if "INTERNAL ERROR" in text or "Traceback (most recent call last)" in text:
        lines = [line for line in text.splitlines() if line.strip()]
        return f"crashed: {lines[-1] if lines else 'no output'}"
    if run.status not in (0, 1, 3):  # 3: check's proxy-internal status, judged by findings
        lines = [line for line in text.splitlines() if line.strip()]
        return f"exited {run.status}: {lines[-1] if lines else 'no output'}"
    return None


def first_difference(first: str, second: str) -> str | None:
    """None when equal; else where the two texts first differ, as one line."""
    if first == second:
        return None
    first_lines, second_lines = first.splitlines(), second.splitlines()
    for number, (left, right) in enumerate(zip(first_lines, second_lines), 1):
        if left != right:
            return f"line {number}: {left.strip()[:120]!r} != {right.strip()[:120]!r}"
    shorter = min(len(first_lines), len(second_lines))
    return f"line {shorter + 1}: one output has {len(first_lines)} lines, the other " \
           f"{len(second_lines)}"


def check_limits(outcome: Outcome, limit: float) -> None:
    """Add a failure for every check run over ``limit`` times plain mypy under its seed."""
    for seed, cpu, base in zip(HASH_SEEDS, outcome.check_cpu, outcome.mypy_cpu):
        value = ratio(cpu, base)
        if not value <= limit:  # NaN (mypy took no time) fails too
            outcome.failures.append(
                f"check took {format_ratio(value)} plain mypy's CPU (seed {seed}: {cpu:.1f} s "
                f"against {base:.1f} s; limit {limit}x)")


Place = tuple[str, int, str]  # file, line, code of one of mypy's own errors


def _is_plugin_finding(finding: object) -> bool:
    return isinstance(finding, dict) and str(finding.get("code") or "").startswith(
        PLUGIN_CODE_PREFIX)


def plugin_part(document: Mapping[str, object]) -> str:
    """The plugin's own part of a ``check`` JSON document, as text to compare byte for
    byte: every key but mypy's own findings and their count."""
    part = dict(document)
    raw_findings = document.get("findings")
    part["findings"] = [finding for finding in raw_findings if _is_plugin_finding(finding)] \
        if isinstance(raw_findings, list) else raw_findings
    summary = document.get("summary")
    if isinstance(summary, dict):
        part["summary"] = {key: value for key, value in summary.items() if key != MYPY_COUNT_KEY}
    return json.dumps(part, indent=2)


def _place_and_text(finding: object) -> tuple[Place, str] | None:
    if not isinstance(finding, dict) or _is_plugin_finding(finding):
        return None
    line = finding.get("line")
    place = (str(finding.get("file")), line if isinstance(line, int) else -1,
             str(finding.get("code")))
    return place, json.dumps([finding.get("severity"), finding.get("message"),
                              finding.get("hint")])


def mypy_errors_of_check(document: Mapping[str, object]) -> list[tuple[Place, str]]:
    """mypy's own findings in a ``check`` JSON document: (place, what it says)."""
    raw_findings = document.get("findings")
    found = map(_place_and_text, raw_findings if isinstance(raw_findings, list) else [])
    return [entry for entry in found if entry is not None]


def mypy_errors_of_plain(output: str) -> list[tuple[Place, str]]:
    """Plain mypy's findings from its ``--output json`` (one object a line)."""
    found = []
    for line in output.splitlines():
        if not line.startswith("{"):
            continue  # not a finding ("Success", a crash's text: judged by crash_line)
        try:
            entry = _place_and_text(json.loads(line))
        except json.JSONDecodeError:
            continue
        if entry is not None:
            found.append(entry)
    return found


def differing_places(first: list[tuple[Place, str]],
                     second: list[tuple[Place, str]]) -> set[Place]:
    """The places whose findings (each with what it says, counted) differ between the two."""
    first_counts, second_counts = Counter(first), Counter(second)
    return {place for place, _ in (first_counts - second_counts)} | \
        {place for place, _ in (second_counts - first_counts)}


def compare_seeds(checked: Sequence[Mapping[str, object]],
                  plain: Sequence[list[tuple[Place, str]]]) -> tuple[list[str], list[str]]:
    """``(failures, mypy's own differences)`` between the two seeds' documents.

    The plugin's part must be byte-identical.  mypy's own errors may differ only
    where plain mypy's errors under the same two seeds differ too (a place is
    file, line and code: the message itself is what may change).
    """
    failures: list[str] = []
    first, second = checked
    if (difference := first_difference(plugin_part(first), plugin_part(second))) is not None:
        failures.append("the plugin's findings differ between PYTHONHASHSEED=1 and 2: "
                        f"{difference}")
    in_check = differing_places(mypy_errors_of_check(first), mypy_errors_of_check(second))
    in_plain = differing_places(*plain)
    listed = [f"{file}:{line} [{code}]" for file, line, code in sorted(in_check & in_plain)]
    failures.extend(
        f"mypy's errors at {file}:{line} [{code}] differ between PYTHONHASHSEED=1 and 2 "
        "in check but not in plain mypy" for file, line, code in sorted(in_check - in_plain))
    return failures, listed


def sweep_one(spec: CorpusSpec, setting: str, workdir: Path, python: str, limit: float,
              timeout: float, keep_json: Path | None = None) -> Outcome:
    """Run plain mypy and check twice on ``spec`` under ``setting``."""
    outcome = Outcome(spec.name, setting)
    directory = workdir / spec.name.replace("/", "-")
    if not (directory / spec.package).is_dir():
        note(f"copying {spec.source / spec.package} ...")
        shutil.copytree(spec.source / spec.package, directory / spec.package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc"))
    (directory / "plain.ini").write_text(config_text(setting, spec.package, False), "utf-8")
    (directory / "plugin.ini").write_text(config_text(setting, spec.package, True), "utf-8")
    cache = directory / "cache"  # one path for every run, emptied before each
    base_environment = {key: value for key, value in os.environ.items()
                        if key != "PYTHONHASHSEED"}
    safe_path = ["-P"] if sys.version_info >= (3, 11) else []

    def run(command: list[str], seed: str, label: str) -> Run:
        shutil.rmtree(cache, ignore_errors=True)
        note(f"  {spec.name} {setting}: {label} ...")
        result = run_child([python, *safe_path, *command], directory,
                           dict(base_environment, PYTHONHASHSEED=seed), timeout)
        note(f"    {result.cpu:.1f} s CPU, status {result.status}")
        return result

    plain_errors = []
    documents: list[Mapping[str, object]] = []
    for seed in HASH_SEEDS:
        plain = run(["-m", "mypy", "--config-file", "plain.ini", "--cache-dir", "cache",
                     "--output", "json", *spec.targets], seed,
                    f"plain mypy, PYTHONHASHSEED={seed}")
        outcome.mypy_cpu.append(plain.cpu)
        plain_errors.append(mypy_errors_of_plain(plain.stdout))
        if (problem := crash_line(plain)) is not None:
            outcome.failures.append(f"plain mypy (seed {seed}) {problem}")
        result = run(["-m", "mypy_plugin", "check", "--format", "json", "--config",
                      "plugin.ini", "--cache-dir", "cache", *spec.targets], seed,
                     f"check, PYTHONHASHSEED={seed}")
        outcome.check_cpu.append(result.cpu)
        if keep_json is not None:  # to compare one code's findings with another's
            name = f"{spec.name.replace('/', '-')}-{setting}-seed{seed}.json"
            (keep_json / name).write_text(result.stdout, "utf-8")
        if (problem := crash_line(result)) is not None:
            outcome.failures.append(f"check (seed {seed}) {problem}")
            continue
        try:
            document = json.loads(result.stdout)
        except json.JSONDecodeError:
            outcome.failures.append(f"check (seed {seed}) printed no JSON document")
            continue
        if not isinstance(document, dict):
            outcome.failures.append(f"check (seed {seed}) printed no JSON object")
            continue
        documents.append(document)
        errors, too_large = internal_findings(document)
        outcome.failures.extend(f"internal error (seed {seed}): {error}" for error in errors)
        if seed == HASH_SEEDS[0]:
            outcome.too_large = too_large
            raw_findings = document.get("findings")
            outcome.findings = len(raw_findings) if isinstance(raw_findings, list) else 0
    if len(documents) == len(HASH_SEEDS):
        failures, outcome.mypy_differences = compare_seeds(documents, plain_errors)
        outcome.failures.extend(failures)
    check_limits(outcome, limit)
    return outcome


def table(outcomes: Sequence[Outcome]) -> str:
    rows = [[o.corpus, o.setting, " / ".join(f"{cpu:.1f}" for cpu in o.mypy_cpu),
             " / ".join(f"{cpu:.1f}" for cpu in o.check_cpu), format_ratio(o.worst_ratio()),
             str(o.findings), str(len(o.too_large)), str(len(o.mypy_differences)),
             "ok" if not o.failures else "FAIL"]
            for o in outcomes]
    return render_table("sweep (CPU seconds)", ["corpus", "setting", "mypy (seed 1 / 2)",
                                                "check (seed 1 / 2)", "worst ratio", "findings",
                                                "too large", "mypy's", "verdict"], rows)


def failure_lines(outcomes: Sequence[Outcome]) -> list[str]:
    """One line per failure, naming corpus and setting."""
    return [f"FAIL {o.corpus} [{o.setting}]: {failure}" for o in outcomes for failure in o.failures]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sweep",
                                     description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--corpus", action="append", required=True,
                        help="a known name or NAME=PATH (repeat for several)")
    parser.add_argument("--settings", default=",".join(SETTINGS),
                        help="default, traced, strict or a comma list (default: all three)")
    parser.add_argument("--site-packages", type=Path, help="where the named corpora are installed")
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR / "sweep")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python with mypy that runs both commands (default: this one)")
    parser.add_argument("--limit", type=float, default=DEFAULT_LIMIT,
                        help="largest check / mypy CPU ratio (default: 1.5)")
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="seconds before a run is killed and counted as a hang")
    parser.add_argument("--keep-json", type=Path,
                        help="a directory to keep check's JSON in, one file per corpus, "
                             "setting and seed")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        settings = parse_settings(arguments.settings)
        specs = [parse_corpus(value, arguments.site_packages) for value in arguments.corpus]
    except ValueError as error:
        parser.error(str(error))
    workdir = arguments.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    if arguments.keep_json is not None:
        arguments.keep_json.mkdir(parents=True, exist_ok=True)
    outcomes = []
    for spec in specs:
        for setting in settings:
            outcome = sweep_one(spec, setting, workdir, arguments.python, arguments.limit,
                                arguments.timeout, arguments.keep_json)
            outcomes.append(outcome)
            for where in outcome.too_large:
                print(f"too large ({spec.name} [{setting}]): {where}", flush=True)
            for where in outcome.mypy_differences:
                print(f"mypy's own ({spec.name} [{setting}]): differs by seed in plain mypy "
                      f"too: {where}", flush=True)
    print(table(outcomes))
    failures = failure_lines(outcomes)
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
