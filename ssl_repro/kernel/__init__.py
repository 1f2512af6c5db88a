"""Semi-supervised kernel machines by deterministic annealing (001) and the kernel TSVM baselines.

RBF kernels over the l + u training points; f(x) = sum_i alpha_i K(x, x_i)
(Eqn 6 of 001, no bias; the l1 f-step and nabla-TSVM add an unregularized
one).  Losses V: ``"l1"`` hinge, ``"l2"`` quadratic hinge
max(0, 1 - t)^2 / 2, ``"sqr"`` squared (1 - t)^2 / 2.
"""
from ssl_repro.kernel.annealing import kernel_da
from ssl_repro.kernel.cccp import kernel_cccp_tsvm
from ssl_repro.kernel.fstep import FStep
from ssl_repro.kernel.gram import default_sigma, rbf_gram
from ssl_repro.kernel.jtsvm import kernel_jtsvm
from ssl_repro.kernel.nabla import EmpiricalKernelMap, kernel_nabla_tsvm

__all__ = ["EmpiricalKernelMap", "FStep", "default_sigma", "kernel_cccp_tsvm", "kernel_da", "kernel_jtsvm", "kernel_nabla_tsvm",
           "rbf_gram"]
