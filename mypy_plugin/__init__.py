"""Plugin for mypy that reports where dynamic and static numbers merge."""
