"""scikit-learn estimators for the kernel methods of 001 (RBF kernel DA, JTSVM and nabla-TSVM).

Same label convention as :mod:`ssl_repro.estimators`: ``-1`` marks an
unlabeled row, the labeled rows carry two other class values and
``classes_[1]`` is the paper's +1 class (use :func:`~ssl_repro.estimators.mask_labels`
for +1/-1 data).  ``fit`` builds the RBF Gram matrix of all training rows
(dense, O(n^2) memory: meant for the small data sets of 001's experiments),
so sparse input is densified; more than ``max_rows`` training rows (default
:data:`MAX_ROWS` = 10000) is refused with an error naming the size, rather than
exhausting the memory.  :meth:`decision_function` works through blocks of
rows, so scoring a large test set needs memory for one block only.

After ``fit``: ``dual_coef_`` (alpha, one per training row), ``intercept_``
(the bias, nonzero only for the l1 loss and nabla-TSVM), ``support_vectors_`` (the
training rows), ``sigma_`` (the RBF width used), ``classes_``,
``diagnostics_`` (a :class:`~ssl_repro.solvers.SolverInfo`: ``objective`` is
the kernel form of Eqn 18, ``own_objective`` 001's Eqn 1 in the method's
loss; see :mod:`ssl_repro.kernel.training`) and ``transduction_``.
There is no ``coef_``: outputs come from :meth:`decision_function`.
"""
import numpy as np
from sklearn.utils.validation import check_is_fitted, validate_data

from sklearn.utils._param_validation import StrOptions

from ssl_repro.estimators.base import ABOVE_ONE, COUNT, OPEN_UNIT, POSITIVE, SEMI_SUPERVISED, Classifier
from ssl_repro.kernel import fstep
from ssl_repro.kernel.training import train_kernel
from ssl_repro.kernel.gram import default_sigma, rbf_gram
from ssl_repro.solvers.annealing import ANNEAL_RATE, EPS, MAX_INNER, MAX_OUTER, START_TEMPERATURE
from ssl_repro.solvers.engine.data_checks import check_scale
from ssl_repro.solvers.validation import check_positive

#: Default limit on the training rows (l + u) of a kernel method.  The Gram
#: matrix K is n x n float64 (0.8 GB at n = 10000) and the f-steps hold several
#: matrices of that order at once (the l2 step a Cholesky factor and a system
#: matrix, the sqr step an LU factor, the l1 step the (l + 2u)^2 Gram of the
#: pseudo-points, 4x K), so 10000 rows peak at an estimated 4-5 GB (nabla-TSVM's
#: empirical kernel map about as much, :mod:`ssl_repro.kernel.nabla`); 001's
#: kernel experiments train on about 1100 rows (l + u of its Table 3).
MAX_ROWS = 10_000

#: Rows per block in :meth:`_KernelModel.decision_function`.
BLOCK_ROWS = 1024


def check_kernel_rows(n_rows, max_rows, what, cost=None):
    """Raise a ValueError naming the size when ``n_rows`` training rows exceed ``max_rows``; ``cost``: what
    so many rows would cost, in words (default: the dense Gram matrix's memory)."""
    if max_rows is not None and n_rows > max_rows:
        gigabytes = 8.0 * n_rows * n_rows / 1e9
        cost = cost or (f"they build the dense {n_rows} x {n_rows} Gram matrix ({gigabytes:.1f} GB for K alone, "
                        "several times that while solving); use fewer rows (e.g. n_unlabeled) or, with the memory, "
                        "raise max_rows")
        raise ValueError(f"{what}: {n_rows} training rows exceed the kernel methods' limit of max_rows={max_rows}: "
                         + cost)


