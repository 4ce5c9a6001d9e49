"""The plugin never changes what mypy infers or reports of its own (issue #19).

mypy decides overloads, lambdas and operators by trying them with their
errors watched; a report of the plugin counted there would make mypy pick
something else.  These tests type-check the same code with and without the
plugin and compare every inferred expression type and every error that is
not the plugin's.  Migration mode is left out: hiding legacy proxies' number
bases from mypy is its purpose.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from mypy import build
from mypy.main import process_options
from mypy.nodes import Expression

from mypy_plugin.analysis.walk import walk

CASES = Path(__file__).parent / "cases"
REPO = Path(__file__).resolve().parents[2]
STUBS_SETTING = "$MYPY_CONFIG_FILE_DIR/../../../../stubs"

#: Groups of case files whose settings do not change mypy's view of classes.
COMPARED_GROUPS = ("default", "strict", "configured", "pyproject", "trials")

TypeKey = tuple[str, int, int, int, int, str]


def without_plugin(config_text: str) -> str:
    """The config with the plugin's entry removed (ini or TOML)."""
    text = re.sub(r"(?m)^plugins\s*=.*$", "", config_text)
    assert text != config_text, "no plugins line found"
    return text


def check(directory: Path, config_name: str, cache: Path,
          targets: list[str] | None = None) -> tuple[dict[TypeKey, list[str]], list[str]]:
    """Every expression type mypy inferred in the checked modules, and its error lines.

    ``targets`` default to the ``.py`` files of ``directory``.
    """
    if targets is None:
        targets = sorted(path.name for path in directory.glob("*.py"))
    cwd = os.getcwd()
    os.chdir(directory)
    try:
        sources, options = process_options(
            ["--config-file", config_name, "--cache-dir", str(cache), "--show-column-numbers",
             "--hide-error-context", *targets])
        options.export_types = True
        options.preserve_asts = True  # the trees, to find the checked modules' expressions
        result = build.build(sources, options)
    finally:
        os.chdir(cwd)
    types: dict[TypeKey, list[str]] = {}
    for source in sources:
        tree = result.graph[source.module].tree
        assert tree is not None, f"{source.module} came from the cache"
        nodes = [node for statement in tree.defs for node in walk(statement, lambda n: True)]
        for node in nodes:
            typ = result.types.get(node) if isinstance(node, Expression) else None
            if typ is not None:
                key = (source.module, node.line, node.column, node.end_line or -1,
                       node.end_column or -1, type(node).__name__)
                types.setdefault(key, []).append(str(typ))
    return ({key: sorted(found) for key, found in types.items()},
            [line for line in result.errors if ": error:" in line])


def copy_group(group: str, destination: Path, *, plugin: bool) -> str:
    """Copy a case group to ``destination``, each module marked with that path at its end
    (new content: mypy checks it again instead of taking it from a shared cache)."""
    shutil.copytree(CASES / group, destination)
    for module in destination.glob("*.py"):
        module.write_text(module.read_text() + f"# copied to {destination}\n")
    config = next(name for name in ("mypy.ini", "pyproject.toml")
                  if (destination / name).exists())
    text = (destination / config).read_text().replace(STUBS_SETTING, str(REPO / "stubs"))
    (destination / config).write_text(text if plugin else without_plugin(text))
    return config


def plugin_errors(line: str) -> bool:
    return bool(re.search(r"\[proxy-[a-z]+\]$", line))


@pytest.fixture(scope="session")
def plain_mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("plain-mypy-cache")


@pytest.mark.parametrize("group", [
    # The torch group compares about 2.5 minutes of mypy runs: CI's marked run has it, so
    # the default suite stays within 5 minutes.
    pytest.param(group, marks=pytest.mark.slow) if group == "default" else group
    for group in COMPARED_GROUPS
])
def test_types_and_mypy_errors_are_the_same_without_the_plugin(
    group: str, tmp_path: Path, mypy_cache_dir: Path, plain_mypy_cache: Path
) -> None:
    if group == "default":
        pytest.importorskip("torch")
    with_config = copy_group(group, tmp_path / "with", plugin=True)
    copy_group(group, tmp_path / "without", plugin=False)
    with_types, with_errors = check(tmp_path / "with", with_config, mypy_cache_dir)
    plain_types, plain_errors = check(tmp_path / "without", with_config, plain_mypy_cache)
    assert plain_types, "the comparison saw no expressions"
    differing = {key: (with_types.get(key), plain_types.get(key))
                 for key in with_types.keys() | plain_types.keys()
                 if with_types.get(key) != plain_types.get(key)}
    assert differing == {}
    shown = [re.sub(r"^.*?/(with|without)/", "", line) for line in with_errors]
    plain = [re.sub(r"^.*?/(with|without)/", "", line) for line in plain_errors]
    assert sorted(line for line in shown if not plugin_errors(line)) == sorted(plain)
    assert any(plugin_errors(line) for line in shown), "the plugin reported nothing here"


