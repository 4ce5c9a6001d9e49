"""Migration mode settings and the real-codebase script (benchmarks/corpora/run.py).

The migration checks themselves are case files: cases/migrate (relaxed_*.py: relaxed settings).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from mypy_plugin.config import ProxyTypesConfig
from mypy_plugin.constants import static_classes_of

REPO = Path(__file__).resolve().parents[2]


def load_corpora_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "corpora_run", REPO / "benchmarks" / "corpora" / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_migration_settings_are_read_and_fingerprinted(tmp_path: Path) -> None:
    config_file = tmp_path / "mypy.ini"
    config_file.write_text(
        "[mypy.plugins.proxy_types]\nmigrate_classes = lib.NumberProxy\n"
        "isinstance_functions = lib.check_type, lib.check_rev:1:0\n")
    config = ProxyTypesConfig(str(config_file))
    assert config.migrate_classes == ("lib.NumberProxy",)
    assert config.isinstance_functions == {"lib.check_type": (0, 1), "lib.check_rev": (1, 0)}
    assert config.fingerprint() != ProxyTypesConfig(None).fingerprint()
    data = config.to_data()
    assert data["isinstance_functions"] == ["lib.check_rev:1:0", "lib.check_type:0:1"]
    assert data["migrate_classes"] == ["lib.NumberProxy"]


def test_static_classes_of_hidden_bases() -> None:
    assert static_classes_of("builtins.float") == {
        "builtins.float", "numbers.Real", "numbers.Complex", "numbers.Number"}
    assert static_classes_of("numbers.Real") == {"numbers.Number", "numbers.Complex",
                                                 "numbers.Real"}
    assert "numbers.Integral" not in static_classes_of("builtins.float")
    assert static_classes_of("builtins.str") == frozenset()


def test_corpus_configs_differ_only_by_the_plugin(tmp_path: Path) -> None:
    script = load_corpora_script()
    corpus = script.Corpus("demo", "demo", ("demo",), "strict_isinstance = true\n")
    baseline, plugin = script.write_configs(corpus, tmp_path)
    base_text, plugin_text = baseline.read_text(), plugin.read_text()
    assert "mypy_plugin" not in base_text and "proxy_types" not in base_text
    assert "proxy-specialize" not in base_text and "proxy-specialize" in plugin_text
    assert plugin_text.replace("plugins = mypy_plugin\n", "").replace(
        ", proxy-specialize", "").startswith(base_text)
    assert plugin_text.endswith("[mypy.plugins.proxy_types]\nstrict_isinstance = true\n")


def test_corpus_run_counts_codes_and_detects_no_crash(tmp_path: Path) -> None:
    """A real baseline and plugin run of the script on a two-line package."""
    script = load_corpora_script()
    package = tmp_path / "demo" / "src" / "demo"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "class Legacy:\n    pass\n\n\nclass LegacyFloat(Legacy, float):\n    pass\n\n\n"
        "def f(p: LegacyFloat) -> float:\n    return p\n")
    corpus = script.Corpus("demo", "demo", ("demo",), "migrate_classes = demo.Legacy\n")
    baseline, plugin = script.check_corpus(corpus, tmp_path)
    assert not baseline.crashed and not plugin.crashed
    assert baseline.codes == {} and baseline.files == 1
    assert plugin.codes == {"proxy-base": 1, "return-value": 1}
    new = (tmp_path / "demo" / "new-errors.txt").read_text().splitlines()
    assert [line.rsplit("[", 1)[1] for line in new] == ["proxy-base]", "return-value]"]
    table = script.table([(corpus, baseline, plugin)])
    assert "| demo | 1 |" in table and "proxy-base 1" in table
    assert "return-value 0 -> 1" in table


def test_corpus_script_rejects_unknown_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    script = load_corpora_script()
    with pytest.raises(SystemExit) as exit_info:
        script.main(["--only", "no-such-corpus"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.startswith("run.py: error: argument --only: invalid choice: 'no-such-corpus'")
    assert error.count("\n") == 1


def test_migration_survives_cache_and_parallel_workers(tmp_path: Path) -> None:
    """Hidden bases live in mypy's cache: a module rechecked against a cached legacy
    class, and mypy's parallel workers, give the same errors as a cold run."""
    project = tmp_path / "project"
    shutil.copytree(Path(__file__).parent / "cases" / "migrate", project)
    config = project / "mypy.ini"
    config.write_text(config.read_text().replace("$MYPY_CONFIG_FILE_DIR/../../../../stubs",
                                                 str(REPO / "stubs")))
    files = sorted(path.name for path in project.glob("*.py"))

    def run(cache: str, *extra: str) -> list[str]:
        result = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(config), "--cache-dir",
             str(tmp_path / cache), "--no-error-summary", *extra, *files],
            capture_output=True, text=True, cwd=project, timeout=300,
            env={**os.environ, "PYTHONPATH": str(REPO)})
        assert "Traceback" not in result.stderr + result.stdout, result.stderr
        return sorted(line for line in result.stdout.splitlines() if ": error:" in line)

    cold = run("cache")
    assert any("legacy proxy" in error for error in cold)
    cases = project / "migrate_cases.py"
    cases.write_text(cases.read_text() + "\n# edited: only this module is rechecked\n")
    assert run("cache") == cold
    assert run("parallel", "--num-workers", "2") == cold
