"""The label conventions shared by the datasets and the estimators.

A dataset's truth is +1/-1 (0: a row of unknown label), as in the papers'
data files.  The estimators follow :mod:`sklearn.semi_supervised`: rows
labelled :data:`UNLABELED` are unlabeled, the labeled rows carry two other
class values.  :func:`mask_labels` maps the first convention to the second.
"""
import numpy as np

#: The label of an unlabeled row in ``fit`` (as in :mod:`sklearn.semi_supervised`).
UNLABELED = -1


def mask_labels(y_pm1, labeled):
    """Labels for ``fit`` from +1/-1 labels and a labeled mask or index array.

    +1/-1 labels collide with the unlabeled marker -1, so this maps them to
    1/0 and puts -1 on the unlabeled rows; ``classes_`` is then ``[0, 1]``
    and a positive output means the paper's +1 class.
    """
    y = np.full(np.asarray(y_pm1).shape[0], UNLABELED, dtype=np.int64)
    y[labeled] = (np.asarray(y_pm1)[labeled] > 0).astype(np.int64)
    held = np.unique(y[labeled])
    if held.size < 2:
        found = "no labeled row" if held.size == 0 else f"only {'+1' if held[0] else '-1'} labels"
        raise ValueError(f"mask_labels: the labeled rows hold {found}; fit needs rows of both classes (+1 and -1) "
                         f"labeled")
    return y
