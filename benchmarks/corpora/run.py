"""mypy with and without the proxy-types plugin on real codebases.

    python benchmarks/corpora/run.py [--only NAME ...] [--scratch DIR] [--output FILE]

Downloads what it needs into the scratch folder (default ``scratch/corpora``):
lightning-thunder wheels come from PyPI through ``pip download --no-deps``; the
torch corpus is a mirror of the installed torch's sources (symbolic links, without
``nn/functional.pyi``, so that mypy checks ``nn/functional.py`` itself).
Every corpus is checked twice with a cold cache, the same options each time, once
without and once with the plugin.  The script asserts that mypy never crashed,
prints Markdown tables (costs and findings; recall and precision of the plugin and
of PyTorch's ERROR_PRONE_ISINSTANCE regex against ``ground_truth.toml``) and
writes them to ``--output`` (default ``<scratch>/results.md``); each run's full
output lands in ``<scratch>/<name>/``, the errors only the plugin run has in
``<scratch>/<name>/new-errors.txt`` and the scorer's details in ``score.txt``.
Exit code 1 if mypy crashed on a corpus, 2 on bad arguments or a failed download.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DEFAULT_SCRATCH = REPO / "scratch" / "corpora"
sys.path.insert(0, str(HERE))

import error_prone_isinstance  # noqa: E402
import score  # noqa: E402
from torch_settings import TORCH_MODULES, TORCH_TRACED, mirror_torch_sources  # noqa: E402

#: Options shared by every corpus: what a user adopting the plugin would write.
#: check_untyped_defs matters: mypy runs no plugin hook in unchecked functions.
BASE_OPTIONS = """\
[mypy]
python_version = 3.11
check_untyped_defs = True
ignore_missing_imports = True
follow_imports = silent
warn_unused_ignores = False
enable_error_code = truthy-bool
"""

_ENABLED_CODES = "enable_error_code = truthy-bool"
#: The plugin's codes that are off by default: a corpus run shows every finding.
PLUGIN_CODES_OFF_BY_DEFAULT = "proxy-specialize"

_ERROR = re.compile(r"^(?P<where>[^:\s][^:]*:\d+): error: (?P<message>.*?)(  \[(?P<code>[a-z-]+)\])?$")


class CorpusError(Exception):
    """A corpus could not be prepared (download or unpacking failed)."""


@dataclass(frozen=True)
class Corpus:
    """One codebase: how to fetch it, what to check, and the plugin settings."""

    name: str
    description: str
    packages: tuple[str, ...]  # mypy -p targets
    plugin_settings: str  # the [mypy.plugins.proxy_types] section body
    extra_options: str = ""  # more [mypy] options
    thunder_version: str | None = None  # fetched from PyPI when set
    wheel: str | None = None  # another package's wheel from PyPI ("name==version")
    ground_truth: str | None = None  # its corpus in ground_truth.toml, to score it
    torch_mirror: bool = False  # checked in a mirror of the installed torch
    #: The error codes scored against the ground truth (fnmatch patterns).
    scored_codes: tuple[str, ...] = ("proxy-*",)

    def source_dir(self, scratch: Path) -> Path:
        """Where mypy runs: the directory holding the package (thunder, or a torch mirror)."""
        return scratch / self.name / "src"


#: The recommended migration settings for thunder (docs/migration.md): its tests check
#: the numbers they build, which no proxy reaches, so they are exempt.
THUNDER_MIGRATE = """\
migrate_classes = thunder.core.proxies.NumberProxy
isinstance_functions = thunder.core.baseutils.check_type
strict_isinstance = true
exempt_modules = proxy_types, proxy_types.*, thunder.tests.*
"""

THUNDER_DECLARED = """\
dynamic_number_classes = thunder.core.proxies.NumberProxy
isinstance_functions = thunder.core.baseutils.check_type
"""

#: The recommended settings for thunder (docs/plugin.md): its operators (thunder.torch,
#: thunder.clang) and the meta functions of its primitives run on NumberProxy arguments
#: under symbolic values; the prologue's check and unpack primitives get the values
#: recorded while tracing, and implementations and number helpers get plain numbers.
#: get_numberlike_value is how operator code reads a NumberProxy's value.
THUNDER_TRACED = THUNDER_DECLARED + """\
traced_functions = thunder.torch.*, thunder.clang.*, thunder.core.prims.*meta,
    !thunder.core.prims._check_*, !thunder.core.prims.*unpack_*
