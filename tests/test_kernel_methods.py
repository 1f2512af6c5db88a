"""Kernel DA / JTSVM methods (001; the f-steps one by one are in test_kernel_da.py): the hinge f-step against an independent dual QP,
the balance of DA's p and JTSVM's labels, the kernel form of Eqn 18, and the scikit-learn estimators."""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.base import clone

import ssl_repro.kernel.annealing as annealing
import ssl_repro.kernel.fstep as fstep_module
import ssl_repro.kernel.jtsvm as jtsvm_module
from ssl_repro.data.embedded import two_circles, two_moons
from ssl_repro.estimators import mask_labels
from ssl_repro.kernel_estimators import KernelDA, KernelJTSVM
from ssl_repro.kernel import FStep, default_sigma, kernel_da, rbf_gram
from ssl_repro.kernel.training import kernel_eqn18, train_kernel


@pytest.fixture(scope="module")
def moons():
    X, y = two_moons(n_rows=50, seed=3)
    labeled = np.array([np.flatnonzero(y > 0)[0], np.flatnonzero(y < 0)[0]])
    unlabeled = np.setdiff1d(np.arange(50), labeled)
    return X, y.astype(float), labeled, unlabeled, rbf_gram(X, default_sigma(X) / 4)


def test_hinge_fstep_closes_the_duality_gap_of_an_independent_dual(moons):
    """Weak duality: the SVC step's primal value is at most the optimum of the dual QP (solved by SLSQP)
    plus libsvm's tolerance.  Dual: max sum b - b'Qb/(2 lambda), 0 <= b_k <= c_k, sum b_k y_k = 0."""
    X, y, labeled, unlabeled, K = moons
    rng = np.random.default_rng(0)
    unlabeled = unlabeled[:20]      # 42 dual variables keep SLSQP quick
    u, lam = unlabeled.size, 0.05
    p = rng.random(u)
    points = np.r_[labeled, unlabeled, unlabeled]
    labels = np.r_[y[labeled], np.ones(u), -np.ones(u)]
    c = np.r_[np.full(2, 0.5), p / u, (1 - p) / u]
    step = FStep(K, lam, "l1")
    alpha, bias = step.solve(points, labels, c)
    primal = step.objective(alpha, points, labels, c, bias)
    # in b = c * z with z in [0, 1] (c ~ 1/u would leave SLSQP badly scaled), objective scaled by 1/sum(c)
    Q = (labels[:, None] * labels[None, :]) * K[np.ix_(points, points)]
    Qc, scale = c[:, None] * Q * c[None, :] / lam, 1.0 / c.sum()
    ref = minimize(lambda z: -scale * (c @ z - z @ Qc @ z / 2), np.full(c.size, 0.5),
                   jac=lambda z: -scale * (c - Qc @ z), method="SLSQP", bounds=[(0.0, 1.0)] * c.size,
                   constraints=[{"type": "eq", "fun": lambda z: scale * (c * z) @ labels,
                                 "jac": lambda z: scale * c * labels}],
                   options={"ftol": 1e-15, "maxiter": 5000})
    assert ref.success
    dual = -ref.fun / scale
    assert dual <= primal + 1e-9
    assert primal - dual <= 1e-3 * max(1.0, abs(primal))
    # and the expansion SVC returns is the dual's f = K (b * y) / lambda on the points
    f_ref = K[:, points] @ (c * ref.x * labels) / lam
    np.testing.assert_allclose(K @ alpha, f_ref, atol=5e-2 * np.abs(f_ref).max())


@pytest.mark.parametrize("loss", ["l1", "l2", "sqr"])
def test_every_p_step_of_da_meets_the_balance(moons, monkeypatch, loss):
    X, y, labeled, unlabeled, K = moons
    means = []

    def recording(gaps, T, r):
        beliefs = beliefs_for_gaps(gaps, T, r)
        means.append(beliefs.p.mean())
        return beliefs
    beliefs_for_gaps = annealing.beliefs_for_gaps
    monkeypatch.setattr(annealing, "beliefs_for_gaps", recording)
    kernel_da(K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.3, loss=loss, max_outer=8)
    assert len(means) > 3
    np.testing.assert_allclose(means, 0.3, atol=1e-9)


@pytest.mark.parametrize("loss", ["l1", "l2"])
def test_jtsvm_switches_keep_the_number_of_positive_labels(moons, monkeypatch, loss):
    X, y, labeled, unlabeled, K = moons
    counts = []

    def recording(labels, o, max_pairs):
        counts.append(int((labels > 0).sum()))
        return switch_pairs(labels, o, max_pairs)
    switch_pairs = jtsvm_module.switch_pairs
    monkeypatch.setattr(jtsvm_module, "switch_pairs", recording)
    _, _, info = jtsvm_module.kernel_jtsvm(K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.3, loss=loss)
    assert len(counts) > 1 and len(set(counts)) == 1
    assert counts[0] == round(0.3 * unlabeled.size)


