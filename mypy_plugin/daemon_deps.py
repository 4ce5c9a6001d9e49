"""dmypy: recheck a caller when the source of a function its reports relied on changes.

mypy's fine-grained mode (dmypy) rechecks a target when a *signature* it uses
changes: an edit inside a function body changes no symbol, fires no trigger, and
a caller in another module keeps the call-site report made from the callee's old
summary.  The plugin makes the body part of something mypy compares:

- each user module gets a hidden symbol, ``__proxy_types_source__``, whose type
  is a literal holding a hash of the module's source; an edit of the module
  changes it, and mypy fires its trigger;
- a module's trigger also fires when a module it imports fires (a summary follows
  calls into what the callee's module imports, and further);
- a target whose check read a summary or a return value of a function in another
  module depends on that module's trigger (``MypyFile.plugin_deps``, which mypy
  merges into its dependency map).

Only in fine-grained mode (dmypy, ``--cache-fine-grained``); plain mypy's runs and
cache are untouched.  Installed libraries and stubs are left out: their sources
do not change while a daemon runs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping

from mypy.nodes import GDEF, MypyFile, SymbolTableNode, TypeInfo, Var
from mypy.options import Options
from mypy.types import Instance, LiteralType

from .analysis.subclasses import imported_modules
from .config import is_installed_library

#: The hidden symbol holding the hash of a module's source.
SOURCE_SYMBOL = "__proxy_types_source__"


def wanted(options: Options) -> bool:
    """True where mypy keeps fine-grained dependencies (dmypy, ``--cache-fine-grained``)."""
    return bool(options.fine_grained_incremental or options.cache_fine_grained)


def source_trigger(module: str) -> str:
    """mypy's trigger of ``module``'s source symbol (``<m.__proxy_types_source__>``)."""
    return f"<{module}.{SOURCE_SYMBOL}>"


def tracked(file: MypyFile | None) -> bool:
    """True for a user's ``.py`` module: one whose functions have summaries that change."""
    return file is not None and file.path.endswith(".py") and not is_installed_library(file.path)


def _source_hash(path: str) -> str | None:
    try:
        with open(path, "rb") as source:
            return hashlib.sha256(source.read()).hexdigest()[:16]
    except OSError:
        return None  # mypy reports a file it cannot read itself


class SourceReads:
    """dmypy's view of user sources: their hashes, the hidden symbol holding each, and
    the user modules whose sources the summaries read while a target is checked (the
    target then depends on their triggers)."""

    def __init__(self, modules: Callable[[], Mapping[str, MypyFile]]) -> None:
        #: mypy's modules of the build (empty before mypy sets them).
        self.modules = modules
        #: The type checker of the hook running now (set by the runner), or None.
        self.checker: object = None
        #: The hash of each user module's source when mypy last parsed it.
        self.digests: dict[str, str | None] = {}
        #: Called when a module's source changed (drops what the summaries worked out).
        self.on_change: Callable[[], None] | None = None

    def parsed(self, file: MypyFile) -> None:
        """When mypy parses ``file`` (``get_additional_deps``): a changed source makes
        every kept summary suspect, since one may have followed calls into it."""
        if not tracked(file):
            return
        digest = _source_hash(file.path)
        known = self.digests.get(file.fullname, digest)
        self.digests[file.fullname] = digest
        if known != digest and self.on_change is not None:
            self.on_change()

    def module_checked(self, file: MypyFile) -> None:
        """At the end of ``file``'s check: store its source's hash, and fire its trigger
        with the triggers of the user modules it imports."""
        modules = self.modules()
        digest = self.digests.get(file.fullname)
        if not tracked(file) or digest is None:
            return
        builtins = modules.get("builtins")
        str_node = builtins.names.get("str") if builtins is not None else None
        if str_node is None or not isinstance(str_node.node, TypeInfo):
            return
        var = Var(SOURCE_SYMBOL, LiteralType(digest, Instance(str_node.node, [])))
        var._fullname = f"{file.fullname}.{SOURCE_SYMBOL}"
        var.is_ready = True
        file.names[SOURCE_SYMBOL] = SymbolTableNode(GDEF, var, module_public=False,
                                                    plugin_generated=True)
        own = source_trigger(file.fullname)
        for module in imported_modules(file):
            if module != file.fullname and tracked(modules.get(module)):
                file.plugin_deps.setdefault(source_trigger(module), set()).add(own)

    def read(self, module: str) -> None:
        """Called for each read of ``module``'s source by the summaries."""
        checker = self.checker
        tree = getattr(checker, "tree", None)
        scope = getattr(checker, "tscope", None)
        if not isinstance(tree, MypyFile) or scope is None or module == tree.fullname:
            return  # the checked module's own edit rechecks all of it
        if not tracked(self.modules().get(module)):
            return
        target = scope.current_target()
        tree.plugin_deps.setdefault(source_trigger(module), set()).add(target)
