"""Benchmarks: scripts run by `./dev bench NAME` that print medians and ratios (see README.md)."""
