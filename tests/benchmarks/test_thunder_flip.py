"""Migration mode on the old thunder hierarchy, scored against the human fix.

lightning-thunder 0.2.0.dev20240513 is the last build whose number proxies subclass
int/float/complex; the checks the fix (dev20240519) changed are the ground truth
(corpus ``thunder-flip`` in benchmarks/corpora/ground_truth.toml).  This runs the
corpus the way ``benchmarks/corpora/run.py --only thunder-flip-migrate`` does.

Targets (issues #13 and #18): recall >= 0.95 at precision >= 0.75.  Recall is met
(0.99).  Precision against the fix is 0.54: 27 of the other reports are real by
reading but the fix left them (0.70 counting them), and most of the rest are
checks on values no proxy reaches that the plugin cannot tell apart (bytecode
ints in the interpreter, test code).  The precision assertions are the measured
floor, not the target.
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
PRECISION_FLOOR = 0.53  # target 0.75, not reached (see the module docstring)
PRECISION_WITH_SITES_LEFT_BY_THE_FIX_FLOOR = 0.70


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
    assert result.precision >= PRECISION_FLOOR
    assert result.precision_with_not_in_fix >= PRECISION_WITH_SITES_LEFT_BY_THE_FIX_FLOOR
    # issue #18: the checks on values declared as the base class Proxy are found
    typed = [entry for entry in result.real if entry.proxy_typed]
    assert typed and all(entry in result.found for entry in typed)
    # both grep baselines on the same files do worse
    grep = run.score_regex(corpus, source, error_prone_isinstance.NUMBER_CHECK_PATTERN)
    lint = run.score_regex(corpus, source)
    assert result.precision > grep.precision and result.recall >= grep.recall
    assert result.recall > lint.recall and result.precision > lint.precision
