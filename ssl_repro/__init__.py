"""ssl_repro: large-scale semi-supervised linear SVMs after Sindhwani & Keerthi.

Solvers (L2-SVM-MFN, RLS, multi-switch TSVM, deterministic annealing) live in
:mod:`ssl_repro.solvers`; scikit-learn estimators wrapping them in
:mod:`ssl_repro.estimators` (the comparison methods nabla-TSVM and CCCP-TSVM in
:mod:`ssl_repro.estimators.comparison`); datasets and splits in :mod:`ssl_repro.data`.
"""

__version__ = "0.1.0"
