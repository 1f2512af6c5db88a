"""The experiment harness: one job (runner), the results store, aggregation and figures.

Everything here is importable and testable without Hydra; ``run.py`` is
the thin Hydra entry point around :func:`ssl_repro.harness.runner.run_job`.
"""
