"""The parts of benchmarks/http.py: what to request, and two load generators."""
