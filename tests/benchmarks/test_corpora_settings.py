"""The corpus runner's thunder settings are the ones docs/plugin.md recommends."""

from __future__ import annotations

import configparser
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from benchmarks.corpora.run import THUNDER_TRACED  # noqa: E402

SECTION = "mypy.plugins.proxy_types"


def proxy_types_settings(ini: str) -> dict[str, str]:
    parser = configparser.ConfigParser()
    parser.read_string(ini)
    return {key: " ".join(value.split()) for key, value in parser[SECTION].items()}


def test_the_thunder_corpus_runs_the_recommended_thunder_settings() -> None:
    guide = (ROOT / "docs" / "plugin.md").read_text(encoding="utf-8")
    recommended = guide[guide.index("\nthunder (lightning-thunder"):]
    block = re.search(r"```ini\n(.*?)```", recommended, re.DOTALL)
    assert block is not None, "no ini block after the thunder heading of docs/plugin.md"
    documented = proxy_types_settings(block.group(1))
    assert documented == proxy_types_settings(f"[{SECTION}]\n{THUNDER_TRACED}")
    assert documented["traced_functions"].startswith("thunder.torch.*")
