"""The label conventions shared by the datasets and the estimators.

A dataset's truth is +1/-1 (0: a row of unknown label), as in the papers'
data files; a K-class dataset's truth is the class numbers 0..K-1 (:func:`mask_classes`).  The estimators follow :mod:`sklearn.semi_supervised`: rows
labelled :data:`UNLABELED` are unlabeled, the labeled rows carry two other
class values.  :func:`mask_labels` maps the first convention to the second.

The two conventions collide on the label set {-1, 0, +1}: scikit-learn reads
it as classes 0 and 1 plus unlabeled rows (-1), the reference software
(SVMlin) as classes -1 and +1 plus unlabeled rows (0).  The estimators take
scikit-learn's reading (it is what :func:`mask_labels` returns) and warn
(:class:`LabelConventionWarning`, :func:`svmlin_convention_suspected`) when
the labels look like the reference software's: 0 on more than half of the rows.
"""
import warnings

import numpy as np

#: The label of an unlabeled row in ``fit`` (as in :mod:`sklearn.semi_supervised`).
UNLABELED = -1


def mask_labels(y_pm1, labeled):
    """Labels for ``fit`` from +1/-1 labels and a labeled mask or index array.

    +1/-1 labels collide with the unlabeled marker -1, so this maps them to
    1/0 and puts -1 on the unlabeled rows; ``classes_`` is then ``[0, 1]``
    and a positive output means the paper's +1 class.

    Decision: an index array must hold row numbers 0..n-1; a negative index (Python's "from the
    end") is refused, since ``[0, 1, -1]`` more likely means a label vector's -1 than the last row.
    """
    index = np.asarray(labeled)
    if index.dtype != bool and index.size and np.issubdtype(index.dtype, np.integer) and index.min() < 0:
        raise ValueError(f"mask_labels: labeled holds the negative index {int(index.min())}; give the labeled rows' "
                         f"numbers 0..{np.asarray(y_pm1).shape[0] - 1}, or a boolean mask (e.g. y != 0 for labels "
                         f"with 0 on the unlabeled rows)")
    y = np.full(np.asarray(y_pm1).shape[0], UNLABELED, dtype=np.int64)
    y[labeled] = (np.asarray(y_pm1)[labeled] > 0).astype(np.int64)
    held = np.unique(y[labeled])
    if held.size < 2:
        found = "no labeled row" if held.size == 0 else f"only {'+1' if held[0] else '-1'} labels"
        raise ValueError(f"mask_labels: the labeled rows hold {found}; fit needs rows of both classes (+1 and -1) "
                         f"labeled")
    return y


def mask_classes(y_classes, labeled):
    """Labels for ``fit`` from a K-class truth (the class numbers 0..K-1 of a K-class dataset) and a labeled
    mask or index array: the class numbers on the labeled rows, :data:`UNLABELED` elsewhere.  The class
    numbers never collide with the marker, so they stay as they are (``classes_`` is then ``0..K-1``)."""
    y = np.full(np.asarray(y_classes).shape[0], UNLABELED, dtype=np.int64)
    y[labeled] = np.asarray(y_classes)[labeled]
    return y


class LabelConventionWarning(UserWarning):
    """Labels {-1, 0, +1} that look like the reference software's convention (0 = unlabeled) were read
    in scikit-learn's (-1 = unlabeled, classes 0 and 1); see :func:`svmlin_convention_suspected`."""


def svmlin_convention_suspected(y, estimator):
    """Warn (:class:`LabelConventionWarning`) when numeric labels ``y`` for ``fit`` look like the
    reference software's convention: exactly the values -1, 0 and +1, with 0 on more than half of
    the rows.

    Both conventions are legal for such a y and nothing in the array tells
    them apart, so the estimators keep scikit-learn's reading (refusing it
    would refuse the usual encoding of a {0, 1} target with unlabeled rows,
    and the output of :func:`mask_labels`).  But the reference software's
    files mark the unlabeled rows, usually most rows, with 0: read as
    scikit-learn's, 0 becomes a class holding them all and the negatives
    become "unlabeled", with no error.  A y where 0 is a class on more than
    half of the rows while -1 rows exist is rare in scikit-learn's
    convention, so that case is named, with both readings and the
    conversion ``mask_labels(y, y != 0)``.
    """
    y = np.asarray(y)
    if not np.issubdtype(y.dtype, np.number) or y.ndim != 1:
        return
    values, counts = np.unique(y, return_counts=True)
    if values.tolist() != [-1, 0, 1] or not 2 * counts[1] > y.shape[0]:
        return
    warnings.warn(
        f"{estimator}: y holds the labels -1, 0 and +1 with 0 on {counts[1]} of {y.shape[0]} rows. It is read in "
        f"scikit-learn's semi-supervised convention: -1 marks the {counts[0]} unlabeled rows, 0 and 1 are the "
        f"two classes ({counts[1]} and {counts[2]} rows). If y follows the reference software's (SVMlin's) "
        f"convention instead, where 0 marks the unlabeled rows and -1/+1 are the classes, convert it first: "
        f"y = mask_labels(y, y != 0) (ssl_repro.estimators.mask_labels: +1 becomes class 1, -1 class 0, "
        f"0 the unlabeled marker -1). If y is meant in scikit-learn's convention, silence this with "
        f"warnings.simplefilter('ignore', ssl_repro.labels.LabelConventionWarning)",
        LabelConventionWarning, stacklevel=4)