class _KernelModel(Classifier):
    """Shared plumbing; subclasses set ``solver_name`` (their solver in
    :data:`ssl_repro.kernel.training.KERNEL_SOLVERS`) and implement ``_options()`` (the solver's
    keyword arguments, ``loss`` among them where the method has a choice)."""

    solver_name = None
    _parameter_constraints = {**SEMI_SUPERVISED, "sigma": [POSITIVE, None], "sigma_factor": [POSITIVE],
                              "max_rows": [COUNT, None]}
    _dtype = np.float64
    _stacked_attributes = ("dual_coef_", "intercept_")
    _shared_attributes = ("support_vectors_", "sigma_")
    _reads_unlabeled = True
    _supervised_problem = "the f-step on the labeled rows in the method's loss: 001's Eqn 1 with no unlabeled term"
    #: 001's losses, for the methods that take one.
    _LOSSES = {"loss": [StrOptions({"l1", "l2", "sqr"})]}

    @classmethod
    def warm_up(cls):
        """Compile (or load from numba's cache) the f-step's compiled kernel before a timed fit
        (:func:`ssl_repro.kernel.fstep.warm_up`)."""
        fstep.warm_up()

    def __init__(self, lam, lam_u, r, sigma, sigma_factor, max_rows):
        self.lam = lam
        self.lam_u = lam_u
        self.r = r
        self.sigma = sigma
        self.sigma_factor = sigma_factor
        self.max_rows = max_rows

    def _fit_binary(self, X, y):
        """Fit on ``X`` with labels ``y`` of two classes (``-1`` marks an unlabeled row)."""
        X, y = validate_data(self, X, y, accept_sparse=["csr", "csc"], dtype=np.float64,
                             ensure_all_finite=True)
        check_scale(X.data if hasattr(X, "data") and not isinstance(X, np.ndarray) else X, "X")
        check_kernel_rows(X.shape[0], self.max_rows, type(self).__name__)
        unlabeled_mask, y_pm1 = self._read_data(X, y)       # before X is densified: its warning names the width
        X = X.toarray() if hasattr(X, "toarray") else X
        labeled, unlabeled = np.flatnonzero(~unlabeled_mask), np.flatnonzero(unlabeled_mask)
        if self.sigma is not None:
            self.sigma_ = check_positive(self.sigma, "sigma")
        else:
            self.sigma_ = check_positive(self.sigma_factor, "sigma_factor") * default_sigma(X)
        K = rbf_gram(X, self.sigma_)
        alpha, bias, self.diagnostics_ = train_kernel(
            self.solver_name, K, labeled, y_pm1, unlabeled, self.lam, self.lam_u, self._fraction(y_pm1),
            **self._options())
        self.dual_coef_ = alpha[None, :]
        self.intercept_ = np.array([bias])
        self.support_vectors_ = X
        self.transduction_ = self._transduction(y, unlabeled_mask, K[unlabeled] @ alpha + bias)
        self._set_n_iter()
        return self

    def _decision_binary(self, X):
        """f(x) = sum_i alpha_i K(x, x_i) + b; positive means ``classes_[1]``.

        Computed per block of :data:`BLOCK_ROWS` rows (densified one block at a time).
        """
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=False)
        return self._stacked_decision(X.tocsr() if hasattr(X, "tocsr") else X)[:, 0]

    def _stacked_decision(self, X):
        """The outputs of every row of ``dual_coef_`` (one per class for K classes; one column for two)
        on checked ``X``: one kernel block per :data:`BLOCK_ROWS` rows for all of them."""
        out = np.empty((X.shape[0], self.dual_coef_.shape[0]))
        for start in range(0, X.shape[0], BLOCK_ROWS):
            block = X[start:start + BLOCK_ROWS]
            block = block.toarray() if hasattr(block, "toarray") else block
            out[start:start + BLOCK_ROWS] = rbf_gram(block, self.sigma_, self.support_vectors_) @ self.dual_coef_.T
        return out + self.intercept_


