"""A warm mypy run loads only the plugin's dispatch layer, not its checking modules.

A run whose modules are all cached constructs the plugin and asks it for
``report_config_data`` but for no hook, so the checking modules would be pure
start-up cost there (docs/performance.md).  Each case runs in a fresh
interpreter, because this one has imported every plugin module already.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

CHECKING_MODULES = (
    "mypy_plugin.checks.bases",
    "mypy_plugin.checks.bare_conditions",
    "mypy_plugin.checks.casts",
    "mypy_plugin.checks.conversions",
    "mypy_plugin.checks.comparisons",
    "mypy_plugin.analysis.dynamic",
    "mypy_plugin.checks.isinstance_calls",
    "mypy_plugin.checks.migrate",
    "mypy_plugin.analysis.semanal",
)


def loaded_after(steps: str) -> set[str]:
    """The checking modules imported after constructing the plugin and running ``steps``."""
    script = textwrap.dedent(
        """\
        import json, sys
        from mypy.options import Options
        from mypy.plugin import ReportConfigContext
        import mypy_plugin

        plugin = mypy_plugin.plugin("test")(Options())
        plugin.report_config_data(ReportConfigContext("app", "app.py", is_check=True))
        {steps}
        print(json.dumps(sorted(m for m in sys.modules if m.startswith("mypy_plugin."))))
        """
    ).format(steps=steps)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout)) & set(CHECKING_MODULES)


def test_constructing_the_plugin_imports_no_checking_module() -> None:
    assert loaded_after("") == set()


def test_the_first_lookup_imports_the_checks_even_for_a_name_without_hooks() -> None:
    # Which checks a name gets is declared in the check modules (registry.py): a cold
    # run's first lookup imports them all, a warm run asks for no lookup.
    assert loaded_after("assert plugin.get_function_hook('builtins.len') is None") \
        == set(CHECKING_MODULES)


@pytest.mark.parametrize(
    ("step", "imported"),
    [
        ("plugin.get_function_hook('builtins.isinstance')", "mypy_plugin.checks.isinstance_calls"),
        ("plugin.get_function_signature_hook('builtins.float')", "mypy_plugin.checks.conversions"),
        ("plugin.get_method_hook('builtins.int.__lt__')", "mypy_plugin.checks.comparisons"),
        ("plugin.get_base_class_hook('builtins.float')", "mypy_plugin.checks.bases"),
        ("plugin.table", "mypy_plugin.checks.casts"),
        ("plugin.dynamic", "mypy_plugin.analysis.dynamic"),
    ],
)
def test_a_hook_imports_its_module_on_first_use(step: str, imported: str) -> None:
    assert imported in loaded_after(f"assert {step} is not None")
