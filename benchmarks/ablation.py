"""Which hook families cost what: the plugin with one family switched off at a time.

Run ``python -m benchmarks.ablation [--corpus torch-refs] [--rounds 2]``.  Each
variant is a subclass of the real plugin whose lookups for one family return
None, loaded through mypy's ``plugins = module:entry`` syntax.  Cold runs,
rounds alternate the variants; the table shows median CPU seconds and what the
switched-off family cost (the full plugin minus the variant).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mypy.plugin import Plugin  # noqa: E402

from benchmarks.common import DEFAULT_WORKDIR, BenchmarkError, median, note, render_table  # noqa: E402
from benchmarks.bench_plugin import run_mypy, write_configs  # noqa: E402
from benchmarks.corpus import PLUGINS_LINE, corpora  # noqa: E402

#: Variant -> hook lookups that return None in it.
SWITCHED_OFF: dict[str, tuple[str, ...]] = {
    "type analysis (casts, bare conditions)": ("get_type_analyze_hook",),
    "signatures (concretize)": ("get_function_signature_hook", "get_method_signature_hook"),
    "methods (comparisons, register)": ("get_method_hook",),
    "functions (isinstance)": ("get_function_hook",),
}


def _variant(hooks: tuple[str, ...]) -> type[Plugin]:
    from mypy_plugin.main import ProxyTypesPlugin

    def no_hook(self: Any, fullname: str) -> None:
        return None

    return type("AblatedPlugin", (ProxyTypesPlugin,), {name: no_hook for name in hooks})


def without_type_analysis(version: str) -> type[Plugin]:
    return _variant(SWITCHED_OFF["type analysis (casts, bare conditions)"])


def without_signatures(version: str) -> type[Plugin]:
    return _variant(SWITCHED_OFF["signatures (concretize)"])


def without_methods(version: str) -> type[Plugin]:
    return _variant(SWITCHED_OFF["methods (comparisons, register)"])


def without_functions(version: str) -> type[Plugin]:
    return _variant(SWITCHED_OFF["functions (isinstance)"])


ENTRY_POINTS = dict(zip(SWITCHED_OFF, ("without_type_analysis", "without_signatures",
                                       "without_methods", "without_functions")))


def ablate(corpus_name: str, workdir: Path, rounds: int) -> list[list[str]]:
    """Rows (header first): CPU seconds per variant and the cost of each family."""
    workdir = workdir.resolve()
    (corpus,) = corpora([corpus_name], workdir)
    configs = write_configs(corpus, workdir)
    for label, entry in ENTRY_POINTS.items():
        path = workdir / "configs" / f"ablation-{entry}.ini"
        path.write_text(configs["with"].read_text().replace(
            PLUGINS_LINE, f"plugins = benchmarks.ablation:{entry}"), encoding="utf-8")
        configs[label] = path
    cpu: dict[str, list[float]] = {name: [] for name in configs}
    cache = workdir / "cache" / "ablation"
    for index in range(rounds):
        for name, config in configs.items():
            shutil.rmtree(cache, ignore_errors=True)
            run = run_mypy(corpus, config, cache, workdir / "logs" / "ablation.log")
            cpu[name].append(run.cpu)
            note(f"  ablation {corpus.name} round {index + 1}/{rounds} {name}: {run.cpu:.2f} s cpu")
    baseline, full = median(cpu["without"]), median(cpu["with"])
    rows = [["variant", "cpu (median)", "vs no plugin", "cost of the family switched off"]]
    rows.append(["no plugin", f"{baseline:.2f} s", "1.000x", ""])
    rows.append(["full plugin", f"{full:.2f} s", f"{full / baseline:.3f}x", ""])
    for label in SWITCHED_OFF:
        value = median(cpu[label])
        rows.append([f"all but {label}", f"{value:.2f} s", f"{value / baseline:.3f}x",
                     f"{(full - value) / baseline:+.1%}"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus", default="torch-refs")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workdir", type=Path, default=DEFAULT_WORKDIR)
    arguments = parser.parse_args(argv)
    if arguments.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {arguments.rounds}")
    try:
        rows = ablate(arguments.corpus, arguments.workdir, arguments.rounds)
    except BenchmarkError as error:
        print(f"ablation: error: {error}", file=sys.stderr)
        return 2
    print(render_table(f"ablation: cold mypy on {arguments.corpus}", rows[0], rows[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
