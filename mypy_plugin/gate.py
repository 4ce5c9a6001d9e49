"""The one answer to "does this module get reports?".

Asked by the routing layer (``main.py``) before a check runs, never by a check:
each hook is registered with the verdicts it runs under (``RUNS_WHERE_REPORTED``
for nearly all of them).  Two kinds of module get no reports:

* *hidden*: mypy discards the module's errors (installed libraries, typeshed,
  ``follow_imports = silent``, ``ignore_errors``) or it is a stub, which runs
  no code; a check that only reports has nothing to do there;
* *exempt*: the user's ``exempt_modules`` may handle raw numbers.  Class
  definitions are still checked there (``proxy-base``): a wrong base is wrong
  wherever it is written.

Migration mode's branch keeping is the one flagged exception: it changes what
mypy checks inside ``if isinstance(p, float):`` for a legacy proxy, not what is
reported, so it runs in every module.
"""

from __future__ import annotations

from typing import Final, Literal

from mypy.nodes import MypyFile
from mypy.plugin import CheckerPluginInterface
from mypy.semanal import SemanticAnalyzer

from . import _mypy_compat as compat
from .config import ProxyTypesConfig, is_installed_library


class Verdict:
    """What a module gets (plain strings: an Enum class costs a warm run 0.8 ms to build)."""

    REPORTED: Final = "reported"
    EXEMPT: Final = "exempt"
    HIDDEN: Final = "hidden"


VerdictName = Literal["reported", "exempt", "hidden"]


#: The verdicts under which a check that only reports runs.
RUNS_WHERE_REPORTED: frozenset[VerdictName] = frozenset({Verdict.REPORTED})
#: Reports about the set-up (configured names, modules mypy cannot find): exempt modules too.
RUNS_WHERE_VISIBLE: frozenset[VerdictName] = frozenset({Verdict.REPORTED, Verdict.EXEMPT})
#: Class definitions (``proxy-base``), wrong wherever they are written, and effects on
#: types rather than reports (migration mode keeps legacy-typed branches checked).
RUNS_EVERYWHERE: frozenset[VerdictName] = frozenset({Verdict.REPORTED, Verdict.EXEMPT, Verdict.HIDDEN})


class ReportGate:
    """Decides once per module whether it gets reports, in the checker and in the analyzer."""

    def __init__(self, config: ProxyTypesConfig) -> None:
        self.config = config
        # The checker asks at every hook call, nearly always in the module it asked about last.
        #: The module of the checker's last question (read by the routing layer).
        self.checked_tree: MypyFile | None = None
        #: The verdict for ``checked_tree`` (read by the routing layer too).
        self.checked_verdict: VerdictName = Verdict.REPORTED
        self._analyzed: dict[tuple[str, str], tuple[MypyFile | None, VerdictName]] = {}
        #: The semantic analyzer the last analysis hook ran in (one for a whole build).
        self.analyzer: SemanticAnalyzer | None = None

    def decide(self, module: str, *, hidden: bool) -> VerdictName:
        """The rule itself: hidden by mypy, else exempt by the settings, else reported."""
        if hidden:
            return Verdict.HIDDEN
        if self.config.is_exempt(module):
            return Verdict.EXEMPT
        return Verdict.REPORTED

    def in_checker(self, api: CheckerPluginInterface) -> VerdictName:
        """The verdict for the module mypy's type checker is in."""
        tree = compat.checked_tree(api)
        if tree is None:  # a mypy without TypeChecker.tree: decided at each call
            return self.decide("", hidden=compat.reports_hidden(api))
        # Kept for the module's later hooks: the runner reads it to tell a module's
        # first hook (forgotten at the end of each module's check).
        if tree is not self.checked_tree:
            self.checked_verdict = self.decide(tree.fullname, hidden=compat.reports_hidden(api))
            self.checked_tree = tree
        return self.checked_verdict

    def in_analyzer(self, semanal: SemanticAnalyzer) -> VerdictName:
        """The verdict for the module mypy's semantic analyzer is in."""
        self.analyzer = semanal
        module = semanal.cur_mod_id
        tree = compat.analyzed_module(semanal)
        key = (module, tree.path if tree is not None else "")  # a daemon may see a module move
        known = self._analyzed.get(key)
        # A daemon's new parse (a new tree) may change how mypy treats the file's errors.
        if known is not None and known[0] is tree:
            return known[1]
        # mypy marks the files whose errors it discards (follow_imports = silent,
        # ignore_errors) when it parses them, before this analysis.
        hidden = semanal.is_stub_file or is_installed_library(key[1]) or (
            compat.file_hidden(compat.errors_of(semanal), key[1]))
        verdict = self.decide(module, hidden=hidden)
        self._analyzed[key] = (tree, verdict)
        return verdict

    def current_analysis_reported(self) -> bool:
        """True unless the module the remembered analyzer is in gets no reports.

        True when unknown (no analyzer seen yet, or between modules): the hook
        is then handed out and gated when it runs.
        """
        semanal = self.analyzer
        if semanal is None:
            return True
        if compat.analyzed_module(semanal) is None:
            return True
        return self.in_analyzer(semanal) == Verdict.REPORTED
