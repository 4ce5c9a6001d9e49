# The audit's internals (proxy_types/_audit_torch.py): no public names.
