"""The diagnostics record every solver function returns."""
from dataclasses import asdict, dataclass, field


@dataclass
class SolverInfo:
    """What a solver did.

    objective : the objective of the returned weights: for TSVM and DA the
        transductive objective J(w) of Eqn 18 (DA returns the minimum along
        its path); for the SVM, J with lambda' = 0; for RLS, J with
        lambda' = 0 as well (its own least-squares objective is in
        ``own_objective``).
    own_objective : the objective the method itself minimizes.
    objective_path : for TSVM the fixed-label objective after every MFN
        retraining, as (lambda' level, value); for DA J(w) after every
        OPTIMIZE-W, as (temperature, value).
    switches : label pairs switched (TSVM).
    mfn_calls, newton_iterations, cg_iterations : work counters of the
        L2-SVM-MFN calls (Newton steps of Table 1, CG steps of Table 2).
    lbfgs_iterations : L-BFGS iterations (nabla-TSVM, which does not use MFN).
    lam_u_levels : lambda' values visited (TSVM's annealing, nabla-TSVM's schedule).
    temperatures : temperatures visited (DA, linear and kernel).
    cccp_iterations : CCCP iterations run (CCCP-TSVM).
    positive_fraction : fraction of unlabeled rows labeled positive at the
        end (TSVM's switch labels; DA's mean p), i.e. the balance constraint.
    seconds : wall-clock training time.
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
    cccp_iterations: int = 0
    positive_fraction: float = float("nan")
    seconds: float = 0.0

    def add_mfn(self, mfn_info):
        """Accumulate the counters of one L2-SVM-MFN call."""
        self.mfn_calls += 1
        self.newton_iterations += mfn_info.newton_iterations
        self.cg_iterations += mfn_info.cg_iterations

    def as_dict(self):
        return asdict(self)
