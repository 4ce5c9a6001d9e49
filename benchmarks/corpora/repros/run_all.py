"""Run every reproduction script and print one table row per case.

    python benchmarks/corpora/repros/run_all.py [--only PREFIX ...] [--thunder-python PATH]

torch_*.py run with this Python (it needs torch 2.13); thunder_*.py run with
``--thunder-python`` (default: $THUNDER_PYTHON, else /work/venv-thunder/bin/python),
a separate environment with torch 2.13 and lightning-thunder 0.2.6 (see the
README).  Without one, the thunder scripts are reported as skipped.

Exit code 0 when every script that ran reproduced all its cases, 1 otherwise,
2 for bad arguments.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_THUNDER_PYTHON = Path("/work/venv-thunder/bin/python")
#: One script may take a while (thunder traces every call), never this long.
TIMEOUT_SECONDS = 900

_RESULT = re.compile(r"^(?:REPRODUCED \((?P<outcome>[^)]+)\)|(?P<failed>NOT REPRODUCED)) "
                     r"(?P<case>\S+) (?P<site>\S+): (?P<detail>.*)$")


@dataclass(frozen=True)
class Row:
    case: str
    site: str
    status: str  # "reproduced", "NOT reproduced", "skipped", "script failed"
    outcome: str
    detail: str


def scripts(only: list[str] | None) -> list[Path]:
    found = sorted(HERE.glob("torch_*.py")) + sorted(HERE.glob("thunder_*.py"))
    return [path for path in found if not only or any(path.stem.startswith(p) for p in only)]


def run_script(path: Path, python: str) -> tuple[list[Row], float]:
    """The rows one script printed (or one row saying why it printed none) and its seconds."""
    started = time.perf_counter()
    try:
        result = subprocess.run([python, str(path)], cwd=HERE, capture_output=True, text=True,
                                timeout=TIMEOUT_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        return [Row(path.stem, "-", "script failed", "-", f"timed out after {TIMEOUT_SECONDS} s")], \
            time.perf_counter() - started
    seconds = time.perf_counter() - started
    rows = []
    for line in result.stdout.splitlines():
        match = _RESULT.match(line)
        if match is None:
            continue
        if match["failed"]:
            rows.append(Row(match["case"], match["site"], "NOT reproduced", "-", match["detail"]))
        else:
            rows.append(Row(match["case"], match["site"], "reproduced", match["outcome"],
                            match["detail"]))
    if not rows or result.returncode not in (0, 1):
        lines = (result.stderr.strip() or result.stdout.strip() or "no output").splitlines()
        rows.append(Row(path.stem, "-", "script failed", "-",
                        f"exit code {result.returncode}: {lines[-1][:200]}"))
    return rows, seconds


def table(rows: list[Row]) -> str:
    lines = ["| case | site | status | outcome | detail |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        detail = row.detail.replace("|", "\\|")
        if len(detail) > 110:
            detail = detail[:107] + "..."
        lines.append(f"| {row.case} | {row.site} | {row.status} | {row.outcome} | {detail} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", action="append", metavar="PREFIX",
                        help="run only scripts whose name starts with PREFIX (repeatable)")
    parser.add_argument("--thunder-python", type=Path,
                        default=Path(os.environ.get("THUNDER_PYTHON", DEFAULT_THUNDER_PYTHON)),
                        help="Python with lightning-thunder 0.2.6 for the thunder_*.py scripts")
    options = parser.parse_args(argv)
    selected = scripts(options.only)
    if not selected:
        print(f"run_all.py: error: no script matches {options.only}", file=sys.stderr)
        return 2
    thunder_python = options.thunder_python if options.thunder_python.is_file() else None
    rows: list[Row] = []
    for path in selected:
        if path.stem.startswith("thunder_") and thunder_python is None:
            rows.append(Row(path.stem, "-", "skipped", "-",
                            f"no thunder environment at {options.thunder_python}"))
            continue
        python = str(thunder_python) if path.stem.startswith("thunder_") else sys.executable
        print(f"running {path.name}", file=sys.stderr, flush=True)
        script_rows, seconds = run_script(path, python)
        print(f"  {len(script_rows)} cases in {seconds:.0f} s", file=sys.stderr, flush=True)
        rows.extend(script_rows)
    print(table(rows))
    counts: dict[str, int] = {}
    for row in rows:
        key = row.outcome if row.status == "reproduced" else row.status
        counts[key] = counts.get(key, 0) + 1
    print("Totals: " + ", ".join(f"{key} {count}" for key, count in sorted(counts.items())))
    failed = [row for row in rows if row.status in ("NOT reproduced", "script failed")]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
