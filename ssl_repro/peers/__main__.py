"""``python -m ssl_repro.peers build NAME [--sdist PATH | --archive PATH] [--cache DIR]``: build a peer into the
peers' cache and print the path of its program (:mod:`ssl_repro.peers`)."""
import argparse
import sys

from ssl_repro.peers.build import PeerError, build, source_option
from ssl_repro.peers.cache import ENV_VAR, cache_folder
from ssl_repro.peers.sources import PEERS


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ssl_repro.peers", description=__doc__)
    sub = ap.add_subparsers(dest="command", required=True)
    make = sub.add_parser("build", help="build a peer (once) and print the path of its program")
    make.add_argument("peer", choices=sorted(PEERS))
    make.add_argument("--sdist", help="svm-light: a local copy of svmlight-0.4.tar.gz (default: fetched with pip)")
    make.add_argument("--archive", help="svmlin, universvm: the authors' published source archive")
    make.add_argument("--cache", help=f"the peers' cache (default: ${ENV_VAR}, else ~/.cache/ssl-repro-peers)")
    args = ap.parse_args(argv)
    peer = PEERS[args.peer]
    wrong = "--archive" if peer.from_registry else "--sdist"
    if getattr(args, wrong.lstrip("-")):
        raise SystemExit(f"Error: {wrong} is not read by build {args.peer}, which takes {source_option(peer)} PATH: "
                         f"give its source with {source_option(peer)}")
    try:
        path, built = build(args.peer, args.sdist or args.archive, args.cache)
    except PeerError as exc:
        raise SystemExit(str(exc)) from None
    print(f"{peer.title}: " + (f"built into {cache_folder(args.cache)}" if built else "already built (not rebuilt)"),
          file=sys.stderr)
    print(path)


if __name__ == "__main__":
    main()
