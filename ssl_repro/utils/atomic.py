"""Atomic file writes, the one implementation the package uses (results, caches, downloads).

:func:`atomic_write` yields a file object on a temp file beside ``path``;
when the block ends normally the data are flushed, fsynced and the temp
file renamed onto ``path`` (readers see the old file or the complete new
one, never a part); on any error the temp file is removed and ``path`` is
left as it was.  The file gets the mode the umask allows (0644 typically),
as ``open`` would give it, not ``mkstemp``'s 0600.
"""
import contextlib
import os
import tempfile
from pathlib import Path


@contextlib.contextmanager
def atomic_write(path, mode="w", prefix=None, suffix=".tmp"):
    """Write ``path`` atomically: ``with atomic_write(path) as f: f.write(...)``.

    ``prefix``/``suffix`` name the temp file (default prefix: ``.<name>.``),
    so a caller can recognise and clean up what a killed process left.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=prefix or f".{path.name}.", suffix=suffix)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _umask():
    """The process's umask (read by setting and restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
