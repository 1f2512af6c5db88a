"""The diagnostics record every solver function returns, and how a solver says it stopped early
or ended, by its own rule, on an answer its algorithm is not meant to give.

Such answers are flagged (``suspect`` in the record, and a :class:`SuspectSolutionWarning`):
``one_temperature``, deterministic annealing whose beliefs settled at its first temperature
(a T0 so low that no annealing took place: the answer of a fixed low temperature, e.g. 12.6%
test error against 3.7% at the default T0 on text-like data, not DA's path of Table 5 of 000); and
``one_class``, a semi-supervised solution putting every unlabeled row in one class, whatever the
balance constraint's r (features scaled near 0, a lambda so large that w is nearly 0).  A tuned baseline
flags a third, ``cv_untold``: a cross-validation whose every lambda has the same held-out error, so the
lambda is its tie-break's (:mod:`ssl_repro.estimators.baselines`).
Decision: ``converged`` keeps its one meaning, every loop ended on its own rule, not on a cap;
a suspect answer is said apart, so a reader can tell "ran out of iterations" from "finished,
but look at this".  The checks cost no pass over X: the annealing's own temperature count, and
one pass over the unlabeled outputs at the end.
"""
import warnings
from dataclasses import asdict, dataclass, field

from sklearn.exceptions import ConvergenceWarning

#: ``stop_reason`` of a solver that ended on its own stopping rule.
TOLERANCE = "tolerance"


class SuspectSolutionWarning(UserWarning):
    """A solver ended by its own rule on an answer its algorithm is not meant to give (module doc)."""


