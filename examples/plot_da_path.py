"""
DA's annealing path: temperature, objective and positive fraction
=================================================================

Deterministic annealing (000 Tables 5-7) lowers the temperature T from
10 lambda' by a factor 1.5 per outer step, and returns the weights of the
lowest J of Eqn 18 met on its path (000 Sec. 3.2). ``diagnostics_`` keeps
the path: ``objective_path`` holds (T, J) after every OPTIMIZE-W, and
``positive_path`` the fraction of unlabeled outputs > 0 beside it. Eqn 18
has no balance term, so with few labels and r far from 0.5 the lowest J
can be an early temperature whose outputs are all of one sign; the
positive fraction shows when that happens.
``python experiments/da_path.py --dataset D --n-labeled L`` writes the same
path for a harness job.
A loop that stops on its cap is reported from the diagnostics
(``stop_reason``, ``capped``) rather than by a warning.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ssl_repro.data import load_dataset, make_split
from ssl_repro.estimators import LinearDA

data = load_dataset("text-like")
split = make_split(data, 0, 16, n_unlabeled=1000)   # r: the unlabeled rows' positive fraction
rows = np.r_[split.labeled, split.unlabeled]
y_fit = data.fit_labels(split.labeled)[rows]               # -1 on the unlabeled rows
r = split.r

with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)        # reported below from the diagnostics
    da = LinearDA(lam=data.info.lam, lam_u=data.info.lam_u, r=r).fit(data.X[rows], y_fit)
info = da.diagnostics_
print(f"converged={info.converged} stop_reason={info.stop_reason!r} capped={info.capped}")
T = np.array([t for t, _ in info.objective_path])
J = np.array([j for _, j in info.objective_path])
positive = np.array(info.positive_path)
chosen = int(np.argmin(J))
print(f"{da.n_iter_} temperatures, {len(J)} OPTIMIZE-W steps; returned step {chosen + 1}: "
      f"T = {T[chosen]:.4g}, J = {J[chosen]:.5f} (= diagnostics_.objective {info.objective:.5f}), "
      f"positive fraction {positive[chosen]:.3f} against r = {r:.3f}")

# %%
fig, (ax_j, ax_p) = plt.subplots(2, 1, sharex=True, figsize=(6, 5))
steps = np.arange(1, len(J) + 1)
ax_j.plot(steps, J, marker=".")
ax_j.plot(steps[chosen], J[chosen], "r*", markersize=12, label="returned (lowest J)")
ax_j.set_ylabel("J (Eqn 18)")
ax_j.legend()
ax_p.plot(steps, positive, marker=".", label="unlabeled outputs > 0")
ax_p.axhline(r, color="grey", linestyle="--", label="r")
ax_p.set_ylabel("positive fraction")
ax_p.set_xlabel("OPTIMIZE-W step")
ax_p.legend()
top = ax_j.secondary_xaxis("top", functions=(lambda s: s, lambda s: s))
top.set_xticks(steps[::3], [f"{t:.2g}" for t in T[::3]])
top.set_xlabel("T")
fig.tight_layout()
