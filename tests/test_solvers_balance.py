"""OPTIMIZE-P (Table 6): balance constraint, optimality of p, numerics."""
import numpy as np
import pytest

from ssl_repro.solvers.balance import (Beliefs, entropy, entropy_floor, kl_divergence, optimize_p,
                                      unlabeled_loss_gap)


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


@pytest.mark.parametrize("n, mass", [(7, 3.0), (7, 2.5), (7, 0.2), (11, 9.93), (19900, 7960.5)])
def test_entropy_floor_is_the_least_entropy_the_balance_constraint_allows(n, mass):
    """No p in [0, 1]^n with sum p = mass has a lower entropy than the floor; a vertex (0/1 but one) attains it."""
    f = mass - np.floor(mass)
    floor = entropy_floor(n, mass / n)
    assert floor == pytest.approx(-(f * np.log(f) + (1 - f) * np.log(1 - f)) if 0 < f < 1 else 0.0, abs=1e-9)
    vertex = np.r_[np.ones(int(mass)), [f], np.zeros(n - int(mass) - 1)]
    assert entropy(Beliefs(vertex, 1 - vertex, 0, 0)) == pytest.approx(floor, abs=1e-9)
    rng = np.random.default_rng(int(mass * 10))
    for _ in range(200):
        # a random feasible p: mix the vertex with a random permutation of it and uniform beliefs
        weights = rng.dirichlet([0.3, 0.3, 0.3])
        p = weights[0] * vertex + weights[1] * rng.permutation(vertex) + weights[2] * mass / n
        assert p.sum() == pytest.approx(mass)
        assert entropy(Beliefs(p, 1 - p, 0, 0)) >= floor - 1e-9