def test_lambda_in_filter_reports_once_and_infers_as_without_plugin(
    tmp_path: Path, mypy_cache_dir: Path, plain_mypy_cache: Path
) -> None:
    source = (
        "from proxy_types import IntegerProxy\n"
        "def g(rows: list[int | IntegerProxy]) -> None:\n"
        "    d = list(filter(lambda x: isinstance(x, int), rows))\n"
        "    reveal_type(d)\n"
    )
    outputs = []
    for plugin, cache in ((True, mypy_cache_dir), (False, plain_mypy_cache)):
        directory = tmp_path / ("with" if plugin else "without")
        directory.mkdir()
        (directory / "example.py").write_text(source)
        plugins = "plugins = mypy_plugin\n" if plugin else ""
        (directory / "mypy.ini").write_text(f"[mypy]\n{plugins}mypy_path = {REPO / 'stubs'}\n")
        from mypy import api

        cwd = os.getcwd()
        os.chdir(directory)
        try:
            stdout, _, _ = api.run(["--config-file", "mypy.ini", "--cache-dir", str(cache),
                                    "--no-error-summary", "example.py"])
        finally:
            os.chdir(cwd)
        outputs.append(stdout.splitlines())
    with_plugin, plain = outputs
    assert plain == ['example.py:4: note: Revealed type is '
                     '"list[int | proxy_types._proxies.IntegerProxy]"']
    errors = [line for line in with_plugin if ": error:" in line]
    assert len(errors) == 1 and errors[0].startswith("example.py:3: error: isinstance()")
    assert errors[0].endswith("[proxy-isinstance]")
    assert [line for line in with_plugin if ": note:" in line] == plain



# -- a real corpus from PyPI ------------------------------------------------------

CORPUS = "mpmath==1.3.0"  # numeric, pure Python, untyped: strict mode reports inside it
CORPUS_CONFIG = """\
[mypy]
{plugins}check_untyped_defs = True
ignore_missing_imports = True
follow_imports = silent

[mypy.plugins.proxy_types]
strict_isinstance = true
dynamic_number_classes = mpmath.ctx_mp_python.mpf, mpmath.ctx_mp_python.mpc
"""


def download_corpus(directory: Path) -> Path:
    """Unpack the corpus wheel from PyPI; skip the test if it cannot be downloaded."""
    import subprocess
    import sys
    import zipfile

    wheels = directory / "wheels"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
         CORPUS, "-d", str(wheels)], capture_output=True, text=True, timeout=300)
    found = sorted(wheels.glob("mpmath-*.whl"))
    if result.returncode != 0 or not found:
        reason = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
        pytest.skip(f"cannot download {CORPUS} from PyPI: {reason}")
    project = directory / "project"
    with zipfile.ZipFile(found[0]) as wheel:
        wheel.extractall(project, [n for n in wheel.namelist() if n.startswith("mpmath/")])
    return project


@pytest.mark.network
def test_a_real_numeric_package_is_inferred_the_same_with_the_plugin(tmp_path: Path) -> None:
    project = download_corpus(tmp_path)
    for name, plugins in (("with.ini", "plugins = mypy_plugin\n"), ("plain.ini", "")):
        (project / name).write_text(CORPUS_CONFIG.format(plugins=plugins))
    with_types, with_errors = check(project, "with.ini", tmp_path / "cache-with", ["mpmath"])
    plain_types, plain_errors = check(project, "plain.ini", tmp_path / "cache-plain", ["mpmath"])
    assert len(plain_types) > 100_000  # the whole package was checked
    assert with_types == plain_types
    reports = [line for line in with_errors if plugin_errors(line)]
    assert reports, "strict mode should report isinstance() checks of untyped values"
    assert not any("[proxy-internal]" in line for line in reports)
    assert sorted(line for line in with_errors if not plugin_errors(line)) == sorted(plain_errors)
