"""The name of a job's result folder: a short hash of everything that changes its result.

A sweep puts each job under ``<dataset>/<variant>/split=S/l=N/cfg-<hash>``
(``conf/config.yaml``): the readable prefix says what ran, the last folder
is a hash of the job's whole resolved configuration less the settings of
:data:`PLACEMENT_KEYS` (where or how a job runs, not what it computes).
So jobs that differ in any parameter (``method.lam=0.01,0.1``, two
``dataset.path=`` files, ``n_unlabeled``, ...) never share a folder, and a
re-run finds the job's previous result exactly where it left it.  The
record itself (``result.json``) holds the configuration and the values
actually used.

A user's own data files (``dataset.path``, ``dataset.examples``,
``dataset.labels``) enter the key by their content, not their name
(:func:`data_files`): editing a file in place (its labels, a row) gives its
jobs a new folder, so a re-run computes them instead of serving the result
of the old content.  Decision: a SHA-256 of the bytes, not the file's size
and modification time.  Size + mtime costs one ``stat`` but takes an edited
file for the old one when an edit keeps the size (a label ``+1`` turned
``-1``) and the mtime (a copy restored by ``tar``, ``rsync -t`` or
``cp -p``, or two writes within a file system's timestamp granularity:
1-2 s on FAT, ext3, some NFS); a content hash is never fooled.  Its cost is
one read of the file, which the job reads anyway, and it is paid once per
file per process: the digest is kept for the file's inode, size, mtime and
ctime (which every write sets and no tool can set back) and recomputed when
any changes (a sweep's hundreds of jobs on one file hash it once).  The
status-change time alone would be no key: a copy of the same bytes, or the
same file on a cluster's other node, would get another folder; the digest
is the same everywhere.  A file that cannot be read enters as ``missing``: the
job then stops on loading it, with the loader's message.

:func:`register` makes the hash available to Hydra as the resolver
``${job_key:}`` (``run.py`` and the sweeper register it).
"""
import hashlib
import json
import os

from omegaconf import OmegaConf

from ssl_repro.data import generator_key

#: Settings that say where or how a job runs, not what it computes.
PLACEMENT_KEYS = ("data_root", "download", "solver_threads", "results_dir", "sweep_name", "backend")
RESOLVER = "job_key"
DIGITS = 10
#: The dataset settings that name a user's own data files: their content is part of the key.
FILE_SETTINGS = ("path", "examples", "labels")
#: Bytes read at a time when hashing a data file.
CHUNK = 1 << 20
_digests = {}       # (absolute path, inode, size, mtime_ns, ctime_ns) -> SHA-256 of the content


def file_digest(path):
    """The SHA-256 (hex) of the file ``path``'s bytes, or ``"missing"`` when it cannot be read; kept
    for the file's (inode, size, mtime, ctime) so that it is read once per process while unchanged."""
    try:
        stat = os.stat(path)
        memo = (os.path.abspath(path), stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
        if memo not in _digests:
            digest = hashlib.sha256()
            with open(path, "rb") as f:
                while chunk := f.read(CHUNK):
                    digest.update(chunk)
            _digests[memo] = digest.hexdigest()
        return _digests[memo]
    except OSError:
        return "missing"


def data_files(dataset):
    """{setting: content digest} of the user's data files a dataset configuration names
    (:data:`FILE_SETTINGS`; see the module doc)."""
    if not isinstance(dataset, dict):
        return {}
    return {key: file_digest(str(dataset[key])) for key in FILE_SETTINGS if dataset.get(key)}


def identity(config):
    """The part of a job configuration that determines its result; for a generated SYNTHETIC
    stand-in also its generator's parameters, for a 20 Newsgroups task its definition
    (:func:`ssl_repro.data.generator_key`), so a result of data made otherwise is never taken
    for this one's; for a user's own files also their content (:func:`data_files`), so a result
    of an earlier content is never taken for this one's."""
    if not isinstance(config, dict):
        return config
    kept = {k: v for k, v in config.items() if k not in PLACEMENT_KEYS and k != "hydra"}
    dataset = kept.get("dataset")
    generator = generator_key(dataset.get("name", "")) if isinstance(dataset, dict) else None
    if generator is not None:
        kept["generator"] = generator
    files = data_files(dataset)
    if files:
        kept["data_files"] = files
    return kept


def job_key(config):
    """``cfg-`` and the first digits of the SHA-256 of the job's identity (JSON, sorted keys)."""
    text = json.dumps(identity(config), sort_keys=True, default=str)
    return "cfg-" + hashlib.sha256(text.encode()).hexdigest()[:DIGITS]


def _resolve(_root_):
    task = {k: OmegaConf.to_container(_root_[k], resolve=True) if OmegaConf.is_config(_root_[k]) else _root_[k]
            for k in _root_ if k not in PLACEMENT_KEYS and k != "hydra"}
    return job_key(task)


def register():
    """Make ``${job_key:}`` resolve to :func:`job_key` of the configuration it sits in."""
    if not OmegaConf.has_resolver(RESOLVER):
        OmegaConf.register_new_resolver(RESOLVER, _resolve)
