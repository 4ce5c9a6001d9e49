"""dmypy with the plugin, with a real daemon: the plugin section's error codes, and
the same findings as a cold ``proxy-types check`` after an edit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

DYN = """\
class Num:
    def __int__(self) -> int:
        return 1
"""

APP = """\
from dyn import Num


def size(n: int | Num) -> int:
    if isinstance(n, int):
        return n
    return int(n)
"""

CLASSES = "dynamic_number_classes = dyn.Num\nguarded_number_classes = dyn.Num\n"

# Where the plugin's codes are turned on and off: the file, its text.
CONFIGS = {
    "ini": ("mypy.ini", "[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
            + CLASSES + "enable_error_code = proxy-specialize\n"
            "disable_error_code = proxy-isinstance\n"),
    "toml": ("pyproject.toml", '[tool.mypy]\nplugins = ["mypy_plugin"]\n\n[tool.proxy_types]\n'
             'dynamic_number_classes = ["dyn.Num"]\nguarded_number_classes = ["dyn.Num"]\n'
             'enable_error_code = ["proxy-specialize"]\n'
             'disable_error_code = ["proxy-isinstance"]\n'),
}


def environment() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("MYPY")}
    return {**env, "PYTHONPATH": str(REPO), "MYPYPATH": str(REPO / "stubs")}


def make_project(root: Path, config: tuple[str, str]) -> Path:
    root.mkdir()
    (root / config[0]).write_text(config[1], encoding="utf-8")
    (root / "dyn.py").write_text(DYN, encoding="utf-8")
    (root / "app.py").write_text(APP, encoding="utf-8")
    (root / "plain.py").write_text("def double(x: int) -> int:\n    return 2 * x\n",
                                   encoding="utf-8")
    return root


def messages(output: str) -> list[str]:
    """mypy's error lines, ``file:line: error: message  [code]``, columns left out."""
    lines = []
    for line in output.splitlines():
        where, separator, rest = line.partition(": error: ")
        if separator:
            lines.append(f"{':'.join(where.split(':')[:2])}: {rest}")
    return lines


def codes(output: str) -> list[str]:
    return [line.rpartition("[")[2].rstrip("]") for line in messages(output)]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(command, cwd=cwd, env=environment(), capture_output=True,
                            text=True, timeout=300)
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    assert "Daemon crashed" not in result.stdout + result.stderr
    return result


@contextmanager
def daemon(root: Path) -> Iterator[list[str]]:
    """The ``dmypy`` command of a daemon of its own, stopped whatever happens."""
    command = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(root / "dmypy.json")]
    try:
        yield command
    finally:
        subprocess.run([*command, "stop"], cwd=root, env=environment(), capture_output=True,
                       timeout=60)
        status = root / "dmypy.json"
        if status.exists():  # the daemon did not stop: end it, it is ours
            os.kill(json.loads(status.read_text())["pid"], 9)


@pytest.mark.parametrize("style", sorted(CONFIGS))
def test_plugin_section_codes_work_in_dmypy_plain_mypy_and_workers(
        tmp_path: Path, style: str) -> None:
    root = make_project(tmp_path / "project", CONFIGS[style])
    with daemon(root) as dmypy:
        first = run([*dmypy, "run", "--", "app.py", "plain.py"], root)
        (root / "plain.py").write_text("def double(x: int) -> int:\n    return x + x\n",
                                       encoding="utf-8")
        edited = run([*dmypy, "run", "--", "app.py", "plain.py"], root)
    plain = run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                 "app.py", "plain.py"], root)
    workers = run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache-n"),
                   "--num-workers", "2", "app.py", "plain.py"], root)
    assert codes(first.stdout) == ["proxy-specialize"]  # on, and isinstance off
    assert messages(edited.stdout) == messages(plain.stdout) == messages(first.stdout)
    assert messages(workers.stdout) == messages(plain.stdout)


def test_without_the_settings_the_codes_keep_their_defaults(tmp_path: Path) -> None:
    config = ("mypy.ini", "[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
              + CLASSES)
    root = make_project(tmp_path / "project", config)
    plain = run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                 "app.py"], root)
    assert codes(plain.stdout) == ["proxy-isinstance"]


