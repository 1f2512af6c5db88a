"""The tuned baselines' cross-validation (:mod:`ssl_repro.estimators.baselines`:
:class:`~ssl_repro.estimators.TunedLinearSVM`, :class:`~ssl_repro.estimators.TunedLogisticRegression` and the
logistic regression under :class:`~ssl_repro.estimators.SelfTraining`): lambda chosen on the
labeled rows only, as Oliver et al. (NeurIPS 2018) ask of a supervised baseline, so that the papers' fixed
lambda (000 Sec. 4) is not the only supervised point beside their semi-supervised methods.

The budget (stated once, :func:`cross_validated_lambda`): the
grid :data:`LAM_GRID` (lambda = 1e-4 ... 10, decades; the papers' 1e-3 in
it); :data:`K_FOLDS`-fold stratified cross-validation (seeded) where every
class has at least :data:`K_FOLDS` labeled rows, leave-one-out below; the
lambda of fewest held-out errors, ties going to the grid value nearest the
estimator's ``lam`` (the papers' lambda: cross-validation moves lambda only
when it can tell the values apart).  A fold whose training rows hold one
class predicts that class.  When every grid value has the same held-out
error (one labeled row per class: every fold's training rows hold one
class, so every error is 1.0) the lambda is the tie-break's, not a tuned
one: the fit is flagged ``cv_untold`` (``suspect`` in its record, a
:class:`~ssl_repro.solvers.SuspectSolutionWarning` naming the labels to add);
``converged`` keeps its meaning (the final fit ended by its own rule).
"""
import numpy as np
from sklearn.model_selection import LeaveOneOut, StratifiedKFold

#: The lambda grid of the tuned baselines (decades around the papers' 1e-3).
LAM_GRID = (1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0)
#: Folds of the cross-validation where every class has this many labeled rows; leave-one-out below.
K_FOLDS = 5


def cv_folds(y_pm1):
    """(train, held-out) index pairs: :data:`K_FOLDS`-fold stratified (seed 0) where each class has at
    least :data:`K_FOLDS` rows, else leave-one-out."""
    smallest = min(np.sum(y_pm1 > 0), np.sum(y_pm1 < 0))
    splitter = (StratifiedKFold(K_FOLDS, shuffle=True, random_state=0) if smallest >= K_FOLDS
                else LeaveOneOut())
    return list(splitter.split(np.zeros(len(y_pm1)), y_pm1))


def cross_validated_lambda(fit_predict, X, y_pm1, grid, prefer):
    """(chosen lambda, held-out error rate per grid value): the budget of the module doc.

    ``fit_predict(X_train, y_train, lam, X_held)`` returns +1/-1 predictions; ``prefer`` breaks ties
    (the grid value nearest it on a log scale)."""
    folds = cv_folds(y_pm1)
    errors = []
    for lam in grid:
        wrong = 0
        for train, held in folds:
            classes = np.unique(y_pm1[train])
            predicted = (np.full(held.size, classes[0]) if classes.size == 1
                         else fit_predict(X[train], y_pm1[train], lam, X[held]))
            wrong += int(np.sum(predicted != y_pm1[held]))
        errors.append(wrong / len(y_pm1))
    best = min(errors)
    chosen = min((lam for lam, e in zip(grid, errors) if e == best), key=lambda lam: abs(np.log(lam / prefer)))
    return float(chosen), errors