class KernelDA(_KernelModel):
    """Deterministic annealing for a semi-supervised RBF kernel machine (001, Table 1).

    Parameters
    ----------
    lam : float, default=1e-3
        lambda, weight of the RKHS norm (lambda/2 alpha' K alpha).
    lam_u : float, default=1.0
        lambda', the weight of the unlabeled loss.
    r : float in (0, 1), array-like or mapping of fractions per class, or None, default=None
        Mean belief p on the unlabeled points (Eqn 5); ``None`` estimates it
        from the labeled rows.
        For K >= 3 classes one fraction per class (in the order of ``classes_``, or
        class -> fraction), each class's binary problem taking its own (002's one-vs-rest).
    loss : {"l1", "l2", "sqr"}, default="l2"
        Hinge (weighted SVC per fixed p), quadratic hinge (finite Newton) or
        squared loss (Eqn 7).
    sigma : float or None, default=None
        RBF width (K = exp(-||x - z||^2 / (2 sigma^2))); ``None`` uses
        ``sigma_factor`` times the median pairwise distance of the training rows.
    sigma_factor : float, default=1.0
        001's grid is sigma_factor in {1/8, ..., 8}.
    T0, anneal_rate, eps, max_outer, max_inner :
        Table 1 of 001: starting temperature 10, T /= 1.5, thresholds 1e-6
        (per unlabeled point), iteration caps.
    fixed_temperature : float > 0 or None, default=None
        Hold T at this value without annealing (the fixed-T rows of 001's
        Tables 4-5); ``None`` anneals.
    max_rows : int or None, default=MAX_ROWS (10000)
        Most training rows ``fit`` accepts (the Gram matrix is dense n x n);
        ``None``: no limit.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (1, n_samples), or (K, n_samples) for K >= 3 classes
        alpha, one coefficient per training row.
    intercept_ : ndarray of shape (1,), or (K,) for K >= 3 classes
        The bias b (nonzero only for the l1 loss).
    support_vectors_ : ndarray of shape (n_samples, n_features)
        The training rows.
    sigma_ : float
        The RBF width used.
    classes_ : ndarray of shape (n_classes,)
        The labels of the labeled rows; with two, ``classes_[1]`` is the paper's +1 class.
    transduction_ : ndarray of shape (n_samples,)
        A label for every training row: the given one, or the prediction for an unlabeled row.
    diagnostics_ : :class:`~ssl_repro.solvers.SolverInfo`
        ``objective``: the kernel form of Eqn 18; ``own_objective``: 001's Eqn 1 in the method's loss.
    n_features_in_ : int
        Number of features seen during ``fit``.
    n_iter_ : int
        Temperatures visited, the outer iterations of 001's Table 1 (at most
        ``max_outer``; ``len(diagnostics_.temperatures)``).

    See Also
    --------
    KernelJTSVM : the label-switching baseline of 001 on the same kernel.
    ssl_repro.estimators.LinearDA : the linear method of 000.

    References
    ----------
    V. Sindhwani, S. S. Keerthi and O. Chapelle, "Deterministic annealing for semi-supervised
    kernel machines", ICML 2006 (001): Table 1 (DA), Eqns 1-7; Tables 2-4.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.kernel import KernelDA
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 30, 31]] = y[[0, 1, 30, 31]]
    >>> clf = KernelDA(lam=1e-2, loss="l2").fit(X, y_train)
    >>> bool(np.mean(clf.transduction_ == y) > 0.9)
    True
    """

    solver_name = "da"
    _iteration_field = "temperatures"
    _parameter_constraints = {**_KernelModel._parameter_constraints, **_KernelModel._LOSSES, "T0": [POSITIVE],
                              "anneal_rate": [ABOVE_ONE], "eps": [OPEN_UNIT], "max_outer": [COUNT],
                              "max_inner": [COUNT], "fixed_temperature": [POSITIVE, None]}

    def __init__(self, lam=1e-3, lam_u=1.0, r=None, loss="l2", sigma=None, sigma_factor=1.0,
                 T0=START_TEMPERATURE, anneal_rate=ANNEAL_RATE, eps=EPS, max_outer=MAX_OUTER, max_inner=MAX_INNER,
                 fixed_temperature=None, max_rows=MAX_ROWS):
        super().__init__(lam, lam_u, r, sigma, sigma_factor, max_rows)
        self.loss = loss
        self.T0 = T0
        self.anneal_rate = anneal_rate
        self.eps = eps
        self.max_outer = max_outer
        self.max_inner = max_inner
        self.fixed_temperature = fixed_temperature

    def _options(self):
        return {"loss": self.loss, "T0": self.T0, "rate": self.anneal_rate, "eps": self.eps,
                "max_outer": self.max_outer, "max_inner": self.max_inner,
                "fixed_temperature": self.fixed_temperature}


class KernelJTSVM(_KernelModel):
    """The kernel TSVM baseline of 001 (Joachims' label switching) with the l1 or l2 loss.

    Parameters
    ----------
    lam, lam_u, r, sigma, sigma_factor : as for :class:`KernelDA`; r is the
        fraction of unlabeled points labeled ``classes_[1]``.
    loss : {"l1", "l2"}, default="l2"
        001's JTSVM baselines use the hinge and the quadratic hinge
        ("sqr" also runs: label switching with the squared loss).
    switches : int >= 1 or "max", default=1
        Label pairs switched per retraining (1 = Joachims, "max" = every qualifying pair).
    max_rows : int or None, default=MAX_ROWS (10000)
        As for :class:`KernelDA`.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (1, n_samples), or (K, n_samples) for K >= 3 classes
        alpha, one coefficient per training row.
    intercept_ : ndarray of shape (1,), or (K,) for K >= 3 classes
        The bias b (nonzero only for the l1 loss).
    support_vectors_ : ndarray of shape (n_samples, n_features)
        The training rows.
    sigma_ : float
        The RBF width used.
    classes_ : ndarray of shape (n_classes,)
        The labels of the labeled rows; with two, ``classes_[1]`` is the paper's +1 class.
    transduction_ : ndarray of shape (n_samples,)
        A label for every training row: the given one, or the prediction for an unlabeled row.
    diagnostics_ : :class:`~ssl_repro.solvers.SolverInfo`
        ``objective``: the kernel form of Eqn 18; ``own_objective``: 001's Eqn 1 in the method's loss.
    n_features_in_ : int
        Number of features seen during ``fit``.
    n_iter_ : int
        f-step solves (``diagnostics_.mfn_calls``): the supervised start, one per
        lambda' level and one per label switch.

    See Also
    --------
    KernelDA : deterministic annealing, which 001 compares with this baseline.
    ssl_repro.estimators.LinearTSVM : the linear multi-switch TSVM of 000.

    References
    ----------
    V. Sindhwani, S. S. Keerthi and O. Chapelle, "Deterministic annealing for semi-supervised
    kernel machines", ICML 2006 (001): the JTSVM baselines of Tables 2 and 4.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.kernel import KernelJTSVM
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 30, 31]] = y[[0, 1, 30, 31]]
    >>> clf = KernelJTSVM(lam=1e-2, loss="l2").fit(X, y_train)
    >>> bool(np.mean(clf.transduction_ == y) > 0.9)
    True
    """

    solver_name = "jtsvm"
    _iteration_field = "mfn_calls"
    _parameter_constraints = {**_KernelModel._parameter_constraints, **_KernelModel._LOSSES,
                              "switches": [COUNT, StrOptions({"max"})]}

    def __init__(self, lam=1e-3, lam_u=1.0, r=None, loss="l2", sigma=None, sigma_factor=1.0, switches=1,
                 max_rows=MAX_ROWS):
        super().__init__(lam, lam_u, r, sigma, sigma_factor, max_rows)
        self.loss = loss
        self.switches = switches

    def _options(self):
        # "max": every qualifying pair, as LinearTSVM(switches="max")
        return {"loss": self.loss,
                "switches": np.iinfo(np.int64).max if self.switches == "max" else int(self.switches)}


