"""The experiment harness, one module per job.

- :mod:`.runner`: one job (dataset, split, labels, method) -> its result record;
- :mod:`.result_files`: result.json files, written atomically, and which jobs are finished;
- :mod:`.app`: what ``run.py`` does with a composed config (skip or run, threads, logging);
- :mod:`.progress`: a sweep's jobs done and remaining, logged by each job from the list that the
  default sweeper (the Hydra plugin ``hydra_plugins/ssl_repro_sweeper``) writes;
- :mod:`.aggregate`: result files -> tidy table, summary and markdown tables;
- :mod:`.plots`: the papers' figures from the summary.

Everything here is importable and testable without Hydra's app; ``run.py``
is the thin Hydra entry point around :func:`ssl_repro.harness.runner.run_job`.
Importing the package registers the ``registry`` resolver the experiment
recipes use (:mod:`.resolvers`).
"""
from . import resolvers  # noqa: F401  (registers the resolver)
