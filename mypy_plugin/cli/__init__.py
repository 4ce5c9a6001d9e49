"""The ``proxy-types`` command line (never imported by the plugin): run mypy with the plugin, explain codes.

``proxy-types check PATH...`` runs mypy in this process with the plugin on and
prints mypy's diagnostics plus a count per ``proxy-*`` code, as text, JSON or
SARIF 2.1.0.  Which mypy configuration it uses:

* ``--config FILE`` if given, else the file mypy itself would pick (``mypy.ini``,
  ``.mypy.ini``, ``pyproject.toml`` with ``[tool.mypy]``, ``setup.cfg`` with
  ``[mypy]``, searched from the working directory up to the repository root,
  then the user-wide files);
* if that file does not list ``mypy_plugin`` in ``plugins``, a temporary copy
  of its mypy sections with the plugin added (mypy has no ``--plugins`` flag);
* if there is none, the embedded ``default.ini`` next to this module.

Exit status follows mypy: 0 clean, 1 findings, 2 usage, configuration or
blocking errors.
"""


from .main import console_main, main

__all__ = ["console_main", "main"]
