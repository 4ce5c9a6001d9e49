"""Build configuration beyond setup.cfg: the optional compiled guards.

``optional=True``: where the extension cannot be compiled (no C compiler, an
unsupported Python), installing still succeeds and the guards stay the
pure-Python ones of ``proxy_types/_guards.py`` (same answers, twice the time per call).
In a checkout, ``python setup.py build_ext --inplace`` builds it next to the sources.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("proxy_types._speedups", ["proxy_types/_speedups.c"], optional=True)])
