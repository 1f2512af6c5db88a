"""OPTIMIZE-P (Table 6): balance constraint, optimality of p, numerics."""
import numpy as np
import pytest

from ssl_repro.solvers.balance import (Beliefs, beliefs_for_gaps, entropy, kl_divergence, optimize_p,
                                      unlabeled_loss_gap, unsettled_entropy)


@pytest.mark.parametrize("T", [10.0, 1.0, 0.1, 1e-3])
@pytest.mark.parametrize("r", [0.02, 0.3, 0.5, 0.97])
@pytest.mark.parametrize("scale", [1e-3, 1.0, 30.0])
def test_balance_constraint_holds(T, r, scale):
    o = np.random.default_rng(0).normal(size=5000) * scale
    b = optimize_p(o, 1.0, T, r)
    assert abs(b.p.mean() - r) < 1e-9
    assert np.all((b.p >= 0) & (b.p <= 1))
    np.testing.assert_allclose(b.p + b.q, 1.0, atol=1e-15)


def test_p_minimizes_the_lagrangian_per_example():
    """p_j minimizes lambda' g-weighted loss + T entropy - nu p_j (Sec. 3.2.2)."""
    rng = np.random.default_rng(1)
    o = rng.normal(size=50)
    lam_u, T, r = 2.0, 0.7, 0.4
    b = optimize_p(o, lam_u, T, r)
    a = np.maximum(0, 1 - o) ** 2
    bb = np.maximum(0, 1 + o) ** 2
    grid = np.linspace(1e-9, 1 - 1e-9, 200001)[:, None]
    lagr = (lam_u * (grid * a + (1 - grid) * bb)
            + T * (grid * np.log(grid) + (1 - grid) * np.log(1 - grid)) - b.nu * grid)
    np.testing.assert_allclose(b.p, grid[np.argmin(lagr, axis=0), 0], atol=2e-5)


def test_sign_of_eqn_15_large_positive_outputs_are_positive():
    b = optimize_p(np.array([-5.0, -1.0, 0.0, 1.0, 5.0]), 1.0, 1.0, 0.5)
    assert np.all(np.diff(b.p) > 0)


@pytest.mark.parametrize("T", [1e-12, 1e-6, 1e6])
@pytest.mark.parametrize("scale", [1e-8, 1e8])
def test_no_overflow_or_nan_in_extreme_ranges(T, scale):
    o = np.random.default_rng(2).normal(size=1000) * scale
    with np.errstate(all="raise"):
        b = optimize_p(o, 10.0, T, 0.3)
        kl = kl_divergence(b, Beliefs(np.full(1000, 0.3), np.full(1000, 0.7), 0.0, 0))
        h = entropy(b)
    assert np.all(np.isfinite(b.p)) and np.all(np.isfinite(b.q)) and np.isfinite(b.nu)
    assert np.isfinite(kl) and kl >= 0 and np.isfinite(h) and h >= 0


def test_kl_and_entropy_match_their_definitions():
    rng = np.random.default_rng(3)
    p, q = rng.uniform(0.05, 0.95, 100), rng.uniform(0.05, 0.95, 100)
    kl = kl_divergence(Beliefs(p, 1 - p, 0, 0), Beliefs(q, 1 - q, 0, 0))
    assert kl == pytest.approx(np.sum(p * np.log(p / q) + (1 - p) * np.log((1 - p) / (1 - q))))
    assert entropy(Beliefs(p, 1 - p, 0, 0)) == pytest.approx(-np.sum(p * np.log(p) + (1 - p) * np.log(1 - p)))


def test_kl_matches_scipy_rel_entr_with_zero_and_one_beliefs():
    """Rows whose new p is exactly 0 or 1 contribute 0 log 0 = 0 (scipy's rel_entr convention)."""
    from scipy.special import rel_entr
    rng = np.random.default_rng(4)
    p, q = rng.uniform(0.01, 0.99, 3000), rng.uniform(0.01, 0.99, 3000)
    p[::7], p[3::11] = 0.0, 1.0
    kl = kl_divergence(Beliefs(p, 1 - p, 0, 0), Beliefs(q, 1 - q, 0, 0))
    assert kl == pytest.approx(rel_entr(p, q).sum() + rel_entr(1 - p, 1 - q).sum(), rel=1e-12)


