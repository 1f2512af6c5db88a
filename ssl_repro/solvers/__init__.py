"""Solver core: plain functions, no I/O.

Block interface (as in the paper: a labeled block, its labels in {-1, +1},
an unlabeled block)::

    w, info = train_tsvm(X_labeled, y_labeled, X_unlabeled, lam=1e-3, lam_u=1.0, r=0.4, switches="max")

``w`` has ``n_features + 1`` entries, the bias last; ``info`` is a
:class:`SolverInfo`.  The ``*_problem`` variants take a :class:`Problem`
(one matrix plus row-index arrays, see :mod:`.engine.problem`), which is what the
estimators use to avoid copying large matrices.
"""
from ssl_repro.solvers.annealing import deterministic_annealing
from ssl_repro.solvers.engine.cgls import CGLSInfo, cgls
from ssl_repro.solvers.info import SolverInfo, SuspectSolutionWarning
from ssl_repro.solvers.engine.line_search import line_search
from ssl_repro.solvers.engine.loss import SquaredHingeLoss
from ssl_repro.solvers.mfn import MFNInfo, l2svm_mfn
from ssl_repro.solvers.objective import objective_of_weights, transductive_objective
from ssl_repro.solvers.engine.biased_rows import BiasedRows
from ssl_repro.solvers.engine.problem import Problem, from_blocks, from_mask
from ssl_repro.solvers.supervised import rls, svm
from ssl_repro.solvers.tsvm import tsvm
from ssl_repro.solvers.validation import check_positive
from ssl_repro.solvers.warm_up import warm_up_kernels


def train_svm(X_labeled, y_labeled, lam=1e-3, cost=None):
    """Supervised L2-SVM-MFN (Table 1) on a labeled block; returns (w, SolverInfo)."""
    return svm(from_blocks(X_labeled, y_labeled), check_positive(lam, "lambda"), cost)


def train_rls(X_labeled, y_labeled, lam=1e-3, cost=None):
    """Regularized least squares by CGLS (Table 2); returns (w, SolverInfo)."""
    return rls(from_blocks(X_labeled, y_labeled), check_positive(lam, "lambda"), cost)


def train_tsvm(X_labeled, y_labeled, X_unlabeled, lam=1e-3, lam_u=1.0, r=0.5, **options):
    """Multi-switch TSVM (Table 4); ``options`` go to :func:`tsvm`."""
    return tsvm(from_blocks(X_labeled, y_labeled, X_unlabeled), lam, lam_u, r, **options)


def train_da(X_labeled, y_labeled, X_unlabeled, lam=1e-3, lam_u=1.0, r=0.5, **options):
    """Deterministic annealing (Tables 5-7); ``options`` go to :func:`deterministic_annealing`."""
    return deterministic_annealing(from_blocks(X_labeled, y_labeled, X_unlabeled),
                                   lam, lam_u, r, **options)


__all__ = [
    "BiasedRows", "CGLSInfo", "MFNInfo", "Problem", "SolverInfo", "SquaredHingeLoss", "SuspectSolutionWarning",
    "cgls", "deterministic_annealing", "from_blocks", "from_mask", "l2svm_mfn", "line_search",
    "objective_of_weights", "rls", "svm", "train_da", "train_rls", "train_svm", "train_tsvm",
    "transductive_objective", "tsvm", "warm_up_kernels",
]
