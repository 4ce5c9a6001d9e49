"""The static view (stubs/proxy_types): checked by mypy, pyright, stubtest and python.

Case files in tests/typecheck/ are type checked once per session by each checker
(no plugin) and compared line by line with their ``# expect:`` markers; a line
without a marker must check clean.  The same files run under python, and each
marked line of case_contract.py is executed alone to confirm the runtime
exception the marker names.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import textwrap
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from proxy_types import _table
from tests.fresh_python import build_wheel

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "tests" / "typecheck"
STUBS = REPO / "stubs" / "proxy_types"
ALLOWLIST = REPO / "stubs" / "stubtest-allowlist.txt"
CONTRACT_DOC = REPO / "docs" / "static-contract.md"
CONTRACT_CASE = CASES / "case_contract.py"

HAVE_TORCH = importlib.util.find_spec("torch") is not None
CASE_FILES = sorted(
    path for path in CASES.glob("case_*.py") if HAVE_TORCH or path.name != "case_torch.py"
)

STUB_FILES = sorted(STUBS.glob("*.pyi"))

MARKER = re.compile(r"#\s*expect:\s*mypy=(\S+)\s+pyright=(\S+)\s+runtime=(\S+)\s*$")
MYPY_ERROR = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): error: .*\[(?P<code>[\w-]+)\]$", re.M)

# (file name, line) -> error codes / rule names
Report = dict[tuple[str, int], frozenset[str]]


@dataclass(frozen=True)
class Expectation:
    """One ``# expect:`` marker: what each checker and the runtime do with the line."""

    line: int
    code: str
    mypy: frozenset[str]
    pyright: frozenset[str]
    runtime: str  # exception class name, or "-" for none


def _codes(field: str) -> frozenset[str]:
    return frozenset() if field == "-" else frozenset(field.split(","))


def parse_markers(path: Path) -> list[Expectation]:
    """Every ``# expect:`` marker of ``path``; a malformed marker fails loudly."""
    found = []
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        if "# expect:" not in text:
            continue
        match = MARKER.search(text)
        if match is None:
            raise ValueError(f"{path.name}:{number}: malformed marker: {text.strip()!r}")
        code = text[: text.index("# expect:")].strip()
        found.append(Expectation(number, code, _codes(match[1]), _codes(match[2]), match[3]))
    return found


def expected_report(paths: list[Path], checker: str) -> Report:
    return {
        (path.name, marker.line): getattr(marker, checker)
        for path in paths
        for marker in parse_markers(path)
        if getattr(marker, checker)
    }


def report_differences(expected: Report, actual: Report) -> list[str]:
    """Human-readable lines for every (file, line) whose codes differ."""
    return [
        f"{name}:{line}: expected {sorted(expected.get((name, line), ()))}, "
        f"got {sorted(actual.get((name, line), ()))}"
        for name, line in sorted(set(expected) | set(actual))
        if expected.get((name, line), frozenset()) != actual.get((name, line), frozenset())
    ]


def run_mypy(paths: list[Path], cache_dir: Path) -> Report:
    """mypy --strict (tests/typecheck/mypy.ini, no plugin) on ``paths``: codes per line."""
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "MYPY_FORCE_COLOR")}
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(CASES / "mypy.ini"),
         "--cache-dir", str(cache_dir), "--no-color-output", "--no-error-summary",
         *map(str, paths)],
        cwd=REPO, capture_output=True, text=True, env=env, check=False,
    )
    if result.returncode not in (0, 1) or result.stderr.strip():
        pytest.fail(f"mypy did not run (exit {result.returncode}):\n{result.stderr}{result.stdout}")
    collected: dict[tuple[str, int], set[str]] = {}
    for match in MYPY_ERROR.finditer(result.stdout):
        collected.setdefault((Path(match["path"]).name, int(match["line"])), set()).add(match["code"])
    if result.returncode == 1 and not collected:
        pytest.fail(f"mypy failed without a parsable error:\n{result.stdout}")
    return {key: frozenset(codes) for key, codes in collected.items()}


def run_pyright(paths: list[Path], config: Path) -> Report:
    """pyright (strict, ``config``) on ``paths``: rule names per line, errors and warnings."""
    result = subprocess.run(
        [sys.executable, "-m", "pyright", "--outputjson", "--project", str(config),
         "--pythonpath", sys.executable, *map(str, paths)],
        cwd=config.parent, capture_output=True, text=True, check=False,
    )
    try:
        diagnostics = json.loads(result.stdout)["generalDiagnostics"]
    except (ValueError, KeyError):
        pytest.fail(f"pyright did not run (exit {result.returncode}):\n{result.stderr}{result.stdout}")
    collected: dict[tuple[str, int], set[str]] = {}
    for diagnostic in diagnostics:
        if diagnostic["severity"] in ("error", "warning"):
            key = (Path(diagnostic["file"]).name, diagnostic["range"]["start"]["line"] + 1)
            collected.setdefault(key, set()).add(diagnostic.get("rule", diagnostic["message"]))
    return {key: frozenset(rules) for key, rules in collected.items()}


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("stubs-mypy-cache")


