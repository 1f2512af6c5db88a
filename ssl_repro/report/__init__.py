"""Render: results/README.md, the documentation's Results pages and the figures, from the committed records
and the verdicts of :mod:`ssl_repro.claims` (every number and comparative word).  The top stage: it imports
the judge and the run stage's readers; nothing in the package imports it.

    python experiments/paper_artifacts.py report [--check]

:func:`~.page.render` reads the records under ``results/`` (each sweep folder's
``results.csv``, the scripts' JSON and CSV records, the peers' and the
calibration's records when present) and the papers' numbers and claims of
``experiments/paper_numbers.json`` (each with its paper, table and a quote
of the text that gives it), and writes one table per artifact of the
papers: the paper's number where its text gives one, ours, the data (real
or a SYNTHETIC stand-in), and whether the claim holds, decided here by code.

How a comparison is decided is :mod:`ssl_repro.claims.rules`'s alone
(thresholds, the paired signed-rank test, one-class runs, which data a
verdict rests on); here :func:`~.tables.verdict` words it ("A below B": ``yes`` /
``equal`` / ``not significant`` / ``no`` / ``one-class: not counted``) and
:mod:`.claim_pages` renders the claims overview (one short row per claim, the verdict per data kind)
and each claim in full.  Runs that stopped on an iteration cap are counted in a column of their own
("DA 3 of 10"); a record without the column says "not recorded".  Timing tables name the code commit of
their records (results.csv ``git_commit``, with its "+uncommitted" flag), or "code commit not recorded".
:func:`~.docs.docs_pages` renders the same sections as the documentation's Results pages: the claims
overview, a page per claim, a page per artifact opening with its figure.  One render makes one
:class:`~ssl_repro.claims.records.Records`, which both pages share with the sections (:func:`~.page.render_sections`,
rendered once): each record is read and each claim's verdict evaluated once per render.

One module per section under :mod:`.sections` (:mod:`.sections.learning_curves`, :mod:`.sections.objective_minima`,
:mod:`.sections.timing_tables`, ...), the shared table, number and wording helpers in :mod:`.tables`, records in
words (provenance, commits) in :mod:`.record_text`, the learning-curve figures in :mod:`.plots`, the
pages assembled in :mod:`.page` (results/README.md) and :mod:`.docs` (the docs' Results pages), plain
words for the records' names in :mod:`.words`.
"""
