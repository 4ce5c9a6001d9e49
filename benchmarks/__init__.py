"""Benchmarks (run as scripts; speed is reported as ratios, never asserted in tests)."""