static_parameters = dim, dims, *_dim, *_dims, ndim, rank
concretizing_functions = thunder.core.utils.get_numberlike_value
"""

#: The codes that report a check or an operation at a site, without proxy-base (the class
#: definitions: the flip itself) and proxy-config (one per module importing torch, which
#: a corpus checked without site-packages cannot find).
SITE_CODES = ("proxy-isinstance", "proxy-concretize", "proxy-specialize", "proxy-cast")

# thunder's dependencies (torch, lightning_utilities, ...) are not installed for
# it: without site-packages every import of them is Any, which keeps the run at
# seconds and leaves exactly thunder's own number handling to check.
THUNDER_OPTIONS = "no_site_packages = True\n"

CORPORA: tuple[Corpus, ...] = (
    Corpus("thunder-0.1.0", "lightning-thunder 0.1.0 (legacy proxies subclass int/float/complex)",
           ("thunder",), THUNDER_MIGRATE, THUNDER_OPTIONS, thunder_version="0.1.0"),
    Corpus("thunder-flip-migrate", "lightning-thunder 0.2.0.dev20240513, the last build with "
           "legacy number bases, migration mode; scored against the human fix (dev20240519)",
           ("thunder",), THUNDER_MIGRATE, THUNDER_OPTIONS, thunder_version="0.2.0.dev20240513",
           ground_truth="thunder-flip", scored_codes=SITE_CODES),
    Corpus("thunder-0.2.6", "lightning-thunder 0.2.6, recommended settings (traced operators)",
           ("thunder",), THUNDER_TRACED, THUNDER_OPTIONS, thunder_version="0.2.6",
           ground_truth="thunder", scored_codes=SITE_CODES),
    Corpus("thunder-0.2.6-declared", "lightning-thunder 0.2.6, declared types only",
           ("thunder",), THUNDER_DECLARED, THUNDER_OPTIONS, thunder_version="0.2.6",
           ground_truth="thunder", scored_codes=SITE_CODES),
    Corpus("torch-2.13", "installed torch: nn/functional, nn/modules, _decomp, _refs, "
           "_meta_registrations, _prims_common; recommended settings (traced library code)",
           TORCH_MODULES, TORCH_TRACED, ground_truth="torch", torch_mirror=True),
    Corpus("torch-2.13-shapes", "the same torch modules, symbolic_shapes only (torch.compile "
           "users' settings)", TORCH_MODULES, "symbolic_shapes = true\n", ground_truth="torch",
           torch_mirror=True),
    Corpus("torch-2.13-declared", "the same torch modules, declared types only",
           TORCH_MODULES, "", ground_truth="torch", torch_mirror=True),
    Corpus("torchvision-0.28-models", "torchvision 0.28.0 models (user code of torch), "
           "symbolic_shapes only", ("torchvision.models",), "symbolic_shapes = true\n",
           wheel="torchvision==0.28.0"),
)


@dataclass
class RunResult:
    """One mypy run: wall and CPU time, error counts per code, and whether mypy crashed."""

    seconds: float
    cpu_seconds: float  # of mypy's process: steadier than wall time on a shared machine
    codes: collections.Counter[str]
    errors: list[str]
    crashed: bool
    files: int


# -- preparing corpora ---------------------------------------------------------


def prepare(corpus: Corpus, scratch: Path) -> Path:
    """Fetch the corpus if needed; the directory mypy runs in."""
    source = corpus.source_dir(scratch)
    source.mkdir(parents=True, exist_ok=True)
    wheel_of = corpus.wheel or (f"lightning-thunder=={corpus.thunder_version}"
                                if corpus.thunder_version is not None else None)
    package = corpus.packages[0].partition(".")[0]
    if wheel_of is not None and not (source / package).is_dir():
        wheel = download_wheel(wheel_of, scratch / "downloads")
        with zipfile.ZipFile(wheel) as archive:
            members = [m for m in archive.namelist() if m.startswith(f"{package}/")
                       and m.endswith((".py", ".pyi"))]
            archive.extractall(source, members)
    if corpus.torch_mirror:
        mirror_torch(source)
    return source


def installed_torch() -> Path:
    """The directory of the installed torch package."""
    spec = importlib.util.find_spec("torch")
    if spec is None or spec.origin is None:
        raise CorpusError("torch is not installed in this Python environment")
    return Path(spec.origin).resolve().parent


def mirror_torch(destination: Path) -> None:
    """A mirror of the installed torch's sources under ``destination/torch`` (torch_settings)."""
    mirror_torch_sources(installed_torch(), destination)


def download_wheel(requirement: str, downloads: Path) -> Path:
    """The wheel of ``requirement`` (``name==version``), downloaded from PyPI once."""
    name, _, version = requirement.partition("==")
    pattern = f"{name.replace('-', '_')}-{version}-*.whl"
    found = sorted(downloads.glob(pattern))
    if not found:
        downloads.mkdir(parents=True, exist_ok=True)
        result = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", requirement,
             "-d", str(downloads)],
            capture_output=True, text=True, check=False)
        found = sorted(downloads.glob(pattern))
        if result.returncode != 0 or not found:
            last = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
            raise CorpusError(f"pip download {requirement} failed: {last}")
    return found[0]