class KernelNablaTSVM(_KernelModel):
    """nabla-TSVM of Chapelle & Zien with an RBF kernel, the primal method on the empirical kernel map.

    Squared hinge (001's l2) on the labeled rows, exp(-3 f^2) on the
    unlabeled ones, mean unlabeled output 2r - 1, lambda' raised along the
    C* schedule; solved by the linear :func:`ssl_repro.solvers.nabla.nabla_tsvm`
    on the features Phi = V diag(sqrt(s)) of K = V diag(s) V' (see
    :mod:`ssl_repro.kernel.nabla` for the eigenvalue threshold).

    Parameters
    ----------
    lam, lam_u, r, sigma, sigma_factor : as for :class:`KernelDA`; r is the
        fraction of unlabeled points labeled ``classes_[1]`` (the balance constraint).
    steps : int, default=10
        Number of lambda' values of the C* schedule.
    start_fraction : float, default=0.01
        The schedule runs from ``start_fraction * lam_u`` up to ``lam_u``.
    max_rows : int or None, default=MAX_ROWS (10000)
        As for :class:`KernelDA`.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (1, n_samples), or (K, n_samples) for K >= 3 classes
        alpha = V diag(1/sqrt(s)) w, so that K(x, X) alpha = w . phi(x).
    intercept_ : ndarray of shape (1,), or (K,) for K >= 3 classes
        The bias b (not regularized: the balance constraint sets it).
    diagnostics_ : :class:`~ssl_repro.solvers.SolverInfo`
        ``objective``: the kernel form of Eqn 18; ``own_objective``: J_nabla at the last lambda';
        ``lam_u_levels`` and ``lbfgs_iterations`` of the C* schedule.
    support_vectors_, sigma_, classes_, transduction_, n_features_in_ :
        As for :class:`KernelDA`.
    n_iter_ : int
        L-BFGS iterations over the whole lambda' schedule, ``diagnostics_.lbfgs_iterations``.

    See Also
    --------
    KernelDA, KernelJTSVM : the other kernel methods of 001 on the same Gram matrix.
    ssl_repro.estimators.comparison.LinearNablaTSVM : the linear method.

    References
    ----------
    O. Chapelle and A. Zien, "Semi-supervised classification by low density separation", AISTATS 2005;
    the nabla-TSVM rows of Tables 2 and 4 of 001.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.kernel import KernelNablaTSVM
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1]], y_train[[30, 31]] = 1, 0
    >>> clf = KernelNablaTSVM(lam=1e-2, r=0.5, sigma_factor=2).fit(X, y_train)
    >>> bool(abs(clf.decision_function(X[y_train == -1]).mean()) < 1e-9)   # balance: mean output 2r - 1
    True
    >>> bool(np.all(clf.transduction_[:30] == 1) and np.all(clf.transduction_[30:] == 0))
    True
    """

    solver_name = "nabla_tsvm"
    _iteration_field = "lbfgs_iterations"
    _parameter_constraints = {**_KernelModel._parameter_constraints, "steps": [COUNT], "start_fraction": [POSITIVE]}

    def __init__(self, lam=1e-3, lam_u=1.0, r=None, sigma=None, sigma_factor=1.0, steps=10, start_fraction=0.01,
                 max_rows=MAX_ROWS):
        super().__init__(lam, lam_u, r, sigma, sigma_factor, max_rows)
        self.steps = steps
        self.start_fraction = start_fraction

    def _options(self):
        return {"steps": self.steps, "start_fraction": self.start_fraction}
