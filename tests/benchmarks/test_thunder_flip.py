"""Migration mode on the old thunder hierarchy, scored against the human fix.

lightning-thunder 0.2.0.dev20240513 is the last build whose number proxies subclass
int/float/complex; the checks the fix (dev20240519) changed are the ground truth
(corpus ``thunder-flip`` in benchmarks/corpora/ground_truth.toml).  This runs the
corpus the way ``benchmarks/corpora/run.py --only thunder-flip-migrate`` does.

Targets (issues #13 and #18): recall >= 0.95 at precision >= 0.75, with the
recommended settings (run.THUNDER_MIGRATE: thunder's tests exempt).  Recall is 0.99.
Precision is 0.77 counting the 31 reports that are real by reading but that the fix
left (the same check as one it changed); against the fix alone it is 0.57, and
cannot reach 0.75 while those 31 are reported: 90 / (90 + 31) = 0.74 even with no
false positive left.  The precision assertion against the fix alone is the
measured floor.  Every report is judged (none unjudged).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

CORPORA = Path(__file__).resolve().parents[2] / "benchmarks" / "corpora"


def load(name: str) -> ModuleType:
    """A script of benchmarks/corpora, which imports its neighbours as top-level modules."""
    sys.path.insert(0, str(CORPORA))
    spec = importlib.util.spec_from_file_location(f"corpora_{name}", CORPORA / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


RECALL_TARGET = 0.95
PRECISION_TARGET = 0.75  # reached counting the real reports the fix left
PRECISION_AGAINST_THE_FIX_FLOOR = 0.56  # measured; 0.75 is out of reach (module docstring)


@pytest.mark.network
@pytest.mark.slow
def test_migration_mode_finds_what_the_human_fix_changed(tmp_path: Path) -> None:
    run, error_prone_isinstance = load("run"), load("error_prone_isinstance")
    corpus = next(c for c in run.CORPORA if c.name == "thunder-flip-migrate")
    try:
        baseline, plugin = run.check_corpus(corpus, tmp_path)
    except run.CorpusError as error:
        pytest.skip(f"cannot fetch the corpus: {error}")
    assert not baseline.crashed and not plugin.crashed
    source = corpus.source_dir(tmp_path)
    result = run.score_run(corpus, plugin, source)
    assert len(result.real) >= 80
    assert result.recall >= RECALL_TARGET
    assert result.precision_with_not_in_fix >= PRECISION_TARGET
    assert result.precision >= PRECISION_AGAINST_THE_FIX_FLOOR
    assert not result.unjudged, result.unjudged
    # thunder's tests are exempt: no site report there
    assert not [line for line in plugin.errors if line.startswith("thunder/tests/")
                and any(f"[{code}]" in line for code in run.SITE_CODES)]
    # issue #18: the checks on values declared as the base class Proxy are found
    typed = [entry for entry in result.real if entry.proxy_typed]
    assert typed and all(entry in result.found for entry in typed)
    # both grep baselines on the same files do worse
    grep = run.score_regex(corpus, source, error_prone_isinstance.NUMBER_CHECK_PATTERN)
    lint = run.score_regex(corpus, source)
    assert result.precision > grep.precision and result.recall >= grep.recall
    assert result.recall > lint.recall and result.precision > lint.precision


@pytest.mark.network
@pytest.mark.slow
def test_the_base_class_source_finds_the_proxy_typed_sites(tmp_path: Path) -> None:
    """Issue #18: the same run without the base-class source misses exactly the checks on
    ``Proxy``-typed values, and the source costs no precision against the fix."""
    without_base_source = load("without_base_source")
    try:
        with_base, without = without_base_source.score_both(tmp_path)
    except without_base_source.run.CorpusError as error:
        pytest.skip(f"cannot fetch the corpus: {error}")
    typed = {entry for entry in with_base.real if entry.proxy_typed}
    assert typed and typed <= with_base.found
    assert with_base.found - without.found == typed
    assert with_base.precision >= without.precision