@pytest.fixture(scope="session")
def mypy_report(mypy_cache: Path) -> Report:
    return run_mypy(CASE_FILES + STUB_FILES, mypy_cache)


@pytest.fixture(scope="session")
def pyright_report() -> Report:  # pyright fetches its server from npm on first use
    pytest.importorskip("pyright")
    return run_pyright(CASE_FILES + STUB_FILES, CASES / "pyrightconfig.json")


def _only(report: Report, path: Path) -> Report:
    return {key: codes for key, codes in report.items() if key[0] == path.name}


CASE_IDS = [path.stem for path in CASE_FILES]


# -- the case files, per checker -------------------------------------------------


@pytest.mark.parametrize("case", CASE_FILES, ids=CASE_IDS)
def test_mypy_reports_exactly_the_marked_errors(case: Path, mypy_report: Report) -> None:
    differences = report_differences(expected_report([case], "mypy"), _only(mypy_report, case))
    assert not differences, "mypy disagrees with the markers:\n" + "\n".join(differences)


@pytest.mark.network
@pytest.mark.parametrize("case", CASE_FILES, ids=CASE_IDS)
def test_pyright_reports_exactly_the_marked_errors(case: Path, pyright_report: Report) -> None:
    differences = report_differences(expected_report([case], "pyright"), _only(pyright_report, case))
    assert not differences, "pyright disagrees with the markers:\n" + "\n".join(differences)


@pytest.mark.network
def test_stubs_themselves_check_clean(mypy_report: Report, pyright_report: Report) -> None:
    """Every overlap the operator overloads need is silenced on its own line, no more."""
    names = {path.name for path in STUB_FILES}
    assert {key: codes for key, codes in mypy_report.items() if key[0] in names} == {}
    assert {key: codes for key, codes in pyright_report.items() if key[0] in names} == {}


@pytest.mark.parametrize("case", CASE_FILES, ids=CASE_IDS)
def test_case_file_runs(case: Path) -> None:
    """The case file runs to the end under python (its own asserts check the runtime)."""
    if case.name == "case_torch.py":
        pytest.importorskip("torch")
    # A child process: case_api registers a dynamic type, which must not leak.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run(
        [sys.executable, str(case)], capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == 0, result.stderr


def _contract_namespace() -> dict[str, object]:
    return runpy.run_path(str(CONTRACT_CASE), run_name="case_contract")


@pytest.mark.parametrize(
    "marker", parse_markers(CONTRACT_CASE), ids=lambda marker: marker.code
)
def test_contract_line_raises_what_its_marker_says(marker: Expectation) -> None:
    statement = compile(textwrap.dedent(marker.code), f"{CONTRACT_CASE.name}:{marker.line}", "exec")
    raised = "-"
    try:
        exec(statement, _contract_namespace())
    except Exception as error:  # the class name is what gets compared
        raised = type(error).__name__
    assert raised == marker.runtime, f"line {marker.line} {marker.code!r}"


def test_contract_has_both_outcomes_for_each_checker() -> None:
    markers = parse_markers(CONTRACT_CASE)
    for checker in ("mypy", "pyright"):
        caught = [m for m in markers if getattr(m, checker)]
        missed = [m for m in markers if not getattr(m, checker)]
        assert caught and missed, checker
    assert {m.runtime for m in markers} >= {"ConcretizationError", "TypeError", "-"}


def _who_catches(marker: Expectation) -> str:
    if marker.mypy and marker.pyright:
        return "both checkers"
    if marker.mypy or marker.pyright:
        return "mypy only" if marker.mypy else "pyright only"
    return "**neither**"


def _doc_codes(cell: str) -> frozenset[str]:
    return frozenset(code.strip().strip("`") for code in cell.split(",")) - {"-"}


