"""Checks of the solvers' parameters (lambda, r, counts, rates), with messages naming the problem;
the data's checks are in :mod:`.engine.data_checks`."""
import numbers

import numpy as np


#: Largest (max |x|)^2 / lambda the solvers accept.  The Hessian
#: lambda I + X^T C X has a condition number of that order; beyond
#: 1/epsilon of float64 (about 1e16) lambda falls below the rounding of
#: X^T C X, the problem is numerically unregularized, and CGLS crawls to its
#: caps (measured: entries of 1e40 ran for minutes) instead of converging.
MAX_SCALE_OVER_LAMBDA = 1e16


def check_lambda(problem, lam):
    """lambda > 0, and not so small for the data's scale that the Newton systems cannot be solved."""
    lam = check_positive(lam, "lambda")
    largest = max(1.0, problem.op.largest_entry())   # the bias column is 1
    if largest * largest / lam > MAX_SCALE_OVER_LAMBDA:
        raise ValueError(
            f"the data's largest entry {largest:.3g} is too large for lambda = {lam:.3g}: (max |x|)^2 / lambda = "
            f"{largest * largest / lam:.3g} exceeds {MAX_SCALE_OVER_LAMBDA:.0e}, so lambda is below the rounding "
            f"of X^T X and the Newton systems cannot be solved in float64; rescale X (e.g. divide it by its "
            f"largest entry, or scale each row to unit norm) or raise lambda")
    return lam


def check_positive(value, name, allow_zero=False):
    """A finite real number > 0 (or >= 0 when ``allow_zero``)."""
    if not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be {bound}, got {value!r}")
    return float(value)


def check_fraction(r):
    """The positive fraction r, strictly inside (0, 1)."""
    if not isinstance(r, numbers.Real) or not 0.0 < r < 1.0:
        raise ValueError(f"r (positive fraction of unlabeled rows) must lie strictly in (0, 1), got {r!r}")
    return float(r)


def check_has_unlabeled(problem, method):
    """Semi-supervised methods need at least one unlabeled row."""
    if problem.n_unlabeled == 0:
        raise ValueError(f"{method} is semi-supervised and needs unlabeled rows; none were given")


def check_count(value, name):
    """An iteration count or cap: an integer >= 1 (a loop that would not run is refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


def check_open_unit(value, name):
    """A number strictly inside (0, 1)."""
    if not isinstance(value, numbers.Real) or not 0.0 < value < 1.0:
        raise ValueError(f"{name} must lie strictly in (0, 1), got {value!r}")
    return float(value)


def check_above_one(value, name):
    """A finite number > 1 (a growth or cooling factor)."""
    if not isinstance(value, numbers.Real) or not np.isfinite(value) or not value > 1:
        raise ValueError(f"{name} must be a finite number > 1, got {value!r}")
    return float(value)