def test_plugin_codes_in_the_mypy_section_still_work_for_plain_mypy(tmp_path: Path) -> None:
    config = ("mypy.ini", "[mypy]\nplugins = mypy_plugin\nenable_error_code = proxy-specialize\n"
              "\n[mypy.plugins.proxy_types]\n" + CLASSES)
    root = make_project(tmp_path / "project", config)
    plain = run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                 "app.py"], root)
    assert sorted(codes(plain.stdout)) == ["proxy-isinstance", "proxy-specialize"]


def test_a_code_turned_on_and_off_is_one_line(tmp_path: Path) -> None:
    config = ("mypy.ini", "[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
              "enable_error_code = proxy-cast\ndisable_error_code = proxy-cast\n")
    root = make_project(tmp_path / "project", config)
    plain = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir",
                            str(tmp_path / "cache"), "app.py"], cwd=root, env=environment(),
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 2
    assert plain.stderr.splitlines() == [
        'mypy.ini:6: error: [proxy_types] enable_error_code and disable_error_code both list '
        '"proxy-cast"; keep one']


MISSING = """\
[mypy]
plugins = mypy_plugin

[mypy.plugins.proxy_types]
dynamic_number_classes = dyn.Num, dyn.Missing, gone.Thing
"""

USER = """\
import dyn
import gone


def is_int(x: int | dyn.Num) -> bool:
    return isinstance(x, int)
"""


def test_the_daemon_shows_what_a_cold_run_shows_after_an_edit(tmp_path: Path) -> None:
    """``plain.py`` defines nothing dynamic; the daemon checks ``user.py`` again
    (it has errors) on the tree it checked before.  The daemon shows what a cold
    mypy run shows, ``proxy-config`` included; ``check`` shows the same problems
    of the settings at the settings' lines (tests/cli/test_settings_entries.py)."""
    root = make_project(tmp_path / "project", ("mypy.ini", MISSING))
    (root / "user.py").write_text(USER, encoding="utf-8")
    files = ["app.py", "plain.py", "user.py", "dyn.py"]
    plain = run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), *files],
                root)
    cold = sorted(messages(plain.stdout))
    config = [line for line in cold if line.endswith("[proxy-config]")]
    assert [line.split(": ")[0] for line in config] == ["app.py:1", "user.py:1", "user.py:2"]
    assert 'Cannot find module "gone"' in config[2]
    check = run([sys.executable, "-m", "mypy_plugin", "check", "--cache-dir",
                 str(tmp_path / "check-cache"), "--format", "json", *files], root)
    at_settings = [f for f in json.loads(check.stdout)["findings"] if f["code"] == "proxy-config"]
    assert len([f for f in at_settings if f["file"] == "mypy.ini"]) == 2
    with daemon(root) as dmypy:
        first = run([*dmypy, "run", "--", *files], root)
        (root / "plain.py").write_text("def double(x: int) -> int:\n    return x + x\n",
                                       encoding="utf-8")
        edited = run([*dmypy, "run", "--", *files], root)
    assert sorted(messages(first.stdout)) == cold
    assert sorted(messages(edited.stdout)) == cold


def test_the_code_names_the_settings_accept_are_the_plugins_codes() -> None:
    from mypy_plugin.codes import ALL_CODES
    from mypy_plugin.constants import PLUGIN_CODE_NAMES

    assert sorted(PLUGIN_CODE_NAMES) == sorted(code.code for code in ALL_CODES)


# A caller in one module, its callee's body in another: only the body is edited.
CALLER = """\
from dyn import Num
from callee import helper


def use(n: Num) -> int:
    return helper(n)
"""

CALLEE = "from inner import convert\n\n\ndef helper(v: object) -> int:\n    return {}\n"
INNER = "def convert(v: object) -> int:\n    return {}\n"
READS = "int(v)  # type: ignore[call-overload]"