def test_da_squared_loss_factors_its_matrix_once(moons, monkeypatch):
    """001, Eqn 7: (G + lambda C)^-1 does not depend on p, so one factorization serves the whole run."""
    X, y, labeled, unlabeled, K = moons
    calls = []
    lu_factor = fstep_module.lu_factor
    monkeypatch.setattr(fstep_module, "lu_factor", lambda *a, **k: calls.append(1) or lu_factor(*a, **k))
    _, _, info = kernel_da(K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="sqr", max_outer=5)
    assert len(info["path"]) > 1
    assert len(calls) == 1



def test_squared_loss_step_refactors_when_the_weights_really_change(moons, monkeypatch):
    """JTSVM raises lambda' level by level: each new weight vector needs a new factor, and every solve
    equals a dense solve with the weights of that call; a change of a relative 1e-9 (far above
    rounding) refactors too, while weights equal up to rounding (DA's split p/u + (1-p)/u) do not."""
    X, y, labeled, unlabeled, K = moons
    calls = []
    lu_factor = fstep_module.lu_factor
    monkeypatch.setattr(fstep_module, "lu_factor", lambda *a, **k: calls.append(1) or lu_factor(*a, **k))
    lam, n, l, u = 1e-2, K.shape[0], labeled.size, unlabeled.size
    step = FStep(K, lam, "sqr")

    def dense(points, labels, c):
        """sum_k c_k (y_k - f_{i_k})^2 / 2 + lam/2 a'Ka is minimal where (W K + lam I) a = sum_k c_k y_k e_{i_k}."""
        W, b = np.zeros(n), np.zeros(n)
        for i, label, cost in zip(points, labels, c):
            W[i] += cost
            b[i] += cost * label
        return np.linalg.solve(W[:, None] * K + lam * np.eye(n), b)

    def check(points, labels, c, factors):
        alpha, bias = step.solve(points, labels, c)
        assert bias == 0.0 and len(calls) == factors
        np.testing.assert_allclose(alpha, dense(points, labels, c), rtol=1e-8, atol=1e-10 * np.abs(alpha).max())

    check(labeled, y[labeled], np.full(l, 1.0 / l), 1)            # labeled only: zero weights elsewhere
    points = np.r_[labeled, unlabeled]
    labels = np.r_[y[labeled], np.where(np.arange(u) % 3 == 0, 1.0, -1.0)]
    for factors, level in enumerate([1e-5, 1.5e-5, 0.1, 1.0], start=2):
        check(points, labels, np.r_[np.full(l, 1.0 / l), np.full(u, level / u)], factors)
    check(points, -labels, np.r_[np.full(l, 1.0 / l), np.full(u, 1.0 / u)], 5)   # labels switched: same factor
    nudged = np.r_[np.full(l, 1.0 / l), np.full(u, 1.0 / u)] * (1 + 1e-9)
    check(points, labels, nudged, 6)
    p = np.random.default_rng(2).random(u)
    check(np.r_[labeled, unlabeled, unlabeled], np.r_[y[labeled], np.ones(u), -np.ones(u)],
          np.r_[np.full(l, 1.0 / l), p / u, (1 - p) / u] * (1 + 1e-9), 6)


def test_kernel_eqn18_is_the_linear_objective_in_the_rkhs(moons):
    X, y, labeled, unlabeled, K = moons
    alpha = np.random.default_rng(1).normal(size=K.shape[0]) * 0.1
    f = K @ alpha + 0.2
    expected = (0.5 * 0.03 * alpha @ K @ alpha + 0.5 * np.mean(np.maximum(0, 1 - y[labeled] * f[labeled]) ** 2)
                + 0.5 * 2.0 * np.mean(np.maximum(0, 1 - np.abs(f[unlabeled])) ** 2))
    assert kernel_eqn18(K, alpha, 0.2, labeled, y[labeled], unlabeled, 0.03, 2.0) == pytest.approx(expected, rel=1e-12)


def test_train_kernel_reports_both_objectives(moons):
    X, y, labeled, unlabeled, K = moons
    alpha, bias, info = train_kernel("da", K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="l2", max_outer=6)
    # with the quadratic hinge V = max(0, 1 - t)^2 / 2, 001's Eqn 1 is exactly Eqn 18
    assert info.own_objective == pytest.approx(info.objective, rel=1e-12)
    assert info.own_objective == min(v for _, v in info.objective_path)
    assert info.temperatures[0] == 10.0 and info.method == "kernel_da_l2" and info.seconds > 0
    assert info.positive_fraction == np.mean(K[unlabeled] @ alpha + bias > 0)
    alpha_j, bias_j, info_j = train_kernel("jtsvm", K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="l1")
    _, _, raw = jtsvm_module.kernel_jtsvm(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, 1.0, 0.5, loss="l1")
    assert info_j.switches == raw["switches"] and info_j.temperatures == []
    assert info_j.objective == pytest.approx(kernel_eqn18(K, alpha_j, bias_j, labeled, y[labeled], unlabeled,
                                                          1e-2, 1.0), rel=1e-12)
    with pytest.raises(ValueError, match="kernel method must be"):
        train_kernel("nabla", K, labeled, y[labeled], unlabeled, 1e-2)


