#!/usr/bin/env python3
"""How full the transposition table gets over a game at a real control.

    python3 bench/hashfull_game.py [--engine ./rokade] [--tc 40+0.4] [--hash 16]
                                   [--fen FEN] [--max-plies 160]

Plays one game of the engine against itself (two processes, each with its
own table of --hash MB and its own clock, as in a match), from --fen (default
the start position), and prints for every move the depth, nodes, time and
the `hashfull` (per mille) of the last info line before bestmove, then the
first move at which the table was 50%, 90% and 99% full. The game ends at
mate, stalemate, --max-plies, or when an engine has no move. Stop datagen
and matches first: the clock is real.
"""
import argparse
import sys
import time

from uci_pipe import UciPipe


class Engine(UciPipe):
    def __init__(self, cmd, hash_mb):
        super().__init__([cmd])
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name Hash value {hash_mb}")
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")

    def go(self, position, wtime, btime, inc):
        self.send(position)
        self.send(f"go wtime {wtime} btime {btime} winc {inc} binc {inc}")
        last = {}
        for line in self.until("bestmove"):
            w = line.split()
            if w and w[0] == "info" and "hashfull" in w and "pv" in w:
                last = {k: w[w.index(k) + 1] for k in ("depth", "nodes", "hashfull", "time") if k in w}
            if w and w[0] == "bestmove":
                return w[1], last


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="./rokade")
    ap.add_argument("--tc", default="40+0.4", help="seconds+increment")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--fen", default=None)
    ap.add_argument("--max-plies", type=int, default=160)
    args = ap.parse_args()
    try:
        base, inc = (float(x) for x in args.tc.split("+"))
    except ValueError:
        sys.exit(f"--tc {args.tc}: not SECONDS+INCREMENT")
    engines = [Engine(args.engine, args.hash), Engine(args.engine, args.hash)]
    clock = [base * 1000, base * 1000]
    moves = []
    start = f"position fen {args.fen}" if args.fen else "position startpos"
    side = 0 if not args.fen or args.fen.split()[1] == "w" else 1
    rows = []
    for ply in range(args.max_plies):
        pos = start + (" moves " + " ".join(moves) if moves else "")
        t0 = time.monotonic()
        white, black = (clock[0], clock[1]) if side == 0 else (clock[1], clock[0])
        best, info = engines[ply % 2].go(pos, int(white), int(black), int(inc * 1000))
        used = (time.monotonic() - t0) * 1000
        clock[ply % 2] += inc * 1000 - used
        if clock[ply % 2] < 0:
            print(f"ply {ply + 1}: flag fall ({clock[ply % 2]:.0f} ms)")
            break
        if best in ("(none)", "0000"):
            break
        moves.append(best)
        rows.append((ply + 1, best, info.get("depth", "-"), info.get("nodes", "-"), int(used), int(info.get("hashfull", -1))))
        print(f"ply {ply + 1:3d} {best:6s} depth {rows[-1][2]:>3} nodes {rows[-1][3]:>9} time {int(used):6d} ms hashfull {rows[-1][5]:4d}", flush=True)
        side ^= 1
    for e in engines:
        e.quit(timeout=10)
    for level in (500, 900, 990):
        first = next((r for r in rows if r[5] >= level), None)
        print(f"hashfull >= {level}: " + (f"first at ply {first[0]} (move {(first[0] + 1) // 2})" if first else "never"))
    full = sorted(r[5] for r in rows)
    if full:
        print(f"plies {len(rows)}; hashfull median {full[len(full) // 2]}, highest {full[-1]}")


if __name__ == "__main__":
    main()