def test_the_daemon_rechecks_a_caller_when_a_callee_body_changes(tmp_path: Path) -> None:
    """The call-site report in ``caller.py`` appears and goes with edits of the callee's
    body, and of the body of a function the callee calls, in other modules: the daemon
    shows what a cold mypy run shows after each edit."""
    config = ("mypy.ini", "[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
              "dynamic_number_classes = dyn.Num\n")
    root = make_project(tmp_path / "project", config)
    (root / "caller.py").write_text(CALLER, encoding="utf-8")
    files = ["caller.py", "callee.py", "inner.py", "dyn.py"]
    edits = [("callee.py", CALLEE.format("3")), ("inner.py", INNER.format("3")),
             ("callee.py", CALLEE.format(READS)), ("callee.py", CALLEE.format("3")),
             ("callee.py", CALLEE.format("convert(v)")), ("inner.py", INNER.format(READS)),
             ("inner.py", INNER.format("3"))]
    shown, cold = [], []
    with daemon(root) as dmypy:
        for number, (name, text) in enumerate(edits):
            (root / name).write_text(text, encoding="utf-8")
            shown.append(messages(run([*dmypy, "run", "--", *files], root).stdout))
            cold.append(messages(run([sys.executable, "-m", "mypy", "--cache-dir",
                                      str(tmp_path / f"cache-{number}"), *files], root).stdout))
    assert shown == cold
    reported = [any("caller.py:6: helper(): argument" in line for line in lines)
                for lines in cold]
    assert reported == [False, False, True, False, False, True, False]


TRACED_CALLER = """\
from callee import scaled


def use(n: int) -> int:
    m = scaled(n)
    return int(m)
"""

SCALED = "def scaled(k: int) -> int:\n    return {}\n"


def test_the_daemon_rechecks_a_caller_when_a_callee_return_value_changes(
        tmp_path: Path) -> None:
    """``use`` is traced, so ``n`` is dynamic: ``int(m)`` is reported while ``scaled``
    returns its parameter, and not once it returns a constant."""
    config = ("mypy.ini", "[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
              "traced_functions = caller.use\nenable_error_code = proxy-specialize\n")
    root = make_project(tmp_path / "project", config)
    (root / "caller.py").write_text(TRACED_CALLER, encoding="utf-8")
    files = ["caller.py", "callee.py"]
    bodies = ["k * 2", "2", "k * 2"]
    shown, cold = [], []
    with daemon(root) as dmypy:
        for number, body in enumerate(bodies):
            (root / "callee.py").write_text(SCALED.format(body), encoding="utf-8")
            shown.append(messages(run([*dmypy, "run", "--", *files], root).stdout))
            cold.append(messages(run([sys.executable, "-m", "mypy", "--cache-dir",
                                      str(tmp_path / f"cache-{number}"), *files], root).stdout))
    assert shown == cold
    assert [any(line.startswith("caller.py:6: int() installs a guard") for line in lines)
            for lines in cold] == [True, False, True]


PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/caller.py": CALLER.replace("from callee import", "from .callee import"),
    "pkg/callee.py": "from . import inner\n\n\ndef helper(v: object) -> int:\n"
                     "    return inner.convert(v)\n",
}


def test_the_daemon_follows_relative_imports_and_drops_kept_summaries(tmp_path: Path) -> None:
    """Two calls down, through ``from . import inner``: the callee's own summary was
    kept from the first run, and an edit of ``inner`` alone must drop it."""
    config = ("mypy.ini", "[mypy]\nplugins = mypy_plugin\n\n[mypy.plugins.proxy_types]\n"
              "dynamic_number_classes = dyn.Num\n")
    root = make_project(tmp_path / "project", config)
    (root / "pkg").mkdir()
    for name, text in PACKAGE.items():
        (root / name).write_text(text, encoding="utf-8")
    shown, cold = [], []
    with daemon(root) as dmypy:
        for number, body in enumerate(["3", READS, "3"]):
            (root / "pkg/inner.py").write_text(INNER.format(body), encoding="utf-8")
            shown.append(messages(run([*dmypy, "run", "--", "pkg", "dyn.py"], root).stdout))
            cold.append(messages(run([sys.executable, "-m", "mypy", "--cache-dir",
                                      str(tmp_path / f"cache-{number}"), "pkg", "dyn.py"],
                                     root).stdout))
    assert shown == cold
    assert [any(line.startswith("pkg/caller.py:6: helper()") for line in lines)
            for lines in cold] == [False, True, False]
