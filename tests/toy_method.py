"""A toy method added the way docs/user_guide/09_developers.md says: its solver and one declaration.

The "mean margin" classifier minimizes lambda/2 ||w||^2 - (1/l) sum_i y_i w.x_i
over the labeled rows (bias included as a feature, as everywhere in the
package).  Its minimizer is closed-form, w = X_l^T y / (l lambda), one pass
over the labeled rows (:meth:`~ssl_repro.solvers.engine.biased_rows.BiasedRows.rmatvec`),
so a test can check the answer exactly.

:func:`register` adds the declaration to :data:`ssl_repro.harness.methods.METHODS`;
``tests/estimators/test_toy_method.py`` then runs the method through ``run.py``, the
benchmark script and scikit-learn's estimator checks without touching the
package.
"""
import time

import numpy as np

from ssl_repro.estimators.base import POSITIVE
from ssl_repro.estimators.linear_fit import _LinearModel
from ssl_repro.harness.methods import METHODS, Method
from ssl_repro.solvers import SolverInfo
from ssl_repro.solvers.objective import transductive_objective
from ssl_repro.solvers.validation import check_lambda

NAME = "toy_mean_margin"


def mean_margin(problem, lam):
    """The solver: (w with the bias last, :class:`~ssl_repro.solvers.SolverInfo`)."""
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    info = SolverInfo(NAME)
    w = problem.op.rmatvec(problem.y / (problem.n_labeled * lam), problem.labeled)
    o = problem.op.matvec(w, problem.labeled)
    info.own_objective = float(0.5 * lam * (w @ w) - np.mean(problem.y * o))
    info.objective = transductive_objective(w, o, problem.y, o[:0], lam, 0.0)
    info.seconds = time.perf_counter() - start
    return w, info


class LinearMeanMargin(_LinearModel):
    """Toy supervised linear classifier: the L2-regularized mean margin (closed form).

    Parameters
    ----------
    lam : float, default=1e-3
        lambda, the regularization of w (bias included).

    Attributes
    ----------
    coef_, intercept_, classes_, diagnostics_, n_features_in_ : as :class:`ssl_repro.estimators.LinearSVM`.
    n_iter_ : int
        0: the solution is closed-form (``diagnostics_.cg_iterations``).
    """

    _iteration_field = "cg_iterations"
    _parameter_constraints = {"lam": [POSITIVE]}

    def __init__(self, lam=1e-3):
        self.lam = lam

    def _solve(self, problem, r):
        return mean_margin(problem, self.lam)


DECLARATION = Method(NAME, f"{__name__}:LinearMeanMargin", semi_supervised=False)


def register():
    """Add the toy's declaration to the methods table (what a row in ``ssl_repro/harness/methods.py`` does)."""
    METHODS[NAME] = DECLARATION
