"""
One problem on a local Ray cluster
==================================

The distributed backend splits X by rows over Ray actors: every CG
iteration of 000 Table 2 broadcasts p and sums the workers' partial
products, while MFN's line search, TSVM's switching and OPTIMIZE-P stay on
the driver. The estimators run unchanged inside
:func:`ssl_repro.distributed.backend.use_backend`. Here a local Ray instance with 2
workers fits the L2-SVM (000 Table 1) and the result is compared with the
single-process fit: the same objective up to the order of the
floating-point sums. ``LinearTSVM`` and ``LinearDA`` run the same way; since
every CG iteration is one round trip to the workers, a problem this small is
slower distributed than in one process (the backend is for data larger
than one machine).

Ray is an optional dependency (``pip install -e ".[distributed]"``); without
it this example says so and skips the distributed fit.
"""

import importlib.util
import logging

import numpy as np
import scipy.sparse as sp

from ssl_repro.estimators import LinearSVM, mask_labels

rng = np.random.default_rng(1)
n, d = 1500, 200
y_pm1 = np.where(rng.random(n) < 0.5, 1, -1)
X = (sp.random(n, d, density=0.05, random_state=rng, format="csr")
     + sp.csr_matrix(np.outer(0.5 * y_pm1, np.r_[1.0, np.zeros(d - 1)]))).tocsr()
y_fit = mask_labels(y_pm1, np.arange(200))

single = LinearSVM(lam=1e-3).fit(X, y_fit)
print(f"single process: J = {single.diagnostics_.objective:.12f}, {single.n_iter_} Newton iterations")

if importlib.util.find_spec("ray") is None:
    print("Skipped: ray is not installed here (pip install -e '.[distributed]' installs it).")
else:
    from ssl_repro.distributed.backend import use_backend
    from ssl_repro.distributed import RayBackend

    # A local Ray instance announces that it turned token authentication on (it is on; nothing to
    # do): that notice is kept out of the example's output, Ray's errors are not.
    logging.getLogger("ray._private.authentication.authentication_token_setup").setLevel(logging.ERROR)

    with RayBackend(workers=2) as backend, use_backend(backend):
        distributed = LinearSVM(lam=1e-3).fit(X, y_fit)
    J_single, J_ray = single.diagnostics_.objective, distributed.diagnostics_.objective
    print(f"2 Ray workers:  J = {J_ray:.12f}, relative difference {abs(J_ray - J_single) / J_single:.1e}")
    print(f"predictions agree on {np.mean(single.predict(X) == distributed.predict(X)):.1%} of the rows")
