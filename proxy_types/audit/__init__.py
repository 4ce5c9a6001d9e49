"""``python -m proxy_types.audit script.py args...``: run a script under a runtime audit.

This package only holds the command's ``__main__``; importing it leaves
``proxy_types.audit`` bound to the ``audit()`` function (see ``proxy_types._Package``).
"""
