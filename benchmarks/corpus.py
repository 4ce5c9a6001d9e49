"""The real code the plugin benchmarks type-check, fetched and prepared on demand.

Corpora:

* ``project``: a snapshot of this repository, with its own ``mypy.ini``.
* ``torch-refs``: the installed torch's ``torch/_refs`` and ``torch/_prims_common``
  copied into the work directory (they are full of SymInt arithmetic).
* ``thunder-<version>``: lightning-thunder's ``thunder`` package, from the wheel
  that ``pip download --no-deps`` fetches from PyPI.
* ``torch-traced``: the torch module set of ``corpora/ground_truth.toml``
  (``nn/functional``, ``nn/modules``, ``_decomp``, ``_refs``, ``_meta_registrations``,
  ``_prims_common``) in a mirror of the installed torch, with the recommended
  settings for torch library code (``traced_functions``, ``symbolic_shapes``...).
* ``quick``: the torch-free ``examples/`` with the stubs (tiny): the smoke run.
* ``examples``: every example of ``examples/`` with its ``mypy.ini`` (torch ones too).

Every corpus except ``project`` uses the settings ``proxy-types check`` uses
(``mypy_plugin/default.ini``) minus the plugins line; thunder adds its
``NumberProxy`` to ``dynamic_number_classes`` and torch-traced the settings of
``corpora/torch_settings.py`` (sections only the plugin reads).  The plugin may
cost a corpus at most ``cold_limit``/``warm_limit`` times mypy's instructions:
1.02 with the default settings, cold and warm ("today's overhead (<= 2%
instructions)"), 1.05 with the traced ones (issue #13).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .common import ROOT, BenchmarkError, note
from .corpora.torch_settings import TORCH_MODULES, TORCH_TRACED, mirror_torch_sources

THUNDER_VERSION = "0.2.6"
PLUGINS_LINE = "plugins = mypy_plugin"

#: The ``proxy-types check`` defaults without the plugin (the baseline settings).
CORPUS_SETTINGS = """\
[mypy]
enable_error_code = truthy-bool
check_untyped_defs = True
ignore_missing_imports = True
follow_imports = silent
warn_unused_ignores = False
"""

THUNDER_PLUGIN_SETTINGS = """
[mypy.plugins.proxy_types]
dynamic_number_classes = thunder.core.proxies.NumberProxy
"""


@dataclass(frozen=True)
class Corpus:
    """Code to type-check: mypy runs in ``directory`` on ``targets`` with ``settings``."""

    name: str
    directory: Path
    targets: tuple[str, ...]  # empty: the ``files`` of the settings
    settings: str  # an ini [mypy] configuration without a plugins line
    cold_limit: float = 1.02  # largest acceptable ratio with/without the plugin, cold cache
    warm_limit: float = 1.02  # the same, warm cache

    def ratio_limit(self, mode: str) -> float:
        """The largest acceptable ratio with/without the plugin in cache ``mode``."""
        return self.cold_limit if mode == "cold" else self.warm_limit

    def python_lines(self) -> int:
        """Lines of Python in the targets (the corpus size shown in the tables)."""
        targets = self.targets or _configured_files(self.settings)
        total = 0
        for target in targets:
            path = self.directory / target
            files = [path] if path.is_file() else [*path.rglob("*.py"), *path.rglob("*.pyi")]
            total += sum(len(file.read_bytes().splitlines()) for file in files)
        return total


def _configured_files(settings: str) -> tuple[str, ...]:
    for line in settings.splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "files":
            return tuple(part.strip() for part in value.split(",") if part.strip())
    return ()


def with_plugin(settings: str) -> str:
    """The same settings with ``plugins = mypy_plugin`` as the first [mypy] option."""
    if "[mypy]" not in settings:
        raise BenchmarkError("corpus settings have no [mypy] section")
    if any(line.strip().startswith("plugins") for line in settings.splitlines()):
        raise BenchmarkError("corpus settings already name plugins; the baseline must have none")
    return settings.replace("[mypy]", f"[mypy]\n{PLUGINS_LINE}", 1)


#: What the project corpus copies: mypy.ini's ``files`` plus the runtime they import.
PROJECT_PARTS = ("mypy.ini", "mypy_plugin", "tests", "stubs", "proxy_types")


def project_corpus(workdir: Path) -> Corpus:
    """A snapshot of this repository, checked with its own mypy.ini.

    A copy, so edits made while the benchmark runs cannot trigger rechecks in
    only some of the warm runs.
    """
    target = workdir / "corpora" / "project"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    skip = shutil.ignore_patterns("__pycache__", ".mypy_cache", ".hypothesis", ".pytest_cache")
    for part in PROJECT_PARTS:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=skip)
        else:
            shutil.copy2(source, target / part)
    settings = (target / "mypy.ini").read_text(encoding="utf-8")
    return Corpus("project", target, (), settings)


def quick_corpus(workdir: Path) -> Corpus:
    """The torch-free examples plus the stubs: tiny, and the plugin has errors to report."""
    target = workdir / "corpora" / "quick"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(ROOT / "stubs", target / "stubs",
                    ignore=shutil.ignore_patterns("__pycache__"))
    examples = sorted(path for path in (ROOT / "examples").glob("*.py")
                      if "torch" not in path.read_text(encoding="utf-8"))
    if not examples:
        raise BenchmarkError("quick corpus: no torch-free example in examples/")
    for example in examples:
        shutil.copy2(example, target / example.name)
    settings = CORPUS_SETTINGS + "mypy_path = stubs\n"
    return Corpus("quick (examples)", target, tuple(path.name for path in examples), settings)


def examples_corpus(workdir: Path) -> Corpus:
    """Every example of ``examples/`` (torch ones included) with its own settings."""
    target = workdir / "corpora" / "examples"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(ROOT / "stubs", target / "stubs",
                    ignore=shutil.ignore_patterns("__pycache__"))
    examples = sorted((ROOT / "examples").glob("*.py"))
    # A plugin code in an inline "# mypy:" comment stops mypy without the plugin
    # (KeyError): the plugin's section turns it on instead, for every file.
    for example in examples:
        lines = example.read_text(encoding="utf-8").splitlines(keepends=True)
        (target / example.name).write_text(
            "".join(line for line in lines if not line.startswith(INLINE_PLUGIN_CODES)),
            encoding="utf-8")
    settings = "".join(
        line for line in (ROOT / "examples" / "mypy.ini").read_text(encoding="utf-8")
        .splitlines(keepends=True)
        if not line.startswith(("plugins", "mypy_path", "#"))) + "mypy_path = stubs\n"
    settings += "\n[mypy.plugins.proxy_types]\nenable_error_code = proxy-specialize\n"
    return Corpus("examples", target, tuple(path.name for path in examples), settings)


INLINE_PLUGIN_CODES = ("# mypy: enable-error-code=\"proxy-", "# mypy: disable-error-code=\"proxy-")


def installed_torch() -> Path:
    """The directory of the installed torch package."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise BenchmarkError("torch corpora: torch is not installed")
    return Path(list(spec.submodule_search_locations)[0])


