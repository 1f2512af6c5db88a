"""Every estimator of the project, as scikit-learn classifiers (``fit`` / ``predict``; -1 marks an unlabeled row).

- 000's linear methods (:mod:`.linear`): :class:`LinearSVM` (L2-SVM-MFN), :class:`LinearRLS`,
  :class:`LinearTSVM` (multi-switch TSVM), :class:`LinearDA` (deterministic annealing).
- 003 Table 2's comparison methods, linear (:mod:`.comparison`): :class:`LinearNablaTSVM`,
  :class:`LinearCCCPTSVM`.
- 001's kernel methods (:mod:`.kernel`): :class:`KernelDA`, :class:`KernelJTSVM`, :class:`KernelNablaTSVM`;
  002's kernel CCCP-TSVM (:mod:`.kernel_cccp`): :class:`KernelCCCPTSVM`.
- Today's baselines (:mod:`.baselines`): :class:`TunedLinearSVM`, :class:`TunedLogisticRegression`,
  :class:`SelfTraining`, :class:`LabelSpreadingKNN`.
- The label helpers: :func:`mask_labels` (+1/-1 labels and the labeled rows to ``fit``'s labels),
  :data:`UNLABELED`, :class:`LabelConventionWarning` (:mod:`ssl_repro.labels`, the convention the datasets
  share), :class:`NoUnlabeledRowsWarning` (a y without -1 fits the supervised problem: :mod:`.base`).
- Model selection on partially labeled y (:mod:`.model_selection`): the scorer :data:`labeled_accuracy`
  (:func:`labeled_accuracy_score`) and the splitter :class:`LabeledKFold`.

Their shared base (:mod:`.base`: label handling, ``classes_``, parameter checks) and the label-spreading
helpers (:mod:`.label_reach`, :mod:`.knn_cache`) are this package's internals.  Which method name runs
which estimator is declared once, in :data:`ssl_repro.harness.methods.METHODS`.
"""
from ssl_repro.labels import UNLABELED, LabelConventionWarning, mask_labels
from ssl_repro.estimators.base import NoUnlabeledRowsWarning
from ssl_repro.estimators.baselines import LabelSpreadingKNN, SelfTraining, TunedLinearSVM, TunedLogisticRegression
from ssl_repro.estimators.comparison import LinearCCCPTSVM, LinearNablaTSVM
from ssl_repro.estimators.kernel import KernelDA, KernelJTSVM, KernelNablaTSVM
from ssl_repro.estimators.kernel_cccp import KernelCCCPTSVM
from ssl_repro.estimators.linear import LinearDA, LinearRLS, LinearSVM, LinearTSVM
from ssl_repro.estimators.model_selection import LabeledKFold, labeled_accuracy, labeled_accuracy_score

__all__ = ["LinearSVM", "LinearRLS", "LinearTSVM", "LinearDA", "LinearNablaTSVM", "LinearCCCPTSVM", "KernelDA",
           "KernelJTSVM", "KernelNablaTSVM", "KernelCCCPTSVM", "TunedLinearSVM", "TunedLogisticRegression",
           "SelfTraining", "LabelSpreadingKNN", "mask_labels", "UNLABELED", "LabelConventionWarning",
           "NoUnlabeledRowsWarning", "labeled_accuracy", "labeled_accuracy_score", "LabeledKFold"]