def write_configs(corpus: Corpus, directory: Path) -> tuple[Path, Path]:
    """(baseline, plugin) mypy configuration files: identical but for the plugin."""
    baseline = BASE_OPTIONS + corpus.extra_options
    with_plugin = (baseline.replace("[mypy]\n", "[mypy]\nplugins = mypy_plugin\n", 1)
                   .replace(_ENABLED_CODES, f"{_ENABLED_CODES}, {PLUGIN_CODES_OFF_BY_DEFAULT}", 1)
                   + "\n[mypy.plugins.proxy_types]\n" + corpus.plugin_settings)
    baseline_file, plugin_file = directory / "baseline.ini", directory / "plugin.ini"
    baseline_file.write_text(baseline)
    plugin_file.write_text(with_plugin)
    return baseline_file, plugin_file


# -- running mypy --------------------------------------------------------------


def run_mypy(corpus: Corpus, config: Path, cwd: Path, cache: Path, log: Path) -> RunResult:
    """One cold-cache mypy run; its output is kept in ``log``."""
    shutil.rmtree(cache, ignore_errors=True)
    command = [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
               str(cache), "--show-traceback"]
    for package in corpus.packages:
        command += ["-p", package]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}
    cpu_before = _children_cpu_seconds()
    start = time.perf_counter()
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                            env=environment, check=False)
    seconds = time.perf_counter() - start
    cpu_seconds = _children_cpu_seconds() - cpu_before
    output = result.stdout + result.stderr
    log.write_text(output)
    errors: list[str] = []
    codes: collections.Counter[str] = collections.Counter()
    for line in result.stdout.splitlines():
        match = _ERROR.match(line)
        if match is not None:
            errors.append(line)
            codes[match["code"] or "(none)"] += 1
    crashed = ("INTERNAL ERROR" in output or "Traceback" in output
               or result.returncode not in (0, 1))
    checked = re.search(r"(?:checked|found in) (\d+) source files?", result.stdout)
    return RunResult(seconds, cpu_seconds, codes, errors, crashed,
                     int(checked[1]) if checked else 0)


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def check_corpus(corpus: Corpus, scratch: Path) -> tuple[RunResult, RunResult]:
    """Baseline and plugin runs of one corpus; its score in ``score.txt`` when it has
    a ground truth."""
    source = prepare(corpus, scratch)
    directory = source.parent
    baseline_config, plugin_config = write_configs(corpus, directory)
    baseline = run_mypy(corpus, baseline_config, source, directory / "cache-baseline",
                        directory / "mypy-baseline.txt")
    plugin = run_mypy(corpus, plugin_config, source, directory / "cache-plugin",
                      directory / "mypy-plugin.txt")
    baseline_lines = set(baseline.errors)
    new = [line for line in plugin.errors if line not in baseline_lines]
    (directory / "new-errors.txt").write_text("".join(line + "\n" for line in new))
    if corpus.ground_truth is not None:
        (directory / "score.txt").write_text(
            score.render({corpus.ground_truth: score_run(corpus, plugin, source)}))
    return baseline, plugin


# -- scoring against the ground truth -------------------------------------------


def score_run(corpus: Corpus, plugin: RunResult, source: Path) -> score.CorpusScore:
    """The plugin's findings (proxy-* codes) scored against ``ground_truth.toml``."""
    assert corpus.ground_truth is not None
    truth = score.load_ground_truth(score.DEFAULT_GROUND_TRUTH)
    findings, _ = score.parse_findings(plugin.errors)
    return score.score(truth, findings, codes=list(corpus.scored_codes), source_root=source,
                       corpus=corpus.ground_truth)[corpus.ground_truth]


def score_regex(corpus: Corpus, source: Path,
                pattern: re.Pattern[str] = error_prone_isinstance.PATTERN) -> score.CorpusScore:
    """A grep baseline (PyTorch's ERROR_PRONE_ISINSTANCE regex unless ``pattern`` is
    given) scored on the same files."""
    assert corpus.ground_truth is not None
    truth = score.load_ground_truth(score.DEFAULT_GROUND_TRUTH)
    lines = []
    for path in error_prone_isinstance.corpus_files(source, truth.scopes[corpus.ground_truth]):
        relative = path.relative_to(source).as_posix()
        lines += [f"{relative}:{number}:{text}"
                  for number, text in error_prone_isinstance.flagged_lines(path, pattern)]
    findings, _ = score.parse_findings(lines)
    return score.score(truth, findings, corpus=corpus.ground_truth)[corpus.ground_truth]


