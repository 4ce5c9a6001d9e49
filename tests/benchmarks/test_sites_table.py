"""docs/real-world.md lists every runtime-confirmed site with its reproduction command."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.corpora import sites  # noqa: E402


def test_the_documented_table_is_the_ground_truth() -> None:
    made = sites.table(sites.confirmed_sites())
    document = sites.DOC.read_text(encoding="utf-8")
    assert sites.with_table(document, made) == document, (
        "docs/real-world.md is out of date: run python benchmarks/corpora/sites.py --write")


def test_every_confirmed_site_is_a_row_with_a_command() -> None:
    confirmed = sites.confirmed_sites()
    rows = sites.table(confirmed).splitlines()[2:]
    assert len(rows) == len(confirmed) >= 100
    assert all("benchmarks/corpora/repros/" in row and "--case " in row for row in rows)
    # A human fix's sites are no runtime confirmations: none of them is listed.
    assert not any(site["corpus"] == "thunder-flip" for site in confirmed)


def test_a_stale_table_is_replaced_whole() -> None:
    stale = f"before\n{sites.BEGIN}\n\n| old |\n\n{sites.END}\nafter\n"
    assert sites.with_table(stale, "| new |\n") == f"before\n{sites.BEGIN}\n\n| new |\n\n{sites.END}\nafter\n"
