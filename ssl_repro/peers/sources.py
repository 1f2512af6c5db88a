"""The papers' peer programs the project builds, each from the one source file whose sha256 it states.

SVM-light V6.02 (Joachims; 000 Table 9, 003 Table 4 and 002's third peer) comes from the package registry:
the ``svmlight`` 0.4 source distribution ships its C source in ``lib/``. SVMlin v1.0 (the papers' own C++,
000's reference) and UniverSVM 1.22 (002's CCCP-TSVM) come from their authors' published archives, which
the user downloads (the project never redistributes a peer's source: SVM-light's licence forbids it, the
other two are GPL). The hashes were computed here from those files on the date each entry states; a file
with another hash is refused (:func:`ssl_repro.peers.build.checked_source`), so a record made with a built
peer names exactly which source it ran."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Program:
    """One program of a peer: its file name and the compiler command that makes it, run in the source's
    ``folder`` (``{out}`` stands for the program's path)."""

    name: str
    command: tuple


@dataclass(frozen=True)
class Peer:
    """A peer program the project builds (:data:`PEERS`)."""

    name: str                   #: the name ``python -m ssl_repro.peers build`` takes
    version: str                #: the program's version
    title: str                  #: the program and version, as the records name it
    option: str                 #: the scripts' option giving its path (``--svm-learn``)
    source: str                 #: the source file's name
    sha256: str                 #: the source file's stated sha256
    checked: str                #: the date the hash was computed from the file named by ``fetch``
    folder: str                 #: the folder inside the source holding the files the commands compile
    programs: tuple             #: the :class:`Program` s it builds, the one its ``option`` names first
    fetch: str                  #: where a user gets the source
    from_registry: bool = False  #: fetched with pip (an sdist); else an archive the user names

    @property
    def build_command(self):
        """The command that builds it (its source from the registry, else from the archive the user names)."""
        return f"python -m ssl_repro.peers build {self.name}" + ("" if self.from_registry else " --archive PATH")

    @property
    def cached(self):
        """The peer's folder in the peers' cache (:func:`ssl_repro.peers.cache.peer_folder`)."""
        return f"{self.name}-{self.version}"


#: SVM-light's version and the registry requirement that ships its source.
SVMLIGHT_REQUIREMENT = "svmlight==0.4"

#: The peers, by the name ``build`` takes.
PEERS = {peer.name: peer for peer in (
    Peer("svm-light", "6.02", "SVM-light V6.02", "--svm-learn", "svmlight-0.4.tar.gz",
         "3b6244050c9ee1f97ae8b305030851c757d98870ee7b3a1b9c9ea5e725d27541", "2026-12-07", "svmlight-0.4/lib",
         (Program("svm_learn", ("gcc", "-O3", "-o", "{out}", "svm_learn_main.c", "svm_learn.c", "svm_common.c",
                                "svm_hideo.c", "-lm")),
          Program("svm_classify", ("gcc", "-O3", "-o", "{out}", "svm_classify.c", "svm_common.c", "-lm"))),
         f"pip download --no-deps --no-binary :all: {SVMLIGHT_REQUIREMENT} -d DIR", from_registry=True),
    # -std=c++98: both sources predate C++11 and do not compile as later C++ with today's g++.
    Peer("svmlin", "1.0", "SVMlin v1.0", "--svmlin", "svmlin-v1.0-src.tar.gz",
         "b5841702f92f58f4e589cca7597cd3ed742df4a815ffe45c9bcb3fe8f7af0626", "2026-12-07", "svmlin-v1.0",
         (Program("svmlin", ("g++", "-O3", "-std=c++98", "-o", "{out}", "svmlin.cpp", "ssl.cpp", "-lm")),),
         "its authors' page, http://www.cs.uchicago.edu/~vikass/svmlin.html (000)"),
    Peer("universvm", "1.22", "UniverSVM 1.22", "--universvm", "universvm-1.22-src.tar.gz",
         "b352a226be9f8ea660288c8bd85c2ee5c7eecc88c2c406ea6cd87b030b7d7449", "2026-12-07", "universvm-1.22",
         (Program("universvm", ("g++", "-O3", "-std=c++98", "-o", "{out}", "usvm.cpp", "svqp2/svqp2.cpp",
                                "svqp2/vector.c", "svqp2/messages.c", "-lm")),),
         "its authors' page, http://www.kyb.tuebingen.mpg.de/bs/people/fabee/transduction.html (002)"),
)}

#: The scripts' options giving a peer's path, and the peer each names.
OPTIONS = {peer.option: peer.name for peer in PEERS.values()}