@dataclass
class SolverInfo:
    """What a solver did.

    Attributes
    ----------
    objective : float
        the objective of the returned weights: for TSVM and DA the
        transductive objective J(w) of Eqn 18 (DA returns the minimum along
        its path); for the SVM, J with lambda' = 0; for RLS, J with
        lambda' = 0 as well (its own least-squares objective is in
        ``own_objective``).
    own_objective : float
        the objective the method itself minimizes.
    objective_path : list of (float, float)
        for TSVM the fixed-label objective after every MFN
        retraining, as (lambda' level, value); for DA J(w) after every
        OPTIMIZE-W, as (temperature, value).
    switches : int
        label pairs switched (TSVM).
    mfn_calls, newton_iterations, cg_iterations : int
        work counters of the L2-SVM-MFN calls (Newton steps of Table 1, CG steps of Table 2);
        for kernel JTSVM ``mfn_calls`` counts its f-step solves, the
        retrainings that take MFN's place.
    lbfgs_iterations : int
        L-BFGS iterations (nabla-TSVM, which does not use MFN).
    lam_u_levels : list of float
        lambda' values visited (TSVM's annealing, nabla-TSVM's schedule).
    temperatures : list of float
        temperatures visited (DA, linear and kernel).
    positive_path : list of float
        DA: the fraction of unlabeled outputs > 0 after each
        OPTIMIZE-W, beside ``objective_path`` (what the lowest-J rule chose
        between).
    cccp_iterations : int
        CCCP iterations run (CCCP-TSVM).
    smo_iterations, kernel_evaluations : int
        work counters of the kernel CCCP-TSVM's SMO solves: pair steps, and kernel values computed
        (each kernel row computed counts n).
    positive_fraction : float
        fraction of unlabeled rows labeled positive at the
        end: TSVM's switch labels (its balance constraint); for the others
        the fraction of unlabeled outputs > 0 of the returned weights (DA:
        the weights of lowest J, which may come from a temperature whose
        outputs do not follow the beliefs' balance mean p = r).
    seconds : float
        wall-clock training time.
    converged : bool
        False when any loop of the solver (its own or an inner
        solve: MFN's Newton iterations, CGLS, OPTIMIZE-P, L-BFGS, ...) stopped
        on an iteration cap instead of its stopping rule.
    stop_reason : str
        why the solver's outer loop ended: ``"tolerance"`` (its
        stopping rule) or the name of the cap it hit (``"max_outer"``,
        ``"max_newton_iter"``, ``"max_switch_rounds"``, ...).
    capped : dict
        the caps inner solves hit, as {cap name: times}, e.g.
        ``{"max_newton_iter": 2}`` for two MFN solves out of Newton steps.
    suspect : list of str
        ``"one_temperature"``, ``"one_class"``: an answer reached by the
        solver's own rule that its algorithm is not meant to give (module doc),
        each also said by a :class:`SuspectSolutionWarning`.
    selected_lam : float
        a tuned baseline's lambda, chosen by cross-validation on the
        labeled rows (:mod:`ssl_repro.estimators.baselines`); NaN for the others.
    cv_errors : list of float
        that cross-validation's held-out error rate per grid value.
    """

    method: str
    objective: float = float("nan")
    own_objective: float = float("nan")
    objective_path: list = field(default_factory=list)
    switches: int = 0
    mfn_calls: int = 0
    newton_iterations: int = 0
    cg_iterations: int = 0
    lbfgs_iterations: int = 0
    lam_u_levels: list = field(default_factory=list)
    temperatures: list = field(default_factory=list)
    positive_path: list = field(default_factory=list)
    cccp_iterations: int = 0
    smo_iterations: int = 0
    kernel_evaluations: int = 0
    positive_fraction: float = float("nan")
    seconds: float = 0.0
    converged: bool = True
    stop_reason: str = TOLERANCE
    capped: dict = field(default_factory=dict)
    suspect: list = field(default_factory=list)
    selected_lam: float = float("nan")
    cv_errors: list = field(default_factory=list)

    def add_mfn(self, mfn_info, outer=False):
        """Accumulate the counters of one L2-SVM-MFN call and the cap it hit, if any;
        ``outer``: that call is the solver's only loop (the SVM), so its stop is the solver's."""
        self.mfn_calls += 1
        self.newton_iterations += mfn_info.newton_iterations
        self.cg_iterations += mfn_info.cg_iterations
        if outer:
            self.stop(mfn_info.stop_reason)
        elif not mfn_info.converged:
            self.inner_cap(mfn_info.stop_reason)

    def inner_cap(self, cap):
        """Record that an inner solve stopped on ``cap``."""
        self.capped[cap] = self.capped.get(cap, 0) + 1
        self.converged = False

    def stop(self, reason):
        """Record why the outer loop ended; any reason but ``"tolerance"`` is a cap."""
        self.stop_reason = reason
        if reason != TOLERANCE:
            self.converged = False

    def flag(self, name, message):
        """Record the suspect answer ``name`` and warn with ``message``."""
        self.suspect.append(name)
        warnings.warn(f"{self.method}: {message}", SuspectSolutionWarning, stacklevel=4)

    def check_one_class(self, positive_fraction):
        """Flag ``one_class`` when ``positive_fraction`` of the unlabeled rows' outputs is 0 or 1."""
        if positive_fraction in (0.0, 1.0):
            side = "positive" if positive_fraction == 1.0 else "negative"
            self.flag("one_class", f"every unlabeled row is predicted {side}, whatever the balance constraint's "
                                   "r: check the features' scale (values near 0 make w.x + b the bias alone) "
                                   "and lam (a very large lam makes w nearly 0)")

    def warn_if_capped(self, hints):
        """Emit a ConvergenceWarning naming each cap hit and the advice of ``hints`` for it.

        ``hints`` maps a cap name to advice that changes the outcome
        (:func:`larger`: a parameter and a value above today's) or to a
        statement of why none is given (:func:`fixed_cap`, or where no
        parameter value would help, e.g. DA on all-zero rows).
        """
        if self.converged:
            return
        caps = dict(self.capped)
        if self.stop_reason != TOLERANCE:
            caps[self.stop_reason] = caps.get(self.stop_reason, 0) + 1
        parts = [f"{cap} reached {times} time{'s' * (times != 1)}" + (f": {hints[cap]}" if hints.get(cap) else "")
                 for cap, times in caps.items()]
        warnings.warn(f"{self.method} did not converge: " + "; ".join(parts), ConvergenceWarning,
                      stacklevel=4)

    def as_dict(self):
        return asdict(self)


def larger(parameter, value):
    """Advice for a cap that ``parameter`` sets: twice its value, e.g. "set max_outer=60 (now 30)"."""
    return f"set {parameter}={2 * value} (now {value})"


def fixed_cap(what):
    """What a cap that no parameter sets is, in place of advice: "a fixed cap (``what``), not a parameter"."""
    return f"a fixed cap ({what}), not a parameter"


#: Words for L-BFGS-B ending on a failed line search (nabla-TSVM): no cap, so no larger value helps.
LBFGS_FAILED = "L-BFGS-B stopped on a line-search failure, no cap: another lam may avoid it"

#: The Newton loop's cap of L2-SVM-MFN (Table 1), the same for every solver that calls it.
NEWTON_CAP = fixed_cap("50 Newton iterations, Table 1")
