"""L2-SVM-MFN (Table 1) and RLS against independent solvers of the same objectives."""
import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import LinearSVC

from solver_problems import augmented_dense, random_problem
from ssl_repro.solvers import (BiasedRows, SquaredHingeLoss, from_blocks, l2svm_mfn, rls, svm,
                               train_rls, train_svm)


def weighted_objective(w, A, y, c, lam):
    h = np.maximum(0.0, 1.0 - y * (A @ w))
    return 0.5 * lam * w @ w + 0.5 * c @ (h * h)


def weighted_gradient(w, A, y, c, lam):
    h = np.maximum(0.0, 1.0 - y * (A @ w))
    return lam * w - A.T @ (c * y * h)


def scipy_minimum(A, y, c, lam):
    res = minimize(weighted_objective, np.zeros(A.shape[1]), args=(A, y, c, lam),
                   jac=weighted_gradient, method="L-BFGS-B",
                   options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 20000})
    return res.fun


@pytest.mark.parametrize("seed", range(4))
def test_svm_objective_equals_liblinear(seed):
    """LinearSVC(squared hinge, primal) with C = 1/(2 l lambda) and a regularized intercept."""
    X, y, _, _ = random_problem(seed, l=80, d=40)
    lam = 10.0 ** (-1 - seed % 3)
    w, info = train_svm(X, y, lam=lam)
    ref = LinearSVC(loss="squared_hinge", dual=False, C=1.0 / (2 * 80 * lam), tol=1e-12,
                    intercept_scaling=1.0, max_iter=100000).fit(X, y)
    w_ref = np.r_[ref.coef_[0], ref.intercept_[0]]
    A = augmented_dense(X)
    c = np.full(80, 1.0 / 80)
    ours, theirs = weighted_objective(w, A, y, c, lam), weighted_objective(w_ref, A, y, c, lam)
    assert info.objective == pytest.approx(ours, rel=1e-12)
    assert ours == pytest.approx(theirs, rel=1e-6)
    assert ours <= theirs * (1 + 1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_weighted_mfn_equals_scipy_minimum_and_has_zero_gradient(seed):
    X, y, _, _ = random_problem(seed + 10, l=60, d=30)
    rng = np.random.default_rng(seed)
    c = rng.uniform(0.0, 0.2, size=60)
    lam = 0.01
    loss = SquaredHingeLoss(BiasedRows(X), np.arange(60, dtype=np.int64), y, c, lam)
    w, o, info = l2svm_mfn(loss)
    assert info.converged
    A = augmented_dense(X)
    assert loss.value(w, o) == pytest.approx(scipy_minimum(A, y, c, lam), rel=1e-6)
    np.testing.assert_allclose(loss.gradient(w, o), weighted_gradient(w, A, y, c, lam), atol=1e-12)
    assert np.linalg.norm(loss.gradient(w, o)) < 1e-6


def test_mfn_seeded_from_a_previous_solution_reaches_the_same_minimum():
    X, y, _, _ = random_problem(7, l=60, d=30)
    lam = 0.01
    rows = np.arange(60, dtype=np.int64)
    op = BiasedRows(X)
    c1, c2 = np.full(60, 1 / 60), np.linspace(0.001, 0.05, 60)
    w1, o1, _ = l2svm_mfn(SquaredHingeLoss(op, rows, y, c1, lam))
    seeded, o_s, _ = l2svm_mfn(SquaredHingeLoss(op, rows, y, c2, lam), w1, o1)
    cold, o_c, _ = l2svm_mfn(SquaredHingeLoss(op, rows, y, c2, lam))
    np.testing.assert_allclose(seeded, cold, atol=1e-6)


def dense_system_residual(A, system, o, w, lam):
    """Table 2's residual of an active system at w, formed densely over its rows."""
    pos = system.positions
    return A[pos].T @ (system.cost * (system.target - o[pos])) - lam * w


@pytest.mark.parametrize("owner", [False, True])
def test_residual_change_is_the_difference_of_the_two_systems_residuals(owner):
    """Switching labels (TSVM) or changing pseudo-row costs (DA) at a fixed w changes Table 2's
    residual by exactly what SquaredHingeLoss.residual_change returns."""
    X, y, Xu, _ = random_problem(4, l=20, u=40, d=15)
    prob = from_blocks(X, y, Xu)
    rows = np.r_[prob.labeled, prob.unlabeled]
    rng = np.random.default_rng(2)
    if owner:
        owner_of = np.r_[np.arange(20), 20 + np.arange(40), 20 + np.arange(40)]
        labels = np.r_[y, np.ones(40), -np.ones(40)]
        p = rng.random(40)
        before = SquaredHingeLoss(prob.op, rows, labels, np.r_[np.full(20, 0.05), p / 40, (1 - p) / 40], 0.01,
                                  owner_of)
        p[::3] = rng.random(14)
        after = SquaredHingeLoss(prob.op, rows, labels, np.r_[np.full(20, 0.05), p / 40, (1 - p) / 40], 0.01,
                                 owner_of)
    else:
        labels = np.r_[y, np.where(rng.random(40) < 0.5, 1.0, -1.0)]
        costs = np.r_[np.full(20, 0.05), np.full(40, 0.02)]
        before = SquaredHingeLoss(prob.op, rows, labels, costs, 0.01)
        switched = labels.copy()
        switched[20:30] *= -1
        after = SquaredHingeLoss(prob.op, rows, switched, costs, 0.01)
    w = rng.normal(size=prob.op.n_weights) * 0.3
    o = before.outputs(w)
    old, new = before.active_system(o), after.active_system(o)
    A = augmented_dense(prob.op.X)[rows]
    expected = dense_system_residual(A, new, o, w, 0.01) - dense_system_residual(A, old, o, w, 0.01)
    np.testing.assert_allclose(after.residual_change(old, new, o), expected, atol=1e-12)


def test_mfn_after_a_switch_starts_from_the_carried_residual_and_reaches_the_same_minimum():
    """TSVM's retraining after a label switch passes the previous call's state: the same minimizer,
    and fewer rows read by transposed products (no full residual pass at the start)."""
    X, y, Xu, _ = random_problem(6, l=30, u=90, d=20)
    prob = from_blocks(X, y, Xu)
    rows = np.r_[prob.labeled, prob.unlabeled]
    labels = np.r_[y, np.where(np.random.default_rng(3).random(90) < 0.5, 1.0, -1.0)]
    loss = SquaredHingeLoss(prob.op, rows, labels, np.r_[np.full(30, 1 / 30), np.full(90, 0.5 / 90)], 0.01)
    w, o, info = l2svm_mfn(loss, keep_state=True)
    assert info.converged and info.state is not None
    labels[30:34] *= -1                       # switched in place, as TSVM does
    read = []
    rmatvec = prob.op.rmatvec
    prob.op.rmatvec = lambda z, rows_: read.append(rows_.size) or rmatvec(z, rows_)
    carried, o_carried, _ = l2svm_mfn(loss, w, o, previous=info.state)
    rows_read_carried = sum(read)
    read.clear()
    fresh, o_fresh, _ = l2svm_mfn(loss, w, o)
    np.testing.assert_allclose(carried, fresh, rtol=1e-9, atol=1e-11)
    assert loss.value(carried, o_carried) == pytest.approx(loss.value(fresh, o_fresh), rel=1e-12)
    assert rows_read_carried < sum(read)


def test_merged_pseudo_rows_give_the_same_minimizer_as_duplicated_rows():
    """Eqn 14: each row once with merged cost/label == Eqn 11's two copies."""
    X, y, Xu, _ = random_problem(3, l=20, u=40, d=15)
    rng = np.random.default_rng(1)
    p = rng.random(40)
    lam = 0.01
    prob = from_blocks(X, y, Xu)
    rows = np.r_[prob.labeled, prob.unlabeled]
    owner = np.r_[np.arange(20), 20 + np.arange(40), 20 + np.arange(40)]
    ylab = np.r_[y, np.ones(40), -np.ones(40)]
    c = np.r_[np.full(20, 1 / 20), p / 40, (1 - p) / 40]
    merged = SquaredHingeLoss(prob.op, rows, ylab, c, lam, owner)
    w, o, info = l2svm_mfn(merged, tau=1e-8)
    A = augmented_dense(prob.op.X)[np.r_[rows, prob.unlabeled]]  # rows explicitly duplicated
    assert merged.value(w, o) == pytest.approx(scipy_minimum(A, ylab, c, lam), rel=1e-6)
    system = merged.active_system(o)
    pos, act = system.positions, system.active
    # one CGLS row per distinct row with an active pseudo-row, however many of its copies are active
    np.testing.assert_array_equal(pos, np.unique(owner[act]))
    assert np.sum(act) > pos.size        # some rows are active with both labels: merging mattered


def test_rls_equals_closed_form():
    X, y, _, _ = random_problem(4, l=50, d=20)
    w, info = train_rls(X, y, lam=0.05)
    A = augmented_dense(X)
    c = np.full(50, 1 / 50)
    expected = np.linalg.solve(0.05 * np.eye(A.shape[1]) + A.T @ (c[:, None] * A), A.T @ (c * y))
    np.testing.assert_allclose(w, expected, rtol=1e-5, atol=1e-7)  # CGLS tolerance 1e-6
    resid = y - A @ expected
    assert info.own_objective == pytest.approx(0.025 * expected @ expected + 0.5 * c @ resid ** 2, rel=1e-9)


def test_svm_and_rls_accept_explicit_costs():
    X, y, _, _ = random_problem(4, l=50, d=20)
    cost = np.linspace(0.001, 0.05, 50)
    prob = from_blocks(X, y)
    w, info = svm(prob, 0.01, cost)
    # the costed objective lambda/2 ||w||^2 + 1/2 sum c_i max(0, 1 - y_i o_i)^2, against scipy
    assert info.own_objective == pytest.approx(scipy_minimum(augmented_dense(X), y, cost, 0.01), rel=1e-6)
    _, uniform = svm(prob, 0.01)
    assert info.own_objective != pytest.approx(uniform.own_objective, rel=1e-3)   # the costs were used
    with pytest.raises(ValueError, match="cost must be 50"):
        rls(prob, 0.01, cost[:-1])


def test_mfn_with_a_linear_term_equals_scipy_minimum():
    """f(w) + v.w (used by CCCP's linearization and balance multiplier) is minimized exactly."""
    X, y, _, _ = random_problem(8, l=60, d=30)
    A = augmented_dense(X)
    c = np.full(60, 1 / 60)
    v = np.random.default_rng(2).normal(size=A.shape[1]) * 0.05
    loss = SquaredHingeLoss(BiasedRows(X), np.arange(60, dtype=np.int64), y, c, 0.01, linear=v)
    w, o, info = l2svm_mfn(loss)
    res = minimize(lambda u: weighted_objective(u, A, y, c, 0.01) + v @ u, np.zeros(A.shape[1]),
                   jac=lambda u: weighted_gradient(u, A, y, c, 0.01) + v, method="L-BFGS-B",
                   options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 20000})
    assert info.converged
    assert loss.value(w, o) == pytest.approx(res.fun, rel=1e-6)
    assert np.linalg.norm(loss.gradient(w, o)) < 1e-6
