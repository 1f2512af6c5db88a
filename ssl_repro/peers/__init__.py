"""The papers' peer programs (SVM-light, SVMlin, UniverSVM), built by the project, never committed.

``python -m ssl_repro.peers build svm-light`` fetches the ``svmlight`` 0.4 source distribution with pip
(it ships SVM-light V6.02's C source), checks its sha256 against the one :mod:`~ssl_repro.peers.sources`
states, compiles ``svm_learn`` (and ``svm_classify``) with ``gcc -O3`` into the peers' cache outside the
repository (:mod:`~ssl_repro.peers.cache`) and prints the path of ``svm_learn``; called again it prints the
cached path without building. ``build svmlin --archive PATH`` and ``build universvm --archive PATH`` build
SVMlin v1.0 and UniverSVM 1.22 from their authors' published archives the same way. The scripts that take
``--svm-learn``, ``--svmlin`` or ``--universvm``, and ``run all``, run the built peer when the option is
not given (:func:`~ssl_repro.peers.cache.peer_program`).

Decision: a base-stage package (it imports nothing else of ``ssl_repro``), because the harness's peer
options (:mod:`ssl_repro.harness.external`) and the scripts above it all look peers up through it."""
from ssl_repro.peers.build import PeerError, build
from ssl_repro.peers.cache import cache_folder, find_peer, peer_program
from ssl_repro.peers.sources import OPTIONS, PEERS

__all__ = ["OPTIONS", "PEERS", "PeerError", "build", "cache_folder", "find_peer", "peer_program"]
