# The audit's internals (proxy_types/_audit_wrappers.py): no public names.