def test_loss_gap_is_eqn_15():
    o = np.array([-3.0, -0.5, 0.0, 0.5, 3.0])
    expected = 2.0 * (np.maximum(0, 1 - o) ** 2 - np.maximum(0, 1 + o) ** 2)
    np.testing.assert_allclose(unlabeled_loss_gap(o, 2.0), expected)


def test_kl_stays_finite_when_p_underflows():
    old = Beliefs(np.array([0.0, 0.5]), np.array([1.0, 0.5]), 0.0, 0)
    new = Beliefs(np.array([1e-3, 0.5]), np.array([1 - 1e-3, 0.5]), 0.0, 0)
    kl = kl_divergence(new, old)
    assert np.isfinite(kl) and kl > 0


def _entropy_at_mass(g, T, mass):
    """H(p) (Eqn 17) of p_j = expit((nu - g_j) / T) with nu the root of sum p = mass, found by scipy."""
    from scipy.optimize import brentq
    from scipy.special import entr, expit
    nu = brentq(lambda nu: expit((nu - g) / T).sum() - mass, g.min() - 50 * T - 10, g.max() + 50 * T + 10,
                xtol=1e-14)
    p = expit((nu - g) / T)
    return float(np.sum(entr(p) + entr(1 - p)))


@pytest.mark.parametrize("n, mass", [(7, 3.0), (7, 2.5), (7, 0.2), (11, 9.93), (300, 120.5), (300, 120.0)])
@pytest.mark.parametrize("T", [1.0, 0.1])
def test_unsettled_entropy_is_the_entropy_at_the_nearest_integer_mass(n, mass, T):
    """The smaller entropy of the beliefs from the same g and T at sum p = floor and ceil of r n, kept
    within [1, n - 1], each root found independently; for an integer r n it is H(p) itself (the papers'
    Eqn 17)."""
    g = np.random.default_rng(n).normal(size=n)
    expected = min(_entropy_at_mass(g, T, min(max(m, 1), n - 1)) for m in (np.floor(mass), np.ceil(mass)))
    assert unsettled_entropy(g, T, mass / n) == pytest.approx(expected, rel=1e-6, abs=1e-9)
    if mass == int(mass):
        assert unsettled_entropy(g, T, mass / n) == pytest.approx(entropy(beliefs_for_gaps(g, T, mass / n)),
                                                                   rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("mass", [120.5, 120.1, 120.9])
def test_unsettled_entropy_can_reach_zero_when_r_n_is_not_an_integer(mass):
    """Distinct gaps at a low T: H(p) keeps the split unit's entropy (h(f) at least), the rule's entropy
    does not, and it falls with T (reachable for every r)."""
    from scipy.special import entr
    n = 300
    g = np.random.default_rng(3).permutation(np.arange(n, dtype=float))
    f = mass - np.floor(mass)
    values = [unsettled_entropy(g, T, mass / n) for T in (1.0, 0.3, 0.1, 0.03)]
    assert all(a > b for a, b in zip(values, values[1:]))
    assert values[-1] < 1e-5
    assert entropy(beliefs_for_gaps(g, 0.03, mass / n)) >= entr(f) + entr(1 - f) - 1e-9


@pytest.mark.parametrize("n, r, mass", [(50, 0.01, 1), (50, 0.99, 49), (2, 0.3, 1)])
def test_unsettled_entropy_within_one_row_of_all_negative_or_all_positive_is_taken_at_mass_1_or_n_1(n, r, mass):
    """r n < 1 or > n - 1: the masses 0 and n would call any beliefs settled; the test is taken at 1 or n - 1."""
    g = np.linspace(-1, 1, n)
    value = unsettled_entropy(g, 1.0, r)
    assert value > 0 and value == pytest.approx(_entropy_at_mass(g, 1.0, mass), rel=1e-6)


def test_one_unlabeled_row_has_no_mass_to_settle():
    assert unsettled_entropy(np.zeros(1), 1.0, 0.4) == 0.0
