"""
The fixed-temperature ablation
==============================

000 Figs 12-13 and 004 Sec. 1.5 ask whether annealing matters: DA at one
fixed temperature against the annealed schedule. Temperatures are in units
of lambda' here (``fixed_temperature=T`` means T x lambda', as ``T0``), so
T = 1, 0.1, 0.001 are the same points of the schedule for every lambda'.
Annealing should reach an objective (Eqn 18) no higher than the fixed
temperatures, the harness's ``+experiment=ablation`` on a dataset's splits.
"""

import matplotlib.pyplot as plt
import numpy as np

from ssl_repro.data import load_dataset, make_split
from ssl_repro.estimators import LinearDA

data = load_dataset("text-like")
split = make_split(data, 0, 32, n_unlabeled=1000)   # r: the unlabeled rows' positive fraction
rows = np.r_[split.labeled, split.unlabeled]
y_fit = data.fit_labels(split.labeled)[rows]               # -1 on the unlabeled rows
r = split.r
truth = (data.y[split.test] > 0).astype(int)

runs = {"annealed": LinearDA(lam=data.info.lam, lam_u=data.info.lam_u, r=r)}
for T in (1.0, 0.1, 0.001):
    runs[f"T = {T:g}"] = LinearDA(lam=data.info.lam, lam_u=data.info.lam_u, r=r, fixed_temperature=T)
objective, error = {}, {}
for name, est in runs.items():
    est.fit(data.X[rows], y_fit)
    objective[name] = est.diagnostics_.objective
    error[name] = float(np.mean(est.predict(data.X[split.test]) != truth))
    print(f"{name:9s} J = {objective[name]:.5f}  test error {error[name]:.3f}  temperatures {est.n_iter_}")

# %%
fig, (ax_j, ax_e) = plt.subplots(1, 2, figsize=(7, 3.2))
names = list(runs)
ax_j.bar(names, [objective[n] for n in names], color=["C0"] + ["C1"] * 3)
ax_j.set_ylabel("J (Eqn 18)")
ax_e.bar(names, [error[n] for n in names], color=["C0"] + ["C1"] * 3)
ax_e.set_ylabel("test error")
for ax in (ax_j, ax_e):
    ax.tick_params(axis="x", rotation=30)
fig.tight_layout()