def torch_refs_corpus(workdir: Path) -> Corpus:
    """torch/_refs and torch/_prims_common of the installed torch, copied into ``workdir``."""
    torch_dir = installed_torch()
    target = workdir / "corpora" / "torch-refs"
    packages = ("_refs", "_prims_common")
    for package in packages:
        if not (target / package).is_dir():
            shutil.copytree(torch_dir / package, target / package,
                            ignore=shutil.ignore_patterns("__pycache__"))
    return Corpus("torch-refs", target, packages, CORPUS_SETTINGS)


#: What the traced settings may cost (issue #13): more than the defaults, which
#: look at declared types only.
TRACED_LIMIT = 1.05


def torch_traced_corpus(workdir: Path) -> Corpus:
    """The torch module set with the recommended torch settings, in a mirror of torch.

    The mirror (symbolic links) keeps the modules' names (``torch._refs...``), which
    ``traced_functions`` matches; torch itself is then checked from the mirror too,
    in both variants.
    """
    target = workdir / "corpora" / "torch-traced"
    mirror_torch_sources(installed_torch(), target)
    paths = []
    for module in TORCH_MODULES:
        path = Path(*module.split("."))
        paths.append(str(path if (target / path).is_dir() else path.with_suffix(".py")))
    settings = CORPUS_SETTINGS + "\n[mypy.plugins.proxy_types]\n" + TORCH_TRACED
    return Corpus("torch-traced", target, tuple(paths), settings,
                  cold_limit=TRACED_LIMIT, warm_limit=TRACED_LIMIT)


def thunder_corpus(workdir: Path, version: str = THUNDER_VERSION) -> Corpus:
    """lightning-thunder's ``thunder`` package, downloaded from PyPI on first use."""
    target = workdir / "corpora" / f"thunder-{version}"
    if not (target / "thunder" / "__init__.py").is_file():
        wheel = _download_wheel("lightning-thunder", version, workdir / "downloads")
        with zipfile.ZipFile(wheel) as archive:
            members = [m for m in archive.namelist() if m.startswith("thunder/")]
            if not members:
                raise BenchmarkError(f"{wheel.name}: no thunder/ package inside")
            archive.extractall(target, members)
    # The setting a thunder user would add; mypy ignores the section without the plugin.
    settings = CORPUS_SETTINGS + THUNDER_PLUGIN_SETTINGS
    return Corpus(f"thunder-{version}", target, ("thunder",), settings)


def _download_wheel(distribution: str, version: str, downloads: Path) -> Path:
    wheel_prefix = f"{distribution.replace('-', '_')}-{version}-"
    existing = sorted(downloads.glob(f"{wheel_prefix}*.whl"))
    if existing:
        return existing[0]
    downloads.mkdir(parents=True, exist_ok=True)
    note(f"downloading {distribution}=={version} from PyPI ...")
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
               "--quiet", "--dest", str(downloads), f"{distribution}=={version}"]
    completed = subprocess.run(command, capture_output=True, text=True, check=False)
    found = sorted(downloads.glob(f"{wheel_prefix}*.whl"))
    if completed.returncode != 0 or not found:
        reason = (completed.stderr.strip().splitlines() or ["no wheel downloaded"])[-1]
        raise BenchmarkError(f"pip download {distribution}=={version} failed: {reason}")
    return found[0]


KNOWN_CORPORA = ("project", "torch-refs", "thunder", "torch-traced", "quick")


def corpora(names: list[str], workdir: Path) -> list[Corpus]:
    """Prepare the named corpora (see the module docstring) in order."""
    makers = {
        "project": lambda: project_corpus(workdir),
        "torch-refs": lambda: torch_refs_corpus(workdir),
        "thunder": lambda: thunder_corpus(workdir),
        "torch-traced": lambda: torch_traced_corpus(workdir),
        "quick": lambda: quick_corpus(workdir),
        "examples": lambda: examples_corpus(workdir),
    }
    prepared = []
    for name in names:
        maker = makers.get(name)
        if maker is None:
            raise BenchmarkError(f'unknown corpus "{name}" (known: {", ".join(makers)})')
        prepared.append(maker())
    return prepared
