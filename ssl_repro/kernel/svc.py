"""The weighted kernel SVM of the l1 f-step (001, Sec. 3: the hinge loss V), as scikit-learn's SVC fits it.

``SVC(C=1, kernel="precomputed", tol=tol).fit(gram, labels, sample_weight=weights)``
checks its input (types, shapes, finiteness, the targets' classes, its
parameters) and then calls libsvm through ``sklearn.svm._libsvm.fit``.  On
001's toy problems (a few hundred pseudo-points) the checks took longer than
libsvm itself (measured on 2MOONS, DA (l1), lambda = 0.1: 1.8 ms of 3 ms per
f-step), and DA calls the f-step hundreds of times per run; our inputs are
already float64, C-ordered and checked.  :func:`weighted_svc` therefore makes
SVC's libsvm call itself, with the arguments SVC passes, and returns what
SVC exposes (``dual_coef_`` and ``intercept_`` with SVC's binary sign flip):
bit for bit SVC's result, which ``tests/kernel/test_kernel_fstep.py`` checks
against SVC so that a change of scikit-learn's private call shows there.
"""
import numpy as np
from sklearn.svm import _libsvm

#: SVC's defaults for what a C-SVC on a precomputed kernel passes to libsvm (svm_type 0 = C_SVC).
SVC_ARGUMENTS = {"svm_type": 0, "kernel": "precomputed", "C": 1.0, "nu": 0.5, "probability": False, "degree": 3,
                 "shrinking": True, "cache_size": 200.0, "coef0": 0.0, "gamma": 0.0, "epsilon": 0.0,
                 "max_iter": -1, "random_seed": 0}


def weighted_svc(gram, labels, weights, tol):
    """(support, dual_coef, intercept) of SVC(C=1, kernel="precomputed", tol=tol) fitted on the
    Gram matrix ``gram`` (float64, C order) of points labeled +1/-1 with sample weights ``weights``:
    ``support`` indexes gram's rows, ``dual_coef`` = y_k a_k on them, f = gram[:, support] @ dual_coef
    + intercept."""
    negative, positive = labels < 0, labels > 0
    if not (negative.any() and positive.any()):
        raise ValueError("the weighted SVM needs points of both labels, got one class")
    _libsvm.set_verbosity_wrap(0)
    support, _, _, dual_coef, intercept, *_ = _libsvm.fit(
        gram, positive.astype(np.float64), sample_weight=weights, class_weight=np.ones(2), tol=tol,
        **SVC_ARGUMENTS)
    # libsvm's first class (-1, the smaller label) is its positive one: SVC flips both signs
    return support, -dual_coef[0], -float(intercept[0])
