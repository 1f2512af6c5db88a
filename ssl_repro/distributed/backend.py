"""Where the products with X run: in this process (default) or on a distributed backend.

Like joblib's ``parallel_config``, a backend is chosen for a block of code,
not per estimator, so the estimators' parameters (and the harness's job
keys) stay as they are::

    from ssl_repro.distributed.backend import use_backend
    from ssl_repro.distributed import RayBackend
    with RayBackend(workers=4) as ray_rows, use_backend(ray_rows):
        LinearDA(lam=1e-4, lam_u=1.0).fit(X, y)      # X spread over 4 Ray actors

The estimators build their problem with :func:`problem_from_mask`; the
solver functions take any problem whose operator has the interface of
:class:`~ssl_repro.solvers.BiasedRows` (``matvec``, ``rmatvec``,
``largest_entry``, ``cg_steps``).  For data too large for one process use
:meth:`ssl_repro.distributed.RayBackend.problem_from_shards` with the
solver functions directly.
"""
from contextlib import contextmanager
from contextvars import ContextVar

from ssl_repro.solvers.engine.problem import from_mask

_BACKEND = ContextVar("ssl_repro_backend", default=None)

#: Backends of the harness's ``backend.name`` (``conf/backend/``).
BACKEND_NAMES = ("local", "ray")


@contextmanager
def use_backend(backend):
    """Build problems on ``backend`` (``None``: this process) inside the ``with`` block."""
    token = _BACKEND.set(backend)
    try:
        yield backend
    finally:
        _BACKEND.reset(token)


def using_backend():
    """Whether a distributed backend is in use (problems are then built on it, not in this process)."""
    return _BACKEND.get() is not None


def problem_from_mask(X, y_pm1, labeled_mask):
    """:func:`ssl_repro.solvers.from_mask` on the backend in use."""
    backend = _BACKEND.get()
    if backend is None:
        return from_mask(X, y_pm1, labeled_mask)
    return backend.problem_from_mask(X, y_pm1, labeled_mask)


@contextmanager
def backend_from_settings(settings):
    """The backend of the harness setting ``backend`` (``{name: local}`` or ``{name: ray, workers,
    address, threads_per_worker}``), in use inside the ``with`` block."""
    settings = dict(settings or {"name": "local"})
    name = settings.pop("name", "local")
    if name not in BACKEND_NAMES:
        raise ValueError(f"backend.name={name!r} is not a backend; choose one of {', '.join(BACKEND_NAMES)}")
    if name == "local":
        yield None
        return
    from ssl_repro.distributed import RayBackend
    with RayBackend(**settings) as backend, use_backend(backend):
        yield backend
