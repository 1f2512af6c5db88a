"""The fit plumbing of the linear estimators (``_LinearModel``): input checks, the labeled and unlabeled rows
to a solver's problem (bias last, regularized like every weight: 000 Sec. 2), the solver's w to ``coef_`` and
``intercept_``, ``transduction_`` for the semi-supervised ones, and the signed outputs w.x + b.

Shared by 000's methods (:mod:`ssl_repro.estimators.linear`) and 003 Table 2's comparison methods
(:mod:`ssl_repro.estimators.comparison`): a new linear method subclasses it and implements
``_solve(problem, r)`` (docs/user_guide/09_developers.md, "Adding a method").
"""
import numpy as np
from sklearn.utils.extmath import safe_sparse_dot
from sklearn.utils.validation import check_is_fitted, validate_data

from ssl_repro.distributed.backend import problem_from_mask, using_backend
from ssl_repro.estimators.base import Classifier, unlabeled_mask
from ssl_repro.solvers import svm
from ssl_repro.solvers.columns import svm_columns
from ssl_repro.solvers.engine.data_checks import DATA_DTYPES


class _LinearModel(Classifier):
    """Shared fit plumbing; subclasses implement ``_solve(problem, r)``."""

    _semi_supervised = False
    _stacked_attributes = ("coef_", "intercept_")
    _supervised_problem = "L2-SVM-MFN at lam: Eqn 18 with no unlabeled term"
    #: Whether the supervised solve (``_solve``) is :func:`~ssl_repro.solvers.svm` at ``lam``, so that K classes
    #: share their products (:meth:`_fit_classes`).
    _column_svm = False

    @property
    def _reads_unlabeled(self):
        return self._semi_supervised

    def _solve_supervised(self, problem):
        """A semi-supervised method on a y without unlabeled rows: Eqn 18 has no unlabeled term, so the answer
        is the L2-SVM's (:func:`~ssl_repro.solvers.svm`; the labeled loss of every linear method, the start
        of TSVM, CCCP-TSVM and nabla-TSVM); its record is the SVM's."""
        return svm(problem, self.lam)

    def _fit_binary(self, X, y):
        """Fit on ``X`` with labels ``y`` of two classes (``-1`` marks an unlabeled row)."""
        X, y, unlabeled, y_pm1 = self._checked(X, y)
        problem = problem_from_mask(X, y_pm1, ~unlabeled)
        if self._semi_supervised and not unlabeled.any():
            w, info = self._solve_supervised(problem)
        else:
            w, info = self._solve(problem, self._fraction(y_pm1) if self._semi_supervised else None)
        return self._store(w, info, y, unlabeled, problem)

    def _checked(self, X, y):
        """The checked data (CSR or dense), labels, unlabeled mask and +1/-1 labels of the labeled rows."""
        X, y = validate_data(self, X, y, accept_sparse=["csr", "csc"], dtype=DATA_DTYPES,
                             ensure_all_finite=True)
        X = X.tocsr() if hasattr(X, "tocsr") else X
        unlabeled, y_pm1 = self._read_data(X, y)
        return X, y, unlabeled, y_pm1

    def _store(self, w, info, y, unlabeled, problem):
        """The fitted attributes from the solver's ``w`` (bias last) and record."""
        self.diagnostics_ = info
        self._set_n_iter()
        self.coef_ = w[None, :-1].copy()
        self.intercept_ = w[-1:].copy()
        if self._semi_supervised:
            self.transduction_ = self._transduction(y, unlabeled, problem.op.matvec(w, problem.unlabeled))
        return self

    def _fit_classes(self, X, binaries, targets):
        """K >= 3 one-vs-rest problems whose every solve is the labeled rows' L2-SVM (LinearSVM; a
        semi-supervised method given no unlabeled row, whose supervised solve is the SVM's) as one
        :func:`~ssl_repro.solvers.columns.svm_columns` solve, the K columns sharing each product over X; the K
        binary estimators get what their own fit would give (J within 1e-9 relative, the same predictions).
        Elsewhere (TSVM, DA and the other transductive solves, a distributed backend) the K binary fits
        (:meth:`~ssl_repro.estimators.base.Classifier._fit_classes`)."""
        if not self._solves_svm(unlabeled_mask(targets[0])) or using_backend():
            return super()._fit_classes(X, binaries, targets)
        checked = [binary._checked(X, y_k) for binary, y_k in zip(binaries, targets)]
        problem = problem_from_mask(checked[0][0], checked[0][3], ~checked[0][2])
        W, infos, _ = svm_columns(problem, np.column_stack([c[3] for c in checked]), self.lam)
        return [binary._store(W[:, k], infos[k], c[1], c[2], problem)
                for k, (binary, c) in enumerate(zip(binaries, checked))]

    def _solves_svm(self, unlabeled):
        """Whether each binary fit's solve is :func:`~ssl_repro.solvers.svm` at ``lam`` on the labeled rows."""
        if self._semi_supervised:
            return not unlabeled.any() and type(self)._solve_supervised is _LinearModel._solve_supervised
        return self._column_svm

    def _decision_binary(self, X):
        """Signed outputs w.x + b; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=DATA_DTYPES, reset=False)
        if self.coef_.shape[0] > 1:                        # LinearDA(multiclass="potts"): one row per class
            return safe_sparse_dot(X, self.coef_.T) + self.intercept_
        return safe_sparse_dot(X, self.coef_[0]) + self.intercept_[0]
