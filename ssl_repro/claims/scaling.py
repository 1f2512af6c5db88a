"""002's "quadratic trend" of CCCP-TSVM's training time (Fig 3 on text, Fig 8 on the large set): the fitted
exponent p of seconds ~ n^p (least squares on logs) and its 95% interval, and the verdict: holds when the
interval lies inside :data:`QUADRATIC` (nearer 2 than linear or cubic growth), does not hold when it lies
outside, mixed otherwise."""
import numpy as np
from scipy import stats

from ssl_repro.claims import verdicts
from ssl_repro.claims.rules import knife_edges
from ssl_repro.claims.verdicts import FAILS, HOLDS, Verdict, edge_note

#: Exponents of a "quadratic trend": nearer 2 than linear (1) or cubic (3) growth.
QUADRATIC = (1.5, 2.5)


def exponent(n, y):
    """(p, lower, upper): the slope of log y on log n and its 95% interval."""
    fit = stats.linregress(np.log(n), np.log(y))
    t = stats.t.ppf(0.975, len(n) - 2)
    return fit.slope, fit.slope - t * fit.stderr, fit.slope + t * fit.stderr


def scaling_verdict(n, seconds, kernel_evaluations, data, what, kind):
    """The quadratic-trend verdict (module doc) of ``seconds`` against ``n`` rows, kernel evaluations beside,
    on ``data`` of short data kind ``kind``."""
    p, lo, hi = exponent(n, seconds)
    pk, lok, hik = exponent(n, kernel_evaluations)
    low, high = QUADRATIC
    word = HOLDS if low <= lo and hi <= high else FAILS if hi < low or lo > high else verdicts.MIXED
    edges = knife_edges(f"{what}: the exponent's 95% interval", against=[(x, b) for x in (lo, hi) for b in QUADRATIC])
    return Verdict(word, data, f"{what}, n = {int(n.min())}..{int(n.max())}: seconds ~ n^{p:.2f} (95% {lo:.2f} to "
                               f"{hi:.2f}); kernel evaluations ~ n^{pk:.2f} ({lok:.2f} to {hik:.2f})"
                               + edge_note(edges),
                   kind=kind, edges=tuple(edges))
