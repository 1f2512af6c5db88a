"""The papers' drawings that need no results: the TSVM loss (000 Fig 1 / 004 Fig 1.1), the DA loss as T
falls (000 Fig 2 / 004 Fig 1.2) and B(nu) with its root (000 Fig 3); :mod:`.plots` draws them with
``--loss-shapes`` and exports them under its own name."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.optimize import brentq  # noqa: E402

from ssl_repro.solvers.balance import balance_function  # noqa: E402


def tsvm_loss_figure():
    """Fig 1 (000) / Fig 1.1 (004): the unlabeled loss max(0, 1 - |o|)^2."""
    o = np.linspace(-2.5, 2.5, 501)
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot(o, np.maximum(0.0, 1.0 - np.abs(o)) ** 2)
    ax.set_xlabel("output o = w.x")
    ax.set_ylabel("loss")
    ax.set_title("L2 TSVM loss on an unlabeled example")
    fig.tight_layout()
    return fig


def da_effective_loss(o, T, lam_u=1.0):
    """Eqn 8's loss of one unlabeled example minimized over its p (no balance constraint),
    shifted by T log 2 so that every T shares the baseline:
    min_p lam_u [p a + (1-p) b] + T [p log p + (1-p) log(1-p)] + T log 2
    = -T log((exp(-lam_u a/T) + exp(-lam_u b/T)) / 2),  a = max(0, 1 - o)^2, b = max(0, 1 + o)^2.
    T -> 0 gives the TSVM loss lam_u min(a, b); large T the squared loss lam_u (a + b) / 2."""
    a = lam_u * np.maximum(0.0, 1.0 - o) ** 2
    b = lam_u * np.maximum(0.0, 1.0 + o) ** 2
    return -T * (np.logaddexp(-a / T, -b / T) - np.log(2.0))


#: The temperatures Fig 2's drawing shows, highest first (the report computes its da-loss row at these).
DA_LOSS_TEMPERATURES = (10.0, 1.0, 0.5, 0.1, 0.01)


def da_loss_figure(temperatures=DA_LOSS_TEMPERATURES):
    """Fig 2 (000) / Fig 1.2 (004): the DA loss deforming into the TSVM loss as T falls."""
    o = np.linspace(-2.5, 2.5, 501)
    fig, ax = plt.subplots(figsize=(4, 3))
    for T in temperatures:
        ax.plot(o, da_effective_loss(o, T), label=f"T = {T:g}")
    ax.set_xlabel("output o = w.x")
    ax.set_ylabel("effective loss")
    ax.set_title("DA loss on an unlabeled example")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def balance_figure(T=1.0, r=0.15, n=200):
    """Fig 3 (000): B(nu) = mean_j 1/(1 + exp((g_j - nu)/T)) - r for g_j in [-5, 5], with its root."""
    g = np.linspace(-5.0, 5.0, n)
    nus = np.linspace(-15.0, 15.0, 601)
    values = [balance_function(g, nu, T, r)[0] for nu in nus]
    root = brentq(lambda nu: balance_function(g, nu, T, r)[0], -50.0, 50.0, xtol=1e-12)
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot(nus, values)
    ax.axhline(0.0, color="gray", lw=0.5)
    ax.plot([root], [0.0], "o", color="red", label=f"root nu = {root:.3f}")
    ax.set_xlabel("nu")
    ax.set_ylabel("B(nu)")
    ax.set_title(f"B(nu), T = {T:g}, r = {r:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
