"""Loss shapes and B(nu) (000 Figs 1-3): properties of the drawn functions, computed."""
import numpy as np

from .. import plots
from .tables import claim_lines, table


def section_drawings(records):
    """tsvm-loss, da-loss, balance-root: properties of the drawn functions, computed."""
    o = np.linspace(-2.5, 2.5, 501)
    a, b = np.maximum(0.0, 1.0 - o) ** 2, np.maximum(0.0, 1.0 + o) ** 2
    tsvm = np.maximum(0.0, 1.0 - np.abs(o)) ** 2
    low = np.max(np.abs(plots.da_effective_loss(o, 0.01) - np.minimum(a, b)))
    high = np.max(np.abs(plots.da_effective_loss(o, 1000.0) - (a + b) / 2) / np.max((a + b) / 2))
    g = np.linspace(-5.0, 5.0, 200)
    nus = np.linspace(-15.0, 15.0, 601)
    from ...solvers.balance import balance_function
    B = np.array([balance_function(g, nu, 1.0, 0.15)[0] for nu in nus])
    increasing = bool(np.all(np.diff(B) >= 0))
    roots = int(np.sum(np.diff(np.sign(B)) != 0))
    rows = [["tsvm-loss", "Fig 1 (000): max(0, 1 - |o|)^2", "min over y' of Eqn 7's max(0, 1 - y'o)^2: largest "
             f"difference from the drawn curve {np.max(np.abs(tsvm - np.minimum(a, b))):.1g}",
             "-", "yes" if np.allclose(tsvm, np.minimum(a, b)) else "no"],
            ["da-loss", "Fig 2 (000): squared-loss shape at high T, the TSVM loss as T -> 0",
             f"at T = 0.01 the drawn loss is within {low:.2g} of the TSVM loss; at T = 1000 within "
             f"{100 * high:.2g}% of the squared loss (a + b)/2", "-", "yes" if low < 0.01 and high < 0.01 else "no"],
            ["balance-root", "Fig 3 (000): B(nu) increasing, one root (T = 1, r = 0.15, g in [-5, 5])",
             f"increasing on the {len(nus)} drawn points: {'yes' if increasing else 'no'}; sign changes: {roots}; "
             f"limits {B[0]:+.3g}, {B[-1]:+.3g} (-r, 1 - r)", "-", "yes" if increasing and roots == 1 else "no"]]
    return ["## Loss shapes and B(nu) (tsvm-loss, da-loss, balance-root)", "",
            *claim_lines(records, "tsvm-loss"), *claim_lines(records, "da-loss"),
            *claim_lines(records, "balance-root"), "",
            table(["artifact", "the paper", "ours (computed from the drawn functions)", "data", "holds"], rows),
            "", "Figures: `figures/fig_tsvm_loss.png`, `figures/fig_da_loss.png`, `figures/fig_balance_B_nu.png`."]
