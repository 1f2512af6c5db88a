"""
The diagnostics of a capped run
===============================

Every loop of the solvers stops on the paper's rule or on a cap, and a cap
is never silent: the estimator emits :class:`sklearn.exceptions.ConvergenceWarning`
naming the cap and what to raise, and ``diagnostics_`` (a
:class:`~ssl_repro.solvers.SolverInfo`) records ``converged``,
``stop_reason`` (the cap that ended the outer loop) and ``capped`` (the
caps inner solves hit, with counts). Here DA is held to 3 temperatures
(``max_outer=3``) and TSVM to one switch round per lambda' level
(``max_switch_rounds=1``); the harness writes the same fields to each job's
``result.json`` and logs ``NOT converged (...)``.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ssl_repro.data import load_dataset, make_split
from ssl_repro.estimators import LinearDA, LinearTSVM

data = load_dataset("text-like")
split = make_split(data, 0, 64, n_unlabeled=1000)   # r: the unlabeled rows' positive fraction
rows = np.r_[split.labeled, split.unlabeled]
y_fit = data.fit_labels(split.labeled)[rows]               # -1 on the unlabeled rows
r = split.r
lam, lam_u = data.info.lam, data.info.lam_u

fits = {}
for name, est in [("DA", LinearDA(lam=lam, lam_u=lam_u, r=r)),
                  ("DA max_outer=3", LinearDA(lam=lam, lam_u=lam_u, r=r, max_outer=3)),
                  ("TSVM S=1 max_switch_rounds=1", LinearTSVM(lam=lam, lam_u=lam_u, r=r, max_switch_rounds=1))]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        est.fit(data.X[rows], y_fit)
    info = est.diagnostics_
    fits[name] = est
    print(f"{name}: converged={info.converged} stop_reason={info.stop_reason!r} capped={info.capped} "
          f"n_iter_={est.n_iter_} J={info.objective:.5f}")
    for warning in caught:
        print(f"    ConvergenceWarning: {warning.message}")

# %%
# The capped DA path stops after 3 temperatures, well above the J the full
# schedule reaches.
fig, ax = plt.subplots(figsize=(6, 3.5))
for name in ("DA", "DA max_outer=3"):
    path = fits[name].diagnostics_.objective_path
    ax.plot(range(1, len(path) + 1), [j for _, j in path], marker=".", label=name)
ax.set_xlabel("OPTIMIZE-W step")
ax.set_ylabel("J (Eqn 18)")
ax.legend()
fig.tight_layout()
