"""Project tooling that is not part of the service (run from the repository root)."""
