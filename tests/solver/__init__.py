"""Solver tests: verdicts against a plain exhaustive search, the pruning rules one by one, the API and CLI."""