def score_table(
    rows: list[tuple[Corpus, score.CorpusScore, score.CorpusScore, score.CorpusScore]]
) -> str:
    """Recall and precision of each scored corpus, and of the two regexes on its files."""
    lines = [
        "| corpus | reports | confirmed | judged not a bug (of them real, not in the fix) "
        "| unjudged | real sites found | recall | precision | ERROR_PRONE_ISINSTANCE recall / "
        "precision | number-check grep recall / precision |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for corpus, plugin, regex, grep in rows:
        lines.append(
            f"| {corpus.name} | {plugin.reports} | {plugin.confirmed} | {plugin.judged_not_bug} "
            f"({plugin.not_in_fix}) | {len(plugin.unjudged)} "
            f"| {len(plugin.found)} of {len(plugin.real)} "
            f"| {plugin.recall:.2f} | {plugin.precision:.2f} "
            f"| {regex.recall:.2f} / {regex.precision:.2f} ({regex.reports} reports) "
            f"| {grep.recall:.2f} / {grep.precision:.2f} ({grep.reports} reports) |")
    return "\n".join(lines) + "\n"


# -- reporting -----------------------------------------------------------------


def table(rows: list[tuple[Corpus, RunResult, RunResult]]) -> str:
    """The Markdown results table."""
    lines = [
        "| corpus | files | mypy wall / CPU (s) | mypy + plugin wall / CPU (s) | CPU ratio "
        "| crashed | plugin findings | other codes that changed (baseline -> plugin) |",
        "| --- | ---: | ---: | ---: | ---: | --- | --- | --- |",
    ]
    for corpus, baseline, plugin in rows:
        findings = ", ".join(f"{code} {count}" for code, count in sorted(plugin.codes.items())
                             if code.startswith("proxy-")) or "none"
        changed = [f"{code} {baseline.codes[code]} -> {plugin.codes[code]}"
                   for code in sorted(set(baseline.codes) | set(plugin.codes))
                   if not code.startswith("proxy-") and baseline.codes[code] != plugin.codes[code]]
        crashed = "yes" if baseline.crashed or plugin.crashed else "no"
        lines.append(
            f"| {corpus.name} | {plugin.files} "
            f"| {baseline.seconds:.1f} / {baseline.cpu_seconds:.1f} "
            f"| {plugin.seconds:.1f} / {plugin.cpu_seconds:.1f} "
            f"| {plugin.cpu_seconds / max(baseline.cpu_seconds, 0.001):.2f} | {crashed} | {findings} "
            f"| {', '.join(changed) or 'none'} |")
    return "\n".join(lines) + "\n"


class _OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"run.py: error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit code."""
    names = [corpus.name for corpus in CORPORA]
    parser = _OneLineParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", action="append", choices=names, metavar="NAME",
                        help=f"check only this corpus (repeatable): {', '.join(names)}")
    parser.add_argument("--scratch", type=Path, default=DEFAULT_SCRATCH,
                        help="where downloads, caches and logs go (default: scratch/corpora)")
    parser.add_argument("--output", type=Path, help="results file (default: SCRATCH/results.md)")
    options = parser.parse_args(argv)
    scratch: Path = options.scratch.resolve()
    output: Path = options.output or scratch / "results.md"
    selected = [corpus for corpus in CORPORA if not options.only or corpus.name in options.only]
    rows: list[tuple[Corpus, RunResult, RunResult]] = []
    started = time.perf_counter()
    for corpus in selected:
        print(f"checking {corpus.name}: {corpus.description}", file=sys.stderr, flush=True)
        try:
            baseline, plugin = check_corpus(corpus, scratch)
        except CorpusError as error:
            print(f"run.py: error: {corpus.name}: {error}", file=sys.stderr)
            return 2
        rows.append((corpus, baseline, plugin))
    report = table(rows)
    scored = [(corpus, score_run(corpus, plugin, corpus.source_dir(scratch)),
               score_regex(corpus, corpus.source_dir(scratch)),
               score_regex(corpus, corpus.source_dir(scratch),
                           error_prone_isinstance.NUMBER_CHECK_PATTERN))
              for corpus, _, plugin in rows if corpus.ground_truth is not None]
    if scored:
        report += "\n" + score_table(scored)
    report += f"\nTotal wall time: {time.perf_counter() - started:.0f} s.\n"
    print(report)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(report)
    crashed = [corpus.name for corpus, baseline, plugin in rows
               if baseline.crashed or plugin.crashed]
    if crashed:
        print(f"run.py: error: mypy crashed on {', '.join(crashed)} (see the logs in "
              f"{scratch})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
