"""Migration mode: type-check legacy proxies as if they no longer subclassed numbers.

Legacy proxy classes (``class FloatProxy(NumberProxy, float)``) pass every
``isinstance(x, float)`` check at runtime.  With ``migrate_classes`` set, mypy
sees these classes (and their subclasses) without their ``int``/``float``/
``complex`` and ``numbers`` bases, so every place that relies on the merge
becomes an ordinary type error.  The hidden bases are kept in the class's
metadata (mypy caches it, ``analysis/legacy.py``), for the checks that must
know what is true at runtime.
"""

from __future__ import annotations

from mypy.plugin import ClassDefContext, FunctionContext

from ..gate import RUNS_EVERYWHERE

from .. import _mypy_compat as compat
from .. import errors
from ..analysis.classes import isinstance_functions, static_classes_checked
from ..analysis.dynamic import DynamicClasses
from ..analysis.legacy import (
    HIDDEN_BASES,
    LEGACY_BASES_KEY,
    METADATA_KEY,
    keep_branch_checked,
    legacy_match,
    migrated_class,
    migrated_member,
    short_name,
)
from ..config import ProxyTypesConfig
from ..hooks import CUSTOMIZE_CLASS_MRO, FUNCTION, Env, Hook, Shared


def hide_static_bases(ctx: ClassDefContext, config: ProxyTypesConfig) -> None:
    """MRO hook: drop the static number bases of a legacy proxy class, report the class."""
    info = ctx.cls.info
    migrate_name = migrated_class(info, frozenset(config.migrate_classes))
    if migrate_name is None:
        return
    hidden = [base for base in info.bases if base.type.fullname in HIDDEN_BASES]
    if not hidden:
        return
    kept = [base for base in info.bases if base not in hidden]
    if not compat.hide_bases(info, kept, lambda: ctx.api.named_type("builtins.object")):
        return
    names = [base.type.fullname for base in hidden]
    info.metadata.setdefault(METADATA_KEY, {})[LEGACY_BASES_KEY] = names
    shown = tuple(short_name(name) for name in names)  # exempt modules too: proxy-base
    errors.legacy_static_base(ctx.api, ctx.cls, info.name, migrate_name, shown)


def keep_legacy_branches(
    ctx: FunctionContext, config: ProxyTypesConfig, dynamic: DynamicClasses,
    positions: tuple[int, int] = (0, 1),
) -> None:
    """Migration mode: keep ``if isinstance(p, float):`` type-checked for a legacy proxy.

    Not a report: with its number base hidden, mypy would narrow a legacy
    ``FloatProxy`` inside the branch to an impossible type and check nothing
    there, so this runs in every module, exempt and hidden ones included.
    """
    checked = static_classes_checked(ctx, config, dynamic, positions)
    if checked is None:
        return
    classes_expr, static = checked
    subject = ctx.arg_types[positions[0]][0]
    legacy = legacy_match(subject, static)
    if legacy is not None:
        keep_branch_checked(ctx.api, classes_expr, legacy.info)
        return
    # A NumberProxy may be a legacy FloatProxy, which passes the check through its
    # hidden float base: inside the branch it may still be a proxy (to be converted).
    migrated = migrated_member(subject, frozenset(config.migrate_classes))
    if migrated is not None:
        keep_branch_checked(ctx.api, classes_expr, migrated)


def _migrating(shared: Shared) -> bool:
    return bool(shared.config.migrate_classes)


def _isinstance_names(shared: Shared) -> list[str]:
    return [name for name, (function, _) in isinstance_functions(shared.config).items()
            if function == "isinstance"]


#: Both change types rather than report, so they run in every module: the class's
#: hidden bases, and the branches of ``isinstance(p, float)`` kept checked.
HOOKS = (
    Hook(CUSTOMIZE_CLASS_MRO, matches=lambda fullname: True, runs=RUNS_EVERYWHERE,
         when=_migrating),
    Hook(FUNCTION, names=_isinstance_names, runs=RUNS_EVERYWHERE, when=_migrating),
)


def check(ctx: ClassDefContext | FunctionContext, env: Env) -> None:
    if isinstance(ctx, ClassDefContext):
        hide_static_bases(ctx, env.config)
        return
    _, positions = isinstance_functions(env.config)[env.fullname]
    keep_legacy_branches(ctx, env.config, env.dynamic, positions)
