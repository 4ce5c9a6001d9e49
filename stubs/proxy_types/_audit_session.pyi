# The audit's internals (proxy_types/_audit_session.py): no public names.
