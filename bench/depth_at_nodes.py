#!/usr/bin/env python3
"""The depth UCI engines reach at a fixed node count, averaged over positions.

    python3 bench/depth_at_nodes.py [--epd FILE] [--positions 40] [--seed 1]
                                    [--hash 16] NODES ENGINE [ENGINE ...]

Each ENGINE is a command line (quoted if it has arguments, "gnuchess --uci").
The same --positions positions, drawn with --seed from --epd (default the
match openings, balanced.epd), are searched by every engine with `go nodes
NODES` after `ucinewgame`, one thread, --hash MB; the depth and seldepth of
the last info line with a score before bestmove are averaged. A fixed node
count makes the result independent of the machine's load, so it may run
beside a match.
"""
import argparse
import os
import random
import sys

from uci_pipe import UciPipe

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_EPD = os.path.join(HERE, "..", "..", "shared", "data", "openings",
                           "balanced.epd")


def field(words, name):
    """The integer after `name` in an info line, or None."""
    if name in words:
        i = words.index(name)
        if i + 1 < len(words) and words[i + 1].lstrip("-").isdigit():
            return int(words[i + 1])
    return None


def measure(command, fens, nodes, hash_mb):
    e = UciPipe(command.split())
    e.send("uci")
    e.until("uciok")
    e.send("setoption name Hash value %d" % hash_mb)
    e.send("setoption name Threads value 1")
    depths, seldepths = [], []
    for fen in fens:
        e.send("ucinewgame")
        e.send("isready")
        e.until("readyok")
        e.send("position fen " + fen)
        e.send("go nodes %d" % nodes)
        infos = [w for w in map(str.split, e.until("bestmove"))
                 if w and w[0] == "info" and "score" in w and "depth" in w]
        if not infos:
            sys.exit("depth_at_nodes: '%s' gave no info line with a score "
                     "for %s" % (command, fen))
        depths.append(field(infos[-1], "depth"))
        sd = field(infos[-1], "seldepth")
        seldepths.append(sd if sd is not None else depths[-1])
    e.quit()
    return sum(depths) / len(depths), sum(seldepths) / len(seldepths)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--epd", default=DEFAULT_EPD)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("nodes", type=int)
    ap.add_argument("engines", nargs="+")
    a = ap.parse_args()
    if a.nodes < 1 or a.positions < 1:
        sys.exit("depth_at_nodes: nodes and --positions must be positive")
    try:
        with open(a.epd) as f:
            lines = [l.split() for l in f if l.strip()]
    except OSError as e:
        sys.exit("depth_at_nodes: %s" % e)
    lines = [l for l in lines if len(l) >= 4]
    if len(lines) < a.positions:
        sys.exit("depth_at_nodes: %s has %d positions, fewer than %d"
                 % (a.epd, len(lines), a.positions))
    random.seed(a.seed)
    fens = [" ".join(l[:4]) + " 0 1" for l in random.sample(lines, a.positions)]
    print("| engine | nodes | depth | seldepth |")
    print("| --- | --- | --- | --- |")
    for command in a.engines:
        d, s = measure(command, fens, a.nodes, a.hash)
        print("| %s | %d | %.2f | %.2f |" % (command, a.nodes, d, s),
              flush=True)


if __name__ == "__main__":
    main()
