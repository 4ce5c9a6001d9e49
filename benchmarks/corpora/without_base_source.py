"""The thunder flip corpus scored with and without the base-class source (issue #18).

    python benchmarks/corpora/without_base_source.py [--scratch DIR]

Runs ``run.py``'s ``thunder-flip-migrate`` corpus (prepared by ``run.py`` first,
which downloads it) once more with a plugin whose base-class source is switched
off, loaded through mypy's ``plugins = module:entry`` syntax, and prints both
scores against the human fix.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run  # noqa: E402
import score  # noqa: E402

CORPUS = "thunder-flip-migrate"


def without_base_source(version: str) -> type:
    """The plugin with ``DynamicClasses.describe_base`` answering None (mypy entry point)."""
    from mypy_plugin.analysis import dynamic
    from mypy_plugin.main import ProxyTypesPlugin

    def no_base(self: object, *args: object, **kwargs: object) -> None:
        return None

    dynamic.DynamicClasses.describe_base = no_base  # type: ignore[method-assign]
    return ProxyTypesPlugin


def line(name: str, result: score.CorpusScore) -> str:
    missed = sorted(f"{entry.file}:{entry.line}" for entry in result.real
                    if entry not in result.found)
    return (f"| {name} | {result.reports} | {result.confirmed} | {result.recall:.2f} | "
            f"{result.precision:.3f} | {result.precision_with_not_in_fix:.3f} | "
            f"{', '.join(missed)} |")


def score_both(scratch: Path) -> tuple[score.CorpusScore, score.CorpusScore]:
    """The corpus's score with the base-class source, and without it."""
    corpus = next(c for c in run.CORPORA if c.name == CORPUS)
    source = run.prepare(corpus, scratch)
    directory = source.parent
    _, plugin_config = run.write_configs(corpus, directory)
    variant = directory / "without-base.ini"
    variant.write_text(plugin_config.read_text().replace(
        "plugins = mypy_plugin", f"plugins = {Path(__file__).resolve()}:without_base_source"))
    scores = []
    for config in (plugin_config, variant):
        ran = run.run_mypy(corpus, config, source, directory / f"cache-{config.stem}",
                           directory / f"mypy-{config.stem}.txt")
        if ran.crashed:
            raise run.CorpusError(f"mypy crashed with {config.name}")
        scores.append(run.score_run(corpus, ran, source))
    return scores[0], scores[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scratch", type=Path, default=run.DEFAULT_SCRATCH)
    options = parser.parse_args(argv)
    with_base, without = score_both(options.scratch)
    print("| plugin | reports | on changed lines | recall | precision vs fix | "
          "counting real, not in fix | sites missed |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    print(line("with the base-class source", with_base))
    print(line("without it", without))
    return 0


if __name__ == "__main__":
    sys.exit(main())
