"""Every runtime-confirmed site of ground_truth.toml with the command that reproduces it.

    python benchmarks/corpora/sites.py            # the Markdown table on stdout
    python benchmarks/corpora/sites.py --write    # also into docs/real-world.md

docs/real-world.md holds the table between two marker comments; a test checks
that it is the table this script makes from the ground truth.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GROUND_TRUTH = HERE / "ground_truth.toml"
DOC = HERE.parents[1] / "docs" / "real-world.md"
BEGIN = "<!-- confirmed sites: made by benchmarks/corpora/sites.py --write -->"
END = "<!-- confirmed sites: end -->"
#: How each corpus's reproductions are run (thunder needs its own environment).
PYTHON = {"torch": "python", "thunder": ".thunder/python"}


def confirmed_sites(path: Path = GROUND_TRUTH) -> list[dict[str, object]]:
    """The ``[[site]]`` entries confirmed at run time (a human fix's sites are not)."""
    from proxy_types._settings_files import read_toml

    data = read_toml(path)
    human_fix = {name for name, table in data.get("corpus", {}).items()
                 if table.get("basis", "runtime") != "runtime"}
    return [site for site in data.get("site", []) if site["corpus"] not in human_fix]


def table(sites: list[dict[str, object]]) -> str:
    """The Markdown table: one row per site, in corpus, file and line order."""
    rows = ["| corpus | site | function | kind | outcome | reproduction |",
            "| --- | --- | --- | --- | --- | --- |"]
    ordered = sorted(sites, key=lambda site: (str(site["corpus"]), str(site["file"]),
                                              int(str(site["line"]))))
    for site in ordered:
        script, _, case = str(site["repro"]).partition("::")
        python = PYTHON.get(str(site["corpus"]), "python")
        command = f"`{python} benchmarks/corpora/repros/{script}.py --case {case}`"
        rows.append(f"| {site['corpus']} | `{site['file']}:{site['line']}` | "
                    f"`{site.get('function', '')}` | {site['kind']} | {site['outcome']} | "
                    f"{command} |")
    return "\n".join(rows) + "\n"


def with_table(document: str, made: str) -> str:
    """``document`` with the text between the markers replaced by ``made``."""
    start, end = document.index(BEGIN) + len(BEGIN), document.index(END)
    return document[:start] + "\n\n" + made + "\n" + document[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"update {DOC.name}")
    options = parser.parse_args(argv)
    made = table(confirmed_sites())
    print(made, end="")
    if options.write:
        DOC.write_text(with_table(DOC.read_text(encoding="utf-8"), made), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
