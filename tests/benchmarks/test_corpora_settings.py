"""The corpus runner's thunder settings are the ones docs/plugin.md recommends."""

from __future__ import annotations

import configparser
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT / "benchmarks" / "corpora"
SECTION = "mypy.plugins.proxy_types"


def thunder_traced() -> str:
    """run.THUNDER_TRACED; run.py imports its neighbours as top-level modules."""
    sys.path.insert(0, str(CORPORA))
    spec = importlib.util.spec_from_file_location("corpora_run", CORPORA / "run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    settings = module.THUNDER_TRACED
    assert isinstance(settings, str)
    return settings


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
    assert documented == proxy_types_settings(f"[{SECTION}]\n{thunder_traced()}")
    assert documented["traced_functions"].startswith("thunder.torch.*")
