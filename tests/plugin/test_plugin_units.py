"""Unit tests of the parts that need no mypy run."""

from __future__ import annotations

from pathlib import Path

import pytest

from mypy_plugin import errors
from mypy_plugin.analysis.tracers import failing_tracers
from mypy_plugin.config import ProxyTypesConfig, is_installed_library
from mypy_plugin.main import ProxyTypesPlugin
from tests.fresh_python import assert_probe_passes


def test_all_codes_are_named_and_described() -> None:
    codes = [code.code for code in errors.ALL_CODES]
    assert codes == ["proxy-isinstance", "proxy-concretize", "proxy-base", "proxy-config",
                     "proxy-cast", "proxy-specialize", "proxy-internal"]
    # Guards are sound: their code is off until enable_error_code names it.
    assert [code.code for code in errors.ALL_CODES if not code.default_enabled] == [
        "proxy-specialize"]
    assert all(code.description and "\n" not in code.description for code in errors.ALL_CODES)


def test_hook_lookups_are_answered_once_per_name(tmp_path: Path) -> None:
    from mypy.options import Options

    config_file = tmp_path / "mypy.ini"
    config_file.write_text("[mypy.plugins.proxy_types]\ndynamic_number_classes = app.Num\n")
    options = Options()
    options.config_file = str(config_file)
    plugin = ProxyTypesPlugin(options)
    first = plugin.get_method_hook("builtins.int.__lt__")
    assert first is not None and plugin.get_method_hook("builtins.int.__lt__") is first
    assert plugin.get_method_hook("builtins.int.__gt__") is not first
    assert plugin.get_method_hook("builtins.list.append") is None
    assert plugin.get_base_class_hook("app.Num") is plugin.get_base_class_hook("app.Num")
    assert plugin.get_base_class_hook("app.Other") is None
    # Each plugin instance answers from its own configuration.
    assert ProxyTypesPlugin(Options()).get_base_class_hook("app.Num") is None


@pytest.mark.parametrize(
    ("path", "installed"),
    [
        ("/venv/lib/python3.11/site-packages/torch/_refs/__init__.py", True),
        ("/usr/lib/python3/dist-packages/numpy/core.py", True),
        ("/venv/lib/python3.11/site-packages/mypy/typeshed/stdlib/math.pyi", True),
        ("C:\\venv\\Lib\\site-packages\\torch\\__init__.py", True),
        ("site-packages/pkg/mod.py", True),
        ("/home/me/app/mod.py", False),
        ("/home/me/my-site-packages-notes/mod.py", False),
        ("typeshed_tools/mod.py", False),
    ],
)
def test_installed_library_is_decided_by_path_components(path: str, installed: bool) -> None:
    assert is_installed_library(path) is installed


def test_exempt_patterns(tmp_path: Path) -> None:
    config_file = tmp_path / "mypy.ini"
    config_file.write_text("[mypy.plugins.proxy_types]\nexempt_modules = pkg.*, single\n")
    config = ProxyTypesConfig(str(config_file))
    assert config.is_exempt("pkg") and config.is_exempt("pkg.sub.mod")
    assert config.is_exempt("single")
    assert not config.is_exempt("single.child") and not config.is_exempt("pkgother")
    assert not config.is_exempt("proxy_types")  # the setting replaces the default


def test_defaults_and_fingerprint(tmp_path: Path) -> None:
    default = ProxyTypesConfig(None)
    assert default.is_exempt("proxy_types._guards") and not default.strict_isinstance
    config_file = tmp_path / "pyproject.toml"
    config_file.write_text("[tool.proxy_types]\nstrict_isinstance = true\n")
    strict = ProxyTypesConfig(str(config_file))
    assert strict.strict_isinstance
    assert strict.fingerprint() != default.fingerprint()


def test_guarded_classes_and_concretizing_functions_are_read_in_any_order(tmp_path: Path) -> None:
    config_file = tmp_path / "pyproject.toml"
    config_file.write_text("[tool.proxy_types]\nguarded_number_classes = ['lib.G']\n"
                           "concretizing_functions = ['lib.pyval']\n"
                           "dynamic_number_classes = ['lib.T', 'lib.G']\n")
    config = ProxyTypesConfig(str(config_file))
    assert config.guarded_number_classes == ("lib.G",)
    assert config.concretizing_functions == ("lib.pyval",)
    data = config.to_data()
    assert data["guarded_number_classes"] == ["lib.G"]
    assert data["concretizing_functions"] == ["lib.pyval"]
    config_file.write_text("[tool.proxy_types]\ndynamic_number_classes = ['lib.T', 'lib.G']\n")
    assert ProxyTypesConfig(str(config_file)).fingerprint() != config.fingerprint()


