"""The exceptions of proxy_types; every one derives from ``ProxyTypesError``."""

from __future__ import annotations


class ProxyTypesError(Exception):
    """Base class of every error raised by proxy_types."""


class ConcretizationError(ProxyTypesError, TypeError):
    """A dynamic number was about to become a plain Python value silently."""


class ConfigurationError(ProxyTypesError, ValueError):
    """Invalid proxy_types configuration."""


class CheckError(ProxyTypesError, AssertionError):
    """``check()`` was given a condition that is statically False."""
