"""Every code block of the user docs is run by a test or marked illustrative (issue #28).

A block is covered when one of these holds:

- it is a mypy config (```ini/```toml with a mypy or plugin section): test_docs.py
  runs real mypy on each;
- it is a console block whose commands are all ``proxy-types explain ...`` or
  ``proxy-types --version``: this module runs them;
- the line before its fence is ``<!-- tested: tests/<file>.py::<test> -->``, naming a
  test that exists and that reads the doc the block is in;
- the line before its fence is ``<!-- illustrative: <why> -->``: output that depends on
  the user's code, a machine, a network or a CI service.

Python blocks not marked illustrative must compile; JSON blocks must parse.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
USER_DOCS = [REPO / "README.md", REPO / "examples" / "README.md",
             *sorted((REPO / "docs").glob("*.md"))]

_FENCE = re.compile(r"^```([^\n]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_MARK = re.compile(r"<!--\s*(illustrative|tested):\s*(.*?)\s*-->\s*\Z", re.DOTALL)
_RUN_HERE = re.compile(r"^\$ proxy-types (explain [\w-]+|--version)\s*(#.*)?$")


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int  # of the opening fence
    info: str
    body: str
    mark: str | None  # "illustrative" | "tested"
    mark_text: str

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(REPO)}:{self.line}"

    @property
    def commands(self) -> list[str]:
        return [line for line in self.body.splitlines() if line.startswith("$ ")]


def blocks_of(doc: Path, text: str | None = None) -> list[Block]:
    text = doc.read_text(encoding="utf-8") if text is None else text
    found = []
    for match in _FENCE.finditer(text):
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = _MARK.search(before)
        found.append(Block(doc, text.count("\n", 0, match.start()) + 1, match.group(1).strip(),
                           match.group(2), mark.group(1) if mark else None,
                           mark.group(2) if mark else ""))
    return found


def is_mypy_config(block: Block) -> bool:
    """The blocks test_docs.py runs mypy on."""
    if block.info == "ini":
        return "[mypy" in block.body
    return block.info == "toml" and ("[tool.mypy]" in block.body
                                     or "[tool.proxy_types]" in block.body)


def runs_here(block: Block) -> bool:
    return block.info == "console" and bool(block.commands) and all(
        _RUN_HERE.match(command) for command in block.commands)


def problem_of(block: Block) -> str | None:
    """Why ``block`` is not covered, or None."""
    if block.mark == "illustrative":
        return None if block.mark_text else f"{block.where}: illustrative, but says not why"
    if block.mark == "tested":
        match = re.fullmatch(r"(tests/[\w/]+\.py)::(\w+)", block.mark_text)
        if match is None:
            return f"{block.where}: tested: wants tests/<file>.py::<test>, got {block.mark_text!r}"
        test_file = REPO / match.group(1)
        if not test_file.is_file():
            return f"{block.where}: {match.group(1)} does not exist"
        source = test_file.read_text(encoding="utf-8")
        if not re.search(rf"^def {match.group(2)}\(", source, re.MULTILINE):
            return f"{block.where}: {match.group(1)} has no test {match.group(2)}"
        if block.doc.name not in source:
            return f"{block.where}: {match.group(1)} never reads {block.doc.name}"
        return None
    if is_mypy_config(block) or runs_here(block):
        return None
    return f"{block.where}: a ```{block.info} block no test runs and not marked illustrative"


ALL_BLOCKS = [block for doc in USER_DOCS for block in blocks_of(doc)]


def test_the_docs_have_blocks_of_each_kind() -> None:
    kinds = {block.info for block in ALL_BLOCKS}
    assert {"console", "python", "ini", "toml", "json", "yaml"} <= kinds, kinds
    assert any(runs_here(block) for block in ALL_BLOCKS)


def test_every_block_is_run_by_a_test_or_marked_illustrative() -> None:
    assert [problem for block in ALL_BLOCKS if (problem := problem_of(block))] == []


def test_an_unmarked_block_and_bad_marks_are_problems(tmp_path: Path) -> None:
    doc = REPO / "docs" / "cli.md"  # a real doc's name; the text is made up
    text = ("```console\n$ proxy-types check src/\n```\n\n"
            "<!-- illustrative: -->\n```python\nx = 1\n```\n"
            "<!-- tested: tests/test_doc_blocks.py::no_such_test -->\n```yaml\na: 1\n```\n"
            "<!-- tested: tests/test_doc_blocks.py::test_the_docs_have_blocks_of_each_kind -->\n"
            "```yaml\na: 1\n```\n"
            "<!-- tested: tests/cli/test_cli_check.py::test_version -->\n```yaml\na: 1\n```\n"
            "```console\n$ proxy-types explain proxy-cast\n```\n"
            "```ini\n[mypy]\nplugins = mypy_plugin\n```\n")
    problems = [problem_of(block) for block in blocks_of(doc, text)]
    assert problems[0] is not None and "no test runs" in problems[0]
    assert problems[1] is not None and "says not why" in problems[1]
    assert problems[2] is not None and "has no test no_such_test" in problems[2]
    assert problems[3] is None  # this file names cli.md
    assert problems[4] is not None and "never reads cli.md" in problems[4]
    assert problems[5:] == [None, None]


@pytest.mark.parametrize("block", [block for block in ALL_BLOCKS if block.info == "python"
                                   and block.mark != "illustrative"],
                         ids=lambda block: block.where)
def test_python_blocks_compile(block: Block) -> None:
    compile(block.body, block.where, "exec")


@pytest.mark.parametrize("block", [block for block in ALL_BLOCKS if block.info in ("json", "jsonc")],
                         ids=lambda block: block.where)
def test_json_blocks_parse(block: Block) -> None:
    body = re.sub(r"^\s*//.*$", "", block.body, flags=re.MULTILINE)
    json.loads(body.replace(': "..."', ': ""'))


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy_plugin", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


@pytest.mark.parametrize("block", [block for block in ALL_BLOCKS if runs_here(block)],
                         ids=lambda block: block.where)
def test_console_commands_run_as_shown(block: Block, tmp_path: Path) -> None:
    lines = block.body.splitlines()
    for index, line in enumerate(lines):
        if not line.startswith("$ "):
            continue
        command = line[2:].split("#", 1)[0].split()
        shown = []  # the output the doc shows, up to the next command
        for after in lines[index + 1:]:
            if after.startswith("$ "):
                break
            shown.append(after)
        result = _cli(*command[1:], cwd=tmp_path)
        assert result.returncode == 0 and result.stderr == "", (block.where, line, result.stderr)
        for expected in shown:
            # The guards line names how this machine built the package.
            pattern = re.escape(expected).replace(r"compiled\ \(proxy_types\._speedups\)",
                                                  r"(compiled\ \(proxy_types\._speedups\)|pure\ Python)")
            assert re.search(pattern, result.stdout), (block.where, expected, result.stdout)


def _keys(value: object) -> object:
    """The shape of a JSON value: an object's keys (and theirs), a list's first item's."""
    if isinstance(value, dict):
        return {key: _keys(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_keys(value[0])] if value else []
    return None


def _doc_json(doc: str, marker: str) -> dict[str, Any]:
    block = next(block for block in blocks_of(REPO / "docs" / doc)
                 if block.info == "json" and marker in block.body)
    return json.loads(block.body.replace(': "..."', ': ""'))  # type: ignore[no-any-return]


PROXY_ISINSTANCE = """\
import numbers

from proxy_types import IntegerProxy


def is_int(n: IntegerProxy) -> bool:
    return isinstance(n, numbers.Integral)
"""


def test_the_json_sample_of_cli_md_has_the_keys_of_a_real_report(tmp_path: Path) -> None:
    """docs/cli.md's ``--format json`` sample has the keys a real report of one
    isinstance finding has, at every level (the values are the doc's)."""
    (tmp_path / "model.py").write_text(PROXY_ISINSTANCE, encoding="utf-8")
    result = _cli("check", "--default-config", "--format", "json", "model.py", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    real = json.loads(result.stdout)
    sample = _doc_json("cli.md", '"exit_status"')
    for report in (real, sample):  # which codes were hidden is the run's, not the format's
        report["hidden"]["codes"] = {}
        for finding in report["findings"]:  # a list for torch numbers, else null
            finding["report"]["tracers"] = None
    assert _keys(sample) == _keys(real)


def _shown_lines(doc: str, line: int) -> list[str]:
    block = next(block for block in blocks_of(REPO / doc) if block.line == line)
    return block.body.splitlines()


def _block_after(doc: str, heading_text: str, info: str) -> Block:
    """The first ```info block of ``doc`` after the line holding ``heading_text``."""
    text = (REPO / doc).read_text(encoding="utf-8")
    start = text.count("\n", 0, text.index(heading_text)) + 1
    return next(block for block in blocks_of(REPO / doc)
                if block.info == info and block.line > start)


def _matches(shown: str, real: str) -> bool:
    """``real`` is the doc's line, where the doc elides with ``...`` and torch numbers
    its symbols (``s75``) as it likes."""
    pattern = re.escape(shown).replace(r"\.\.\.", ".*")
    pattern = re.sub(r"s\d+", r"s\\d+", pattern)
    return re.fullmatch(pattern, real) is not None


@pytest.mark.parametrize("script", ["bad_layernorm_symint.py", "good_layernorm_symint.py"])
def test_the_examples_readme_scripts_print_as_shown(script: str) -> None:
    pytest.importorskip("torch")
    lines = _block_after("examples/README.md", "## Running them", "console").body.splitlines()
    command = next(index for index, line in enumerate(lines) if line.endswith(f" {script}"))
    assert lines[command] == f"$ PYTHONPATH=.. python {script}"
    result = subprocess.run([sys.executable, script], cwd=REPO / "examples", capture_output=True,
                            text=True, timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [lines[command + 1]]


CLI_MD_MODEL = """\
import numbers

import torch


def size_of(n: torch.SymInt) -> int:
    if n > 3:
        return int(n)
    return 0


def is_integral(n: torch.SymInt) -> bool:
    # isinstance is False for a SymInt while tracing
    if isinstance(n, numbers.Integral):
        return True
    return False
"""


def test_the_check_sample_of_cli_md_is_real_output(tmp_path: Path) -> None:
    """docs/cli.md's first ``proxy-types check src/``: one isinstance finding, two
    hidden ``proxy-specialize`` ones (``int(n)``, ``if n > 3:``), the summary."""
    pytest.importorskip("torch")
    block = next(block for block in blocks_of(REPO / "docs" / "cli.md")
                 if block.body.startswith("$ proxy-types check src/\nsrc/"))
    shown = block.body.splitlines()
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "model.py").write_text(CLI_MD_MODEL, encoding="utf-8")
    result = _cli("check", "src/", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    real = result.stdout.splitlines()
    assert len(real) == len(shown) - 1, result.stdout
    mismatched = [(doc, out) for doc, out in zip(shown[1:], real) if not _matches(doc, out)]
    assert mismatched == []


def test_the_init_sample_of_cli_md_is_real_output(tmp_path: Path) -> None:
    """docs/cli.md's ``proxy-types init --preset torch-compile``, run twice, on the
    pyproject.toml its diff shows (two lines before the hunk)."""
    block = _block_after("docs/cli.md", "### Setting a project up", "console")
    lines = block.body.splitlines()
    hunk = lines.index(next(line for line in lines if line.startswith("@@")))
    before_hunk = int(re.match(r"@@ -(\d+)", lines[hunk]).group(1)) - 1  # type: ignore[union-attr]
    context = [line[1:] for line in lines[hunk + 1:]
               if line.startswith((" ", "-")) and not line.startswith("---")]
    original = ["[project]", 'name = "demo"'][:before_hunk] + context
    (tmp_path / "pyproject.toml").write_text("\n".join(original) + "\n", encoding="utf-8")
    commands = [index for index, line in enumerate(lines) if line.startswith("$ ")]
    assert len(commands) == 2
    for start, end in zip(commands, [*commands[1:], len(lines)]):
        result = _cli(*lines[start][2:].split()[1:], cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines() == lines[start + 1:end]


def test_the_audit_sample_of_audit_md_is_real_output(tmp_path: Path) -> None:
    """docs/audit.md's model, run by the command the doc gives: its table, and its
    report's first finding."""
    pytest.importorskip("torch")
    model = _block_after("docs/audit.md", "For this model traced by", "python")
    table = _block_after("docs/audit.md", "For this model traced by", "text")
    (tmp_path / "model.py").write_text(model.body, encoding="utf-8")
    command = "python -m proxy_types.audit --output audit.json model.py"
    assert f"`{command}` prints" in (REPO / "docs" / "audit.md").read_text(encoding="utf-8")
    result = subprocess.run([sys.executable, *command.split()[1:]], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 0, result.stdout + result.stderr  # the script's own status
    output = result.stderr.splitlines()  # the table goes where warnings go, not to stdout
    real = output[output.index(table.body.splitlines()[0]):] if table.body.splitlines()[0] \
        in output else output
    shown = table.body.splitlines()
    assert len(real) == len(shown), result.stdout
    assert [(doc, out) for doc, out in zip(shown, real) if not _matches(doc, out)] == []
    written: dict[str, Any] = json.loads((tmp_path / "audit.json").read_text(encoding="utf-8"))
    sample = _doc_json("audit.md", '"source": "runtime"')
    assert _keys(sample) == _keys(written)  # a list's shape is its first item's
    assert sample["findings"] == written["findings"][:1]