def test_format_fields_are_numbered_as_str_format_numbers_them() -> None:
    from mypy_plugin.checks.format_specs import Field, SpecPart, formatted_fields

    template = "{:{}}|{}|{x:.{p}f}|{!r:>4}|{.real:d}"
    assert formatted_fields(template) == (
        Field(0, (SpecPart(argument=1, nested=True),)),
        Field(2, ()),
        Field("x", (SpecPart("."), SpecPart(argument="p", nested=True), SpecPart("f"))),
        Field(3, (SpecPart(">4"),), converted=True),
    )  # !r formats the text of the argument; .real a part of it, which is left out
    # the real str.format numbers them so: argument 2 fills the second outer field
    assert template.format(7, ">3", 8, "r", 9, x=1.5, p="2") == "  7|8|1.50| 'r'|9"
    assert formatted_fields("{:d") == ()  # rejected by str.format: no fields


def test_unknown_key_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config_file = tmp_path / "setup.cfg"
    config_file.write_text("[mypy.plugins.proxy_types]\nstrict = true\n")
    with pytest.raises(SystemExit) as exit_info:
        ProxyTypesConfig(str(config_file))
    assert exit_info.value.code == 2
    assert 'unknown setting "strict"' in capsys.readouterr().err


def test_bad_setting_raises_configuration_error_when_asked(tmp_path: Path) -> None:
    from proxy_types import ConfigurationError

    config_file = tmp_path / "pyproject.toml"
    config_file.write_text('[tool.proxy_types]\nstrict_isinstance = "yes"\n')
    with pytest.raises(ConfigurationError) as raised:
        ProxyTypesConfig(str(config_file), raise_errors=True)
    assert str(raised.value) == (f'{config_file}:2: error: [proxy_types] strict_isinstance: '
                                 'expected true or false, got "yes"')
    config_file.write_text("[tool.proxy_types]\nstrict_isinstance = true\n")
    assert ProxyTypesConfig(str(config_file), raise_errors=True).strict_isinstance


def test_plugin_reads_the_runtime_table_without_running_the_runtime() -> None:
    probe = (
        "import sys\n"
        "from mypy_plugin.number_table import table\n"
        "assert 'proxy_types._proxies' not in sys.modules, 'runtime package was executed'\n"
        "import proxy_types._table as runtime\n"
        "assert table is not runtime\n"
        "assert table.STATIC_NUMBER_TYPES == runtime.STATIC_NUMBER_TYPES\n"
        "assert [t.fullname for t in table.DYNAMIC_NUMBER_TYPES] == "
        "[t.fullname for t in runtime.DYNAMIC_NUMBER_TYPES]\n"
        "assert table.CONCRETIZING_FUNCTIONS == runtime.CONCRETIZING_FUNCTIONS\n"
    )
    assert_probe_passes(probe)


def test_messages_name_each_class_once_in_order() -> None:
    from mypy_plugin.findings import ISINSTANCE, Report

    report = Report("proxy-isinstance", ISINSTANCE, "IntegerProxy", "isinstance",
                    ("builtins.int", "builtins.float", "builtins.int", "numbers.Real",
                     "builtins.float"))
    assert "static number classes (int, float, numbers.Real) misclassifies" in \
        errors.render(report)


