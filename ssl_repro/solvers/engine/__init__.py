"""The compiled linear-algebra engine under the papers' algorithms.

What every solver of :mod:`ssl_repro.solvers` stands on, and nothing of
the papers' algorithms themselves: a :class:`~.problem.Problem` (one
sparse matrix, the rows it trains on and their labels), the rows with
the bias column appended (:class:`~.biased_rows.BiasedRows`), the CGLS
solve of a Newton system on the active rows (:func:`~.cgls.cgls`, 000
Table 3, its fused pass compiled in ``_cg_pass`` and ``_row_products``),
the squared-hinge loss as an object (:class:`~.loss.SquaredHingeLoss`:
value, gradient and Hessian-vector product on the active set), the exact
line search (:func:`~.line_search.line_search`, 000 Sec. 2.2), the
solver threads (``_threads``) and the data checks (:mod:`.data_checks`).
The algorithms (MFN, TSVM, DA, CCCP, nabla-TSVM) are the modules one
folder up; this package imports none of them.
"""