def test_contract_table_matches_the_markers() -> None:
    """Each row of docs/static-contract.md is a marked line, with the same outcome."""
    documented = {}
    for text in CONTRACT_DOC.read_text().splitlines():
        cells = [cell.strip() for cell in text.strip().strip("|").split("|")]
        if text.startswith("| `") and len(cells) == 5:
            code, mypy, pyright, runtime, who = cells
            documented[code.strip("`")] = (_doc_codes(mypy), _doc_codes(pyright), runtime.strip("`"), who)
    marked = {
        m.code: (m.mypy, m.pyright, m.runtime, _who_catches(m)) for m in parse_markers(CONTRACT_CASE)
    }
    assert documented == marked


# -- the harness itself can fail ----------------------------------------------------


@pytest.mark.network
def test_harness_reports_missing_and_unexpected_errors(tmp_path: Path, mypy_cache: Path) -> None:
    case = tmp_path / "case_selftest.py"
    case.write_text(
        "from proxy_types import FloatProxy\n"
        "f = FloatProxy('f', 1.0)\n"
        "float(f)\n"
        "x: int = 1  # expect: mypy=arg-type pyright=reportArgumentType runtime=-\n"
    )
    differences = report_differences(expected_report([case], "mypy"), run_mypy([case], mypy_cache))
    assert differences == [
        "case_selftest.py:3: expected [], got ['arg-type']",
        "case_selftest.py:4: expected ['arg-type'], got []",
    ]
    pytest.importorskip("pyright")
    config = tmp_path / "pyrightconfig.json"
    settings = json.loads((CASES / "pyrightconfig.json").read_text())
    config.write_text(json.dumps({**settings, "stubPath": str(STUBS.parent)}))
    differences = report_differences(expected_report([case], "pyright"), run_pyright([case], config))
    assert differences == [
        "case_selftest.py:3: expected [], got ['reportArgumentType']",
        "case_selftest.py:4: expected ['reportArgumentType'], got []",
    ]


def test_malformed_marker_is_rejected(tmp_path: Path) -> None:
    case = tmp_path / "case_bad.py"
    case.write_text("float(1)  # expect: mypy=arg-type\n")
    with pytest.raises(ValueError, match=r"case_bad.py:1: malformed marker"):
        parse_markers(case)


# -- the stubs against the runtime and the table -------------------------------------


def _stubtest(allowlist: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    env["MYPYPATH"] = str(STUBS.parent)
    return subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "proxy_types", "--allowlist", str(allowlist),
         "--mypy-config-file", str(CASES / "mypy.ini"), "--concise"],
        cwd=REPO, capture_output=True, text=True, env=env, check=False,
    )


def test_stubtest_finds_no_drift() -> None:
    result = _stubtest(ALLOWLIST)
    assert result.returncode == 0, result.stdout + result.stderr


def test_stubtest_fails_on_missing_and_unused_allowlist_entries(tmp_path: Path) -> None:
    entries = ALLOWLIST.read_text().splitlines()
    dropped = "proxy_types._proxies.NumberProxy.__float__"
    edited = [line for line in entries if not line.startswith(dropped + " ")]
    assert len(edited) == len(entries) - 1
    edited.append("proxy_types._proxies.NumberProxy.__no_such_dunder__")
    allowlist = tmp_path / "allowlist.txt"
    allowlist.write_text("\n".join(edited) + "\n")
    result = _stubtest(allowlist)
    assert result.returncode != 0
    assert f"{dropped} is not present in stub" in result.stdout
    assert "__no_such_dunder__" in result.stdout


def _allowlist_entries() -> dict[str, str]:
    entries = {}
    for text in ALLOWLIST.read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            name, _, reason = text.partition("#")
            entries[name.strip()] = reason.strip()
    return entries


