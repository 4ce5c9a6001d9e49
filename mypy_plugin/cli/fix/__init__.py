"""``proxy-types fix``: rewrites of reported sites (needs libcst)."""
