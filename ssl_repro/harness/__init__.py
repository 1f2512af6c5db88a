"""Run: the experiment harness, from a job's settings to its record, one module per job.

- :mod:`.runner`: one job (dataset, split, labels, method) -> its result record;
- :mod:`.result_files`: result.json files, written atomically, and which jobs are finished;
- :mod:`.app`: what ``run.py`` does with a composed config (skip or run, threads, logging);
- :mod:`.progress`: a sweep's jobs done and remaining, logged by each job from the list that the
  default sweeper (the Hydra plugin ``hydra_plugins/ssl_repro_sweeper``) writes;
- :mod:`.aggregate`: result files -> tidy table, summary and markdown tables;
- :mod:`.methods`: the table of methods and their named configurations (the one place a method is declared);
- :mod:`.settings`, :mod:`.jobkey`, :mod:`.timing_protocol`, :mod:`.compilation`, :mod:`.external`: a job's
  checks, its result folder's key, the timing protocol, the solvers' compilation, external programs' runs.

This stage writes records and nothing else: the verdicts are :mod:`ssl_repro.claims`'s, the pages and
figures :mod:`ssl_repro.report`'s (the figures of a summary: :mod:`ssl_repro.report.plots`).

Everything here is importable and testable without Hydra's app; ``run.py``
is the thin Hydra entry point around :func:`ssl_repro.harness.runner.run_job`.
Importing the package registers the ``registry`` and ``methods`` resolvers
the experiment recipes use and every method's Hydra config (:mod:`.resolvers`).
"""
from ssl_repro.harness import resolvers  # noqa: F401  (registers the resolver)