def _stub_classes() -> dict[str, dict[str, ast.AST]]:
    """Class name -> member name -> node, over every stub module."""
    classes: dict[str, dict[str, ast.AST]] = {}
    for path in STUBS.glob("*.pyi"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                members = classes.setdefault(node.name, {})
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        members[item.name] = item
                    elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        members[item.target.id] = item
    return classes


PROXY_CLASSES = ("NumberProxy", "BoolProxy", "IntegerProxy", "FloatProxy", "ComplexProxy")


def test_every_allowlist_entry_has_a_reason() -> None:
    entries = _allowlist_entries()
    assert entries
    assert all(entries.values()), [name for name, reason in entries.items() if not reason]


def test_concretizing_dunders_are_hidden_and_allowlisted() -> None:
    classes = _stub_classes()
    allowlisted = set(_allowlist_entries())
    for concretizer in _table.CONCRETIZING_DUNDERS:
        assert f"proxy_types._proxies.NumberProxy.{concretizer.dunder}" in allowlisted
        for name in PROXY_CLASSES:
            member = classes[name].get(concretizer.dunder)
            if concretizer.dunder == "__hash__" and name == "NumberProxy":
                assert isinstance(member, ast.AnnAssign) and "None" in ast.unparse(member.annotation)
            else:
                assert member is None, f"{name}.{concretizer.dunder} must not be in the stubs"


def test_every_table_operator_is_typed_on_the_proxies() -> None:
    classes = _stub_classes()
    allowlisted = set(_allowlist_entries())
    for op in _table.OPERATORS:
        for dunder in filter(None, (op.dunder, op.reflected)):
            typed_on = [name for name in PROXY_CLASSES if dunder in classes[name]]
            assert typed_on, f"{dunder} ({op.symbol}) is in no stub class"
            on_base = "NumberProxy" in typed_on
            assert on_base != (f"proxy_types._proxies.NumberProxy.{dunder}" in allowlisted), dunder
    assert {"IntegerProxy", "BoolProxy"} <= {n for n in PROXY_CLASSES if "__and__" in classes[n]}
    assert "__and__" not in classes["FloatProxy"]


# -- the wheel: stubs found from site-packages ------------------------------------------

USER_FILE = """\
from proxy_types import FloatProxy, IntegerProxy
p = FloatProxy("p", 1.5)
n = IntegerProxy("n")
reveal_type(n + 1)
reveal_type(1 + p)
float(p)
"""


def _mypy_in(venv_python: Path, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--python-executable", str(venv_python), "--strict",
         "--no-incremental", "--no-error-summary", "user.py"],
        cwd=cwd, capture_output=True, text=True, env=env, check=False,
    )
    assert not result.stderr.strip(), result.stderr
    return result.stdout


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def test_installed_wheel_provides_the_stubs(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    stub_files = {name for name in zipfile.ZipFile(wheel).namelist() if name.startswith("proxy_types-stubs/")}
    assert {f"proxy_types-stubs/{path.name}" for path in STUBS.glob("*.pyi")} <= stub_files

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    user_dir = tmp_path / "user"
    user_dir.mkdir()
    (user_dir / "user.py").write_text(USER_FILE)

    # Before installing, nothing outside the repository knows proxy_types.
    assert "[import-not-found]" in _mypy_in(_venv_python(venv), user_dir)

    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(_venv_python(venv)), "install",
         "--no-deps", "--no-index", "--quiet", str(wheel)],
        capture_output=True, text=True, check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    output = _mypy_in(_venv_python(venv), user_dir)
    assert 'user.py:4: note: Revealed type is "proxy_types._proxies.IntegerProxy"' in output
    assert 'user.py:5: note: Revealed type is "proxy_types._proxies.FloatProxy"' in output
    assert re.search(r"user\.py:6: error: .*\[arg-type\]", output), output
    assert "import-not-found" not in output and "import-untyped" not in output


RUNTIME_USE = """
import importlib.util
from proxy_types import ConcretizationError, IntegerProxy, is_dynamic_number, is_static_number, trace

assert importlib.util.find_spec("mypy") is None, "mypy is installed here"
assert is_static_number(3) and not is_dynamic_number(3)
with trace():
    n = IntegerProxy("n")
    assert is_dynamic_number(n + 1) and not is_static_number(n)
    try:
        bool(n)
    except ConcretizationError:
        print("runtime works without mypy")
"""


def test_runtime_works_where_mypy_is_not_installed(tmp_path: Path) -> None:
    """``pip install proxy-types`` gives the runtime with typing_extensions alone."""
    import typing_extensions

    wheel = build_wheel(tmp_path)
    (metadata,) = [name for name in zipfile.ZipFile(wheel).namelist() if name.endswith("METADATA")]
    requires = [line.split(":", 1)[1].strip()
                for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
                if line.startswith("Requires-Dist:")]
    unconditional = sorted(r.split(";")[0].strip() for r in requires if "extra ==" not in r)
    assert [r for r in unconditional if not r.startswith(("typing_extensions", "typing-extensions",
                                                          "tomli"))] == [], unconditional
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(_venv_python(venv)), "install",
         "--no-deps", "--no-index", "--quiet", str(wheel)],
        capture_output=True, text=True, check=False,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    # The one requirement, copied in: the venv reaches no index.
    site = subprocess.run(
        [str(_venv_python(venv)), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    shutil.copy2(typing_extensions.__file__, site)
    result = subprocess.run([str(_venv_python(venv)), "-I", "-c", RUNTIME_USE],
                            capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "runtime works without mypy"


def test_stub_modules_mirror_the_runtime_modules() -> None:
    runtime = {path.stem for path in (REPO / "proxy_types").glob("*.py")}
    assert {path.stem for path in STUB_FILES} == runtime
