"""The test harness: throwaway servers and processes, clients, fixtures' building blocks.

Test modules and benchmarks import from here; nothing here is a test. A
helper that only one test directory's tests use stays beside them.
"""