def test_estimator_equals_the_solver_and_predicts_out_of_sample(moons):
    X, y, labeled, unlabeled, K = moons
    y_fit = mask_labels(y, labeled)
    est = KernelDA(lam=1e-2, r=0.5, loss="l1", sigma_factor=0.25, max_outer=6).fit(X, y_fit)
    alpha, bias, info = train_kernel("da", K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="l1", max_outer=6)
    np.testing.assert_allclose(est.dual_coef_[0], alpha, atol=1e-10)
    assert est.intercept_[0] == pytest.approx(bias, abs=1e-10)
    assert est.sigma_ == pytest.approx(default_sigma(X) / 4)
    np.testing.assert_allclose(est.decision_function(X), K @ alpha + bias, atol=1e-9)
    assert np.array_equal(est.transduction_[unlabeled], (K[unlabeled] @ alpha + bias > 0).astype(int))
    assert np.array_equal(est.transduction_[labeled], y_fit[labeled])
    # sparse input, an explicit width, and clone
    same = clone(est).set_params(sigma=est.sigma_).fit(sp.csr_matrix(X), y_fit)
    np.testing.assert_allclose(same.dual_coef_, est.dual_coef_, atol=1e-10)
    X_new = X[:5] + 0.01
    np.testing.assert_allclose(est.decision_function(X_new), rbf_gram(X_new, est.sigma_, X) @ alpha + bias, atol=1e-9)
    assert set(est.predict(X_new)) <= {0, 1}


def test_jtsvm_estimator_and_bad_input(moons):
    X, y, labeled, unlabeled, K = moons
    y_fit = mask_labels(y, labeled)
    est = KernelJTSVM(lam=1e-2, r=0.5, loss="l2", sigma_factor=0.25, switches="max").fit(X, y_fit)
    assert est.diagnostics_.method == "kernel_jtsvm_l2" and est.predict(X).shape == (50,)
    with pytest.raises(ValueError, match="'loss' parameter of KernelDA must be a str among"):
        KernelDA(loss="huber").fit(X, y_fit)
    with pytest.raises(ValueError, match="transductive"):
        KernelDA().fit(X, (y > 0).astype(int))
    with pytest.raises(ValueError, match="mask_labels"):          # raw +1/-1 labels: the way out is named
        KernelDA().fit(X, np.where(np.arange(50) < 2, 1, -1))
    with pytest.raises(ValueError, match="needs two classes"):
        KernelDA().fit(X, np.where(np.arange(50) < 2, 5, -1))



def test_estimators_are_registered_refuse_too_many_rows_and_predict_by_blocks(moons, monkeypatch):
    import ssl_repro.kernel_estimators as beyond
    from ssl_repro.methods import METHODS
    X, y, labeled, unlabeled, K = moons
    assert METHODS["kernel_da"].estimator_class is KernelDA and METHODS["kernel_jtsvm"].estimator_class is KernelJTSVM
    y_fit = mask_labels(y, labeled)
    with pytest.raises(ValueError, match=r"KernelJTSVM: 50 training rows exceed the kernel methods' limit of "
                                         r"max_rows=49: they build the dense 50 x 50 Gram matrix"):
        KernelJTSVM(max_rows=49).fit(sp.csr_matrix(X), y_fit)
    est = KernelDA(lam=1e-2, r=0.5, loss="sqr", max_rows=None, max_outer=3).fit(X, y_fit)
    whole = est.decision_function(X)
    monkeypatch.setattr(beyond, "BLOCK_ROWS", 7)
    np.testing.assert_allclose(est.decision_function(sp.csc_matrix(X)), whole, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(whole, rbf_gram(X, est.sigma_) @ est.dual_coef_[0] + est.intercept_[0], atol=1e-9)

@pytest.mark.slow   # longer than ~3 s
def test_da_hinge_succeeds_on_two_circles_from_two_labels():
    """001 Table 2's success (every unlabeled point right) for DA (l1), at a point of the paper's grid
    (lambda = 1e-3, sigma = default / 8); see tests/test_kernel_da.py for DA (l2) on the moons."""
    X, y = two_circles()
    labeled = np.array([np.flatnonzero(y > 0)[0], np.flatnonzero(y < 0)[0]])
    est = KernelDA(lam=1e-3, r=0.5, loss="l1", sigma_factor=1 / 8).fit(X, mask_labels(y, labeled))
    assert np.array_equal(est.transduction_, (y > 0).astype(int))


@pytest.mark.parametrize("solver", [kernel_da, jtsvm_module.kernel_jtsvm])
def test_kernel_solvers_run_with_one_blas_thread(moons, monkeypatch, solver):
    """However they are called (the toy-table script calls them directly), the f-steps see one BLAS thread."""
    from threadpoolctl import threadpool_info
    X, y, labeled, unlabeled, K = moons
    seen = []
    solve = FStep.solve

    def probe(self, *args, **kwargs):
        seen.extend(pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas")
        return solve(self, *args, **kwargs)
    monkeypatch.setattr(FStep, "solve", probe)
    solver(K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="l2")
    assert seen and set(seen) == {1}
