"""A job on a K-class dataset (``n_classes`` > 2 in :mod:`ssl_repro.data.registry`: digits, mnist-5k, 20ng-all).

Its estimator trains the K classes one-vs-rest, with the balance of each binary problem set to the fraction
of its class as 002 does for uspst and MNIST (Sec. 5.2; :mod:`ssl_repro.estimators.base`), or as one Potts
DA (``LinearDA(multiclass="potts")``).  The runner (:mod:`.runner`) differs from a two-class job in four
places, each a function here:

- the labels for ``fit`` are the class numbers 0..K-1 on the labeled rows (:func:`ssl_repro.labels.mask_classes`);
- ``r`` is the split's K true class fractions among the unlabeled rows (the two-class job's true positive
  fraction, per class), refused when a class has no unlabeled row (:func:`check_class_fractions`);
- the errors are over K classes: the share of rows whose predicted class is not the truth, i.e. one minus
  the accuracy (:func:`class_error`); the unlabeled rows' predictions are the estimator's ``transduction_``
  where it has one (its own labels of the rows it trained on), else ``predict``;
- the record (:func:`class_fields`) holds ``n_classes``, ``class_fractions`` (the K values of r) and
  ``r`` null (no class is "positive"), ``unlabeled_positive_fraction`` null, and the solver's records
  summed: ``objective_own`` and ``objective_eqn18`` are the sums of the K binary problems' (one-vs-rest
  solves K independent problems, so its objective is their sum; a Potts DA's one record is its own),
  ``converged`` is whether all K converged, and ``diagnostics`` holds the work counters summed and each
  problem's record under ``per_class``.
"""
import numpy as np


def check_class_fractions(split, dataset, n_labeled):
    """Refuse a split of a K-class set whose unlabeled rows lack a class: its fraction r_k is then 0, which
    the balance constraint of its binary problem (mean(p) = r_k, Eqn 9) cannot hold."""
    empty = [k for k, r in enumerate(split.r) if not 0 < r < 1]
    if empty:
        raise ValueError(f"n_labeled={n_labeled} leaves {split.unlabeled.size} unlabeled row(s) of {dataset.name} "
                         f"with no row of class(es) {empty}, whose fraction r is then 0, outside the 0 < r < 1 a "
                         f"semi-supervised method needs: label fewer rows (a smaller n_labeled), or set the "
                         f"method's r (method.r=[...], one fraction per class)")


def class_error(predicted, truth):
    """The share of rows whose predicted class differs from the truth (one minus the accuracy, over K classes);
    NaN without rows."""
    predicted, truth = np.asarray(predicted), np.asarray(truth)
    if not truth.size:
        return float("nan")
    return float(np.mean(predicted != truth))


def class_predictions(estimator, X, split, unlabeled_of):
    """(classes predicted on the split's unlabeled rows, on its test rows): the unlabeled rows' from the
    estimator's ``transduction_`` (``unlabeled_of`` picks them from a per-training-row array), else from
    ``predict``; the test rows' from ``predict``."""
    if hasattr(estimator, "transduction_"):
        on_unlabeled = unlabeled_of(np.asarray(estimator.transduction_))
    else:
        on_unlabeled = estimator.predict(X[split.unlabeled])
    on_test = estimator.predict(X[split.test]) if split.test.size else np.zeros(0, dtype=np.int64)
    return on_unlabeled, on_test


#: The work counters of a solver's record that a K-class record sums over its problems.
SUMMED = ("switches", "mfn_calls", "newton_iterations", "cg_iterations", "lbfgs_iterations", "cccp_iterations",
          "smo_iterations", "kernel_evaluations")


def class_fields(estimator, dataset, split, predicted, stored):
    """The fields of a K-class job's record that differ from a two-class job's (module doc): ``predicted``
    the (unlabeled, test) classes of :func:`class_predictions`, ``stored`` the runner's function from a
    solver's record to the record's ``diagnostics``; ``class_fractions`` is the estimator's r (the split's
    unlabeled class fractions unless the method set its own)."""
    r = estimator.get_params().get("r")
    fractions = split.r if r is None else r
    infos = estimator.diagnostics_ if isinstance(estimator.diagnostics_, list) else [estimator.diagnostics_]
    per_class = [stored(info) for info in infos]
    summed = {key: sum(d[key] for d in per_class) for key in SUMMED if all(key in d for d in per_class)}
    return {"n_classes": dataset.info.n_classes, "r": None, "class_fractions": [float(f) for f in np.ravel(fractions)],
            "converged": all(bool(info.converged) for info in infos),
            "test_error": class_error(predicted[1], dataset.y[split.test]),
            "transductive_error": class_error(predicted[0], dataset.y[split.unlabeled]),
            "unlabeled_positive_fraction": None,
            "objective_own": float(sum(info.own_objective for info in infos)),
            "objective_eqn18": float(sum(info.objective for info in infos)),
            "diagnostics": {**summed, "per_class": per_class}}
