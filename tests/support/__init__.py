"""The test harness: throwaway servers and processes, clients, positions, readers of what the service sends.

Tests and benchmarks import from here; nothing here is a test. A helper that
only its own directory's tests import (tests/browser's page drivers,
tests/fuzz's raw HTTP) stays beside them: tests/test_harness_layout.py
checks both.
"""
