"""Bytecodes the plugin's own functions execute in one cold in-process mypy run.

Run ``python -m benchmarks.count_bytecodes --corpus thunder``.  A tracer counts
each bytecode run in a frame of ``mypy_plugin`` (callees in the standard
library and compiled mypy are not counted), per function.  The count is
exact and the same on every run of the same code, so it tells which function a
change made cheaper, in a minute, where an instruction count (valgrind, the
verdict) takes ten and the time tools need many runs to see a few percent.
It is a guide, not the verdict: a bytecode may be a dict lookup or a call
into mypy, and the tracer slows the plugin tenfold (so no times are shown).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import (  # noqa: E402
    ROOT,
    corpus_tool_parser,
    render_table,
    run_corpus_tool,
)
from benchmarks.bench_plugin import run_in_process, write_configs  # noqa: E402
from benchmarks.corpus import corpora  # noqa: E402

PLUGIN_DIR = str(ROOT / "mypy_plugin")


@dataclass(frozen=True)
class FunctionCount:
    """One plugin function: bytecodes run in its own frames, and how often it ran."""

    function: str  # path:first line qualified name
    bytecodes: int
    calls: int


@dataclass(frozen=True)
class BytecodeCount:
    corpus: str
    total: int  # every bytecode run in plugin frames
    functions: list[FunctionCount]  # costliest first


class _Tracer:
    """``sys.settrace`` hooks counting the bytecodes of plugin frames only."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.bytecodes: Counter[CodeType] = Counter()
        self.calls: Counter[CodeType] = Counter()

    def on_call(self, frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if not code.co_filename.startswith(self.directory):
            return None  # mypy's and the standard library's frames: not traced
        frame.f_trace_opcodes = True
        self.calls[code] += 1
        return self.in_frame

    def in_frame(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            self.bytecodes[frame.f_code] += 1
        return self.in_frame

    @contextmanager
    def tracing(self) -> Iterator[None]:
        sys.settrace(self.on_call)
        try:
            yield
        finally:
            sys.settrace(None)


def _label(code: CodeType) -> str:
    path = Path(code.co_filename)
    shown = path.relative_to(ROOT) if ROOT in path.parents else path
    name = getattr(code, "co_qualname", code.co_name)  # Python 3.11+; the plain name before
    return f"{shown}:{code.co_firstlineno} {name}"


def count_corpus(name: str, workdir: Path) -> BytecodeCount:
    """One cold run with the plugin on corpus ``name``, bytecodes counted."""
    workdir = workdir.resolve()
    (corpus,) = corpora([name], workdir)
    config = write_configs(corpus, workdir)["with"]
    tracer = _Tracer(PLUGIN_DIR)
    run_in_process(corpus, config, workdir / "cache" / "bytecodes", tracer.tracing)
    functions = [FunctionCount(_label(code), count, tracer.calls[code])
                 for code, count in tracer.bytecodes.most_common()]
    return BytecodeCount(corpus.name, sum(tracer.bytecodes.values()), functions)


def format_rows(count: BytecodeCount, limit: int = 25) -> list[list[str]]:
    """Rows of the table (header first); the last row is the total."""
    rows = [["plugin function", "bytecodes", "calls", "per call"]]
    for function in count.functions[:limit]:
        rows.append([function.function, f"{function.bytecodes:,}", f"{function.calls:,}",
                     f"{function.bytecodes / max(function.calls, 1):.0f}"])
    calls = sum(function.calls for function in count.functions)
    rows.append([f"all plugin functions ({count.corpus})", f"{count.total:,}", f"{calls:,}", ""])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = corpus_tool_parser(__doc__)
    parser.add_argument("--limit", type=int, default=25, help="functions shown (default: 25)")
    arguments = parser.parse_args(argv)

    def text(count: BytecodeCount) -> str:
        rows = format_rows(count, arguments.limit)
        return render_table(f"bytecodes in plugin code: {count.corpus}", rows[0], rows[1:])

    return run_corpus_tool("count_bytecodes", arguments.json,
                           lambda: count_corpus(arguments.corpus, arguments.workdir),
                           asdict, text)


if __name__ == "__main__":
    sys.exit(main())