def test_flow_settings_are_read_and_cached(tmp_path: Path) -> None:
    config_file = tmp_path / "mypy.ini"
    config_file.write_text("[mypy.plugins.proxy_types]\n"
                           "traced_functions =\n    pkg.ops.*,\n    @pkg.register,\n"
                           "symbolic_shapes = true\n"
                           "static_only_aliases = pkg.IntOnly, pkg.FloatOnly\n"
                           "static_parameters = dim, *_dims\n")
    config = ProxyTypesConfig(str(config_file), raise_errors=True)
    assert config.traced_functions == ("pkg.ops.*", "@pkg.register")
    assert config.symbolic_shapes is True
    assert config.static_only_aliases == ("pkg.IntOnly", "pkg.FloatOnly")
    data = config.to_data()
    assert data["traced_functions"] == ["@pkg.register", "pkg.ops.*"]
    assert data["symbolic_shapes"] is True
    assert data["static_only_aliases"] == ["pkg.FloatOnly", "pkg.IntOnly"]
    assert config.static_parameters == ("dim", "*_dims")
    assert data["static_parameters"] == ["*_dims", "dim"]
    default = ProxyTypesConfig(None)
    assert default.traced_functions == () and default.symbolic_shapes is False
    assert default.fingerprint() != config.fingerprint()


def test_tracers_are_read_in_the_tables_order_and_cached(tmp_path: Path) -> None:
    config_file = tmp_path / "mypy.ini"
    config_file.write_text("[mypy.plugins.proxy_types]\ntracers = compile, make_fx\n")
    config = ProxyTypesConfig(str(config_file), raise_errors=True)
    assert config.tracers == ("make_fx", "compile")
    assert config.to_data()["tracers"] == ["make_fx", "compile"]
    default = ProxyTypesConfig(None)
    assert default.tracers == ("make_fx", "export", "compile")
    assert "tracers" not in default.to_data()  # the cache of configs without it is kept
    assert default.fingerprint() != config.fingerprint()


def test_reports_name_only_the_tracers_they_fail_under() -> None:
    from mypy_plugin.analysis.kinds import Dynamic
    from mypy_plugin.findings import Reason

    config = ProxyTypesConfig(None)
    size = Dynamic("SymInt", "torch", Reason("shape"))
    assert failing_tracers("isinstance", size, config) == ("make_fx", "export")
    assert failing_tracers("torch.tensor", size, config) == ("make_fx",)
    assert failing_tracers("f-string", size, config) == ("compile",)
    assert failing_tracers("truth test", size, config) is None  # every tracer: no filter
    assert failing_tracers("isinstance", size._replace(kind="silent"), config) is None
    config.tracers = ("compile",)
    assert failing_tracers("isinstance", size, config) == ()  # hidden
    assert failing_tracers("builtins.str", size, config) == ("compile",)


@pytest.mark.parametrize(
    ("settings", "python_type", "name", "kind"),
    [
        ("", "int", "SymInt", "torch"),
        ("", "float", "SymFloat", "torch"),
        ("", "number", "SymInt | SymFloat", "torch"),
        ("dynamic_number_classes = thunder.core.proxies.NumberProxy\n", "int", "NumberProxy",
         "silent"),
        ("migrate_classes = legacy.NumberProxy\n", "float", "NumberProxy", "silent"),
    ],
)
def test_flow_values_are_shown_as_the_dynamic_classes_in_play(
    tmp_path: Path, settings: str, python_type: str, name: str, kind: str
) -> None:
    from mypy.options import Options

    from mypy_plugin.findings import Reason

    config_file = tmp_path / "mypy.ini"
    config_file.write_text("[mypy.plugins.proxy_types]\ntraced_functions = pkg.*\n" + settings)
    options = Options()
    options.config_file = str(config_file)
    flow = ProxyTypesPlugin(options).dynamic.flow
    assert flow is not None and flow.traces_functions
    reason = Reason("flow", 'parameter "n" of traced function "f" (line 1)')
    found = flow.flow_dynamic(python_type, reason)
    assert (found.name, found.kind, found.reason) == (name, kind, reason)


def test_reason_is_shown_only_when_the_type_does_not_tell_it() -> None:
    from mypy_plugin.findings import CONVERSION, Reason, Report

    flow = Report("proxy-concretize", CONVERSION, "SymInt", "int()",
                  reason=Reason("flow", 'parameter "n" of traced function "f" (line 3)'))
    declared = Report("proxy-concretize", CONVERSION, "SymInt", "int()",
                      reason=Reason("declared", 'declared as "SymInt"'))
    assert errors.render(flow).endswith(
        ' (reason: parameter "n" of traced function "f" (line 3))')
    assert errors.render(declared) == errors.render(
        Report("proxy-concretize", CONVERSION, "SymInt", "int()"))
    assert "reason" not in errors.render(declared)
