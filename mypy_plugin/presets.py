"""The recommended settings for each kind of project, in one place.

``proxy-types init --preset NAME`` writes one into the project's config file,
``proxy-types check --preset NAME`` uses one without writing anything, and the
blocks in docs/plugin.md and docs/migration.md are tested against these
(tests/cli/test_presets.py).  Each is the configuration measured in
docs/real-world.md.  Nothing here imports mypy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

#: Settings of mypy's own section whose value is a list that a preset adds to.
LIST_SETTINGS = ("plugins",)


class Preset(NamedTuple):
    """mypy settings (``[mypy]``) and plugin settings (``[mypy.plugins.proxy_types]``).

    A value is a bool or a tuple of entries; ``plugins`` always loads the plugin.
    """

    name: str
    summary: str
    mypy: Mapping[str, bool | tuple[str, ...]] = {}
    plugin: Mapping[str, bool | tuple[str, ...]] = {}

    @property
    def mypy_settings(self) -> dict[str, bool | tuple[str, ...]]:
        """The ``[mypy]`` settings, ``plugins = mypy_plugin`` first."""
        return {"plugins": ("mypy_plugin",), **self.mypy}

    def as_ini(self) -> str:
        """The preset as a mypy.ini file (long lists one entry a line)."""
        lines = ["[mypy]"]
        lines += [ini_line(key, value) for key, value in self.mypy_settings.items()]
        lines += ["", "[mypy.plugins.proxy_types]"]
        lines += [ini_line(key, value) for key, value in self.plugin.items()]
        return "\n".join(lines) + "\n"

    def as_toml(self) -> str:
        """The preset as pyproject.toml tables."""
        lines = ["[tool.mypy]"]
        lines += [toml_line(key, value) for key, value in self.mypy_settings.items()]
        lines += ["", "[tool.proxy_types]"]
        lines += [toml_line(key, value) for key, value in self.plugin.items()]
        return "\n".join(lines) + "\n"


def ini_value(value: bool | tuple[str, ...]) -> str:
    """A value as an ini file spells it (lists comma-separated)."""
    if isinstance(value, bool):
        return "True" if value else "False"
    return ", ".join(value)


#: Longer lines put each entry of a list on its own line.
LINE_LENGTH = 88


def ini_line(key: str, value: bool | tuple[str, ...]) -> str:
    """``key = value``; a list too long for one line continues on indented lines."""
    one = f"{key} = {ini_value(value)}"
    if isinstance(value, tuple) and len(value) > 1 and len(one) > LINE_LENGTH:
        return f"{key} =\n" + ",\n".join(f"    {entry}" for entry in value)
    return one


def toml_value(value: bool | tuple[str, ...]) -> str:
    """A value as TOML spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "[" + ", ".join(f'"{entry}"' for entry in value) + "]"


def toml_line(key: str, value: bool | tuple[str, ...]) -> str:
    """``key = value`` in TOML; a list too long for one line has one entry a line."""
    one = f"{key} = {toml_value(value)}"
    if isinstance(value, tuple) and len(value) > 1 and len(one) > LINE_LENGTH:
        return f"{key} = [\n" + "".join(f'    "{entry}",\n' for entry in value) + "]"
    return one


_THUNDER = "thunder.core.proxies.NumberProxy"
# Which torch tracers each preset's users run (the ``tracers`` setting; it only
# concerns torch's Sym types, so the thunder, jax and migrate presets leave it out).
# Model code compiled with torch.compile: Dynamo traces it, and answers isinstance
# checks on sizes itself.  torch's library code: decompositions and meta functions run
# under make_fx's tracing whatever the entry point (torch.compile's AOTAutograd too),
# and modules under all three, so each tracer counts.
_COMPILE_ONLY = ("compile",)
_EVERY_TRACER = ("make_fx", "export", "compile")
_CHECK_TYPE = "thunder.core.baseutils.check_type"
_STATIC_PARAMETERS = ("dim", "dims", "*_dim", "*_dims", "ndim", "rank")

PRESETS: dict[str, Preset] = {preset.name: preset for preset in (
    Preset(
        "torch-compile",
        "model code compiled with torch.compile and dynamic shapes: tensor sizes may be "
        "SymInts; their conversions and conditions (proxy-specialize) are shown",
        # In the plugin's section: dmypy rejects a plugin code in [mypy] (docs/plugin.md).
        plugin={"enable_error_code": ("proxy-specialize",), "symbolic_shapes": True,
                "tracers": _COMPILE_ONLY},
    ),
    Preset(
        "torch-library",
        "torch library code (operators, decompositions, references, meta functions, "
        "modules), as measured on torch 2.13",
        plugin={
            "enable_error_code": ("proxy-specialize",),
            "traced_functions": ("torch.nn.functional.*", "torch.nn.modules.*",
                                 "torch._decomp.*", "torch._refs.*",
                                 "torch._meta_registrations.*", "torch._prims_common.*"),
            "symbolic_shapes": True,
            "static_only_aliases": ("torch._prims_common.IntWithoutSymInt",
                                    "torch._prims_common.FloatWithoutSymFloat"),
            "static_parameters": (*_STATIC_PARAMETERS, "idx", "*_mode"),
            "tracers": _EVERY_TRACER,
        },
    ),
    Preset(
        "thunder",
        "lightning-thunder 0.2.6 and later (proxies no longer subclass numbers)",
        plugin={
            "dynamic_number_classes": (_THUNDER,),
            "isinstance_functions": (_CHECK_TYPE,),
            "traced_functions": ("thunder.torch.*", "thunder.clang.*",
                                 "thunder.core.prims.*meta", "!thunder.core.prims._check_*",
                                 "!thunder.core.prims.*unpack_*"),
            "static_parameters": _STATIC_PARAMETERS,
            "concretizing_functions": ("thunder.core.utils.get_numberlike_value",),
        },
    ),
    Preset(
        "jax",
        "JAX: tracers are jax.core.Tracer; the arguments of jitted functions are traced",
        plugin={
            "dynamic_number_classes": ("jax.core.Tracer",),
            "traced_functions": ("@jax.jit", "@jax.vmap", "@jax.grad"),
            "static_parameters": ("axis", "*_axis"),
        },
    ),
    Preset(
        "migrate",
        "a legacy codebase whose proxy classes still subclass int/float (thunder 0.1.0's "
        "settings: replace the thunder names with yours)",
        mypy={"check_untyped_defs": True, "warn_unreachable": True},
        plugin={
            "migrate_classes": (_THUNDER,),
            "isinstance_functions": (_CHECK_TYPE,),
            "strict_isinstance": True,
            "exempt_modules": ("proxy_types", "proxy_types.*", "thunder.tests.*"),
        },
    ),
)}
