"""One module per check; each reports through ``mypy_plugin.errors``."""
