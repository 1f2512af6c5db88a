"""Loss shapes and B(nu) (000 Figs 1-3): properties of the drawn functions, computed."""
import numpy as np

from ssl_repro.report import plots
from ssl_repro.report.tables import claim_lines, table


def section_drawings(records):
    """tsvm-loss, da-loss, balance-root: properties of the drawn functions, computed."""
    o = np.linspace(-2.5, 2.5, 501)
    a, b = np.maximum(0.0, 1.0 - o) ** 2, np.maximum(0.0, 1.0 + o) ** 2
    tsvm = np.maximum(0.0, 1.0 - np.abs(o)) ** 2
    drawn = plots.DA_LOSS_TEMPERATURES
    to_tsvm = [np.max(np.abs(plots.da_effective_loss(o, T) - np.minimum(a, b))) for T in drawn]
    to_squared = [np.max(np.abs(plots.da_effective_loss(o, T) - (a + b) / 2)) / np.max((a + b) / 2) for T in drawn]
    deforms = bool(np.all(np.diff(to_tsvm) < 0) and np.all(np.diff(to_squared) > 0) and to_tsvm[-1] < 0.01)
    g = np.linspace(-5.0, 5.0, 200)
    nus = np.linspace(-15.0, 15.0, 601)
    from ssl_repro.solvers.balance import balance_function
    B = np.array([balance_function(g, nu, 1.0, 0.15)[0] for nu in nus])
    increasing = bool(np.all(np.diff(B) >= 0))
    roots = int(np.sum(np.diff(np.sign(B)) != 0))
    rows = [["tsvm-loss", "Fig 1 (000): max(0, 1 - |o|)^2", "min over y' of Eqn 7's max(0, 1 - y'o)^2: largest "
             f"difference from the drawn curve {np.max(np.abs(tsvm - np.minimum(a, b))):.1g}",
             "-", "yes" if np.allclose(tsvm, np.minimum(a, b)) else "no"],
            ["da-loss", "Fig 2 (000): from a squared-loss shape at high T to the TSVM loss as T falls",
             f"drawn at T = {', '.join(f'{T:g}' for T in drawn)}: as T falls, the largest difference from the "
             f"TSVM loss min(a, b) falls at every step, from {to_tsvm[0]:.2g} (T = {drawn[0]:g}) to {to_tsvm[-1]:.2g} "
             f"(T = {drawn[-1]:g}); as T rises, the largest difference from the squared loss (a + b)/2, relative to "
             f"its maximum, falls at every step, from {100 * to_squared[-1]:.2g}% (T = {drawn[-1]:g}) to "
             f"{100 * to_squared[0]:.2g}% (T = {drawn[0]:g}, the highest drawn)", "-", "yes" if deforms else "no"],
            ["balance-root", "Fig 3 (000): B(nu) increasing, one root (T = 1, r = 0.15, g in [-5, 5])",
             f"increasing on the {len(nus)} drawn points: {'yes' if increasing else 'no'}; sign changes: {roots}; "
             f"limits {B[0]:+.3g}, {B[-1]:+.3g} (-r, 1 - r)", "-", "yes" if increasing and roots == 1 else "no"]]
    return ["## Loss shapes and B(nu) (tsvm-loss, da-loss, balance-root)", "",
            *claim_lines(records, "tsvm-loss"), *claim_lines(records, "da-loss"),
            *claim_lines(records, "balance-root"), "",
            table(["artifact", "the paper", "ours (computed from the drawn functions)", "data", "holds"], rows),
            "", "Figures: `figures/fig_tsvm_loss.png`, `figures/fig_da_loss.png`, `figures/fig_balance_B_nu.png`."]
