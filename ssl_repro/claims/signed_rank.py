"""The paired test of the claims' rules (:mod:`ssl_repro.claims.rules`): the two-sided Wilcoxon signed-rank
test over the splits, with float-noise ties (:data:`ssl_repro.claims.rules.TIE_RTOL` times the larger compared
mean, passed in as ``tol``) dropped as zeros or given one average rank, exact up to :data:`EXACT_UP_TO`
nonzero differences."""
import numpy as np
from scipy.stats import wilcoxon

#: Largest number of nonzero differences whose signed-rank p is computed exactly (2^n sign flips).
EXACT_UP_TO = 16


def signed_rank_p(diff, tol=0.0):
    """Two-sided p of the Wilcoxon signed-rank test of the paired differences ``diff``.

    Differences with ``|d| <= tol`` are zeros and dropped; sizes within ``tol`` of each other are
    one tied size with the average rank.  Exact over all 2^n sign flips up to :data:`EXACT_UP_TO`
    nonzero differences (the sign flips of the tied ranks themselves, as scipy's permutation test);
    ``scipy.stats.wilcoxon``'s normal approximation beyond.  1 without a difference."""
    diff = np.asarray(diff, float)
    diff = diff[np.abs(diff) > tol]
    n = len(diff)
    if n == 0:
        return 1.0
    ranks = tied_ranks(np.abs(diff), tol)
    if n > EXACT_UP_TO:
        return float(wilcoxon(np.sign(diff) * ranks, method="approx").pvalue)
    observed = ranks[diff > 0].sum()
    signs = (np.arange(2 ** n)[:, None] >> np.arange(n)) & 1
    null = signs @ ranks
    centre = ranks.sum() / 2
    return float(np.mean(np.abs(null - centre) >= abs(observed - centre) - 1e-9))


def tied_ranks(sizes, tol):
    """Ranks of ``sizes`` (1 = smallest) with every run of sizes within ``tol`` of its neighbour given
    the run's average rank."""
    order = np.argsort(sizes, kind="stable")
    sorted_sizes = sizes[order]
    group = np.concatenate([[0], np.cumsum(np.diff(sorted_sizes) > tol)])
    positions = np.arange(1, len(sizes) + 1, dtype=float)
    average = np.array([positions[group == g].mean() for g in group])
    ranks = np.empty(len(sizes))
    ranks[order] = average
    return ranks
