#!/usr/bin/env python3
"""Compare Rokade's perft with Stockfish's on positions reached by random play.

Each game starts from the initial position (or a random Chess960 start from
../shared/data/openings/chess960.epd with --chess960), plays random legal
moves (the legal moves are taken from Stockfish's `go perft 1`), and at every
few plies compares the divide of both engines at the given depth.

  python3 bench/perft_random.py --games 200 --depth 3
  python3 bench/perft_random.py --chess960 --games 200 --depth 3
"""
import argparse
import random
import subprocess
import sys

from uci_pipe import UciPipe


class Engine(UciPipe):
    def __init__(self, cmd, chess960):
        super().__init__(cmd, stderr=subprocess.DEVNULL)
        self.send("uci")
        self.until("uciok")
        if chess960:
            self.send("setoption name UCI_Chess960 value true")

    def divide(self, position, depth):
        self.send(position)
        self.send("go perft %d" % depth)
        out = {}
        for line in self.until("Nodes searched"):
            if ":" in line and not line.startswith("Nodes") and not line.startswith("info"):
                k, v = line.split(":", 1)
                if v.strip().isdigit():
                    out[k.strip()] = int(v)
        return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rokade", default="./rokade")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--every", type=int, default=3, help="compare every N plies")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--chess960", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    starts = ["startpos"]
    if a.chess960:
        with open("../shared/data/openings/chess960.epd") as f:
            starts = ["fen " + l.strip() for l in f if l.strip()]
    rk, sf = Engine([a.rokade], a.chess960), Engine([a.stockfish], a.chess960)
    checked = failed = 0
    for g in range(a.games):
        start = rnd.choice(starts)
        moves = []
        for ply in range(a.plies):
            pos = "position %s%s" % (start, (" moves " + " ".join(moves)) if moves else "")
            legal = sf.divide(pos, 1)
            if ply % a.every == 0 or not legal:
                d1, d2 = rk.divide(pos, a.depth), sf.divide(pos, a.depth)
                checked += 1
                if d1 != d2:
                    failed += 1
                    print("MISMATCH", pos)
                    for k in sorted(set(d1) | set(d2)):
                        if d1.get(k) != d2.get(k):
                            print("   %s rokade %s stockfish %s" % (k, d1.get(k), d2.get(k)))
            if not legal:
                break
            moves.append(rnd.choice(sorted(legal)))
        print("game %d/%d: %d plies, %d positions checked, %d mismatches" % (
            g + 1, a.games, len(moves), checked, failed), flush=True)
    rk.quit()
    sf.quit()
    print("perft-random: %d positions, %d mismatches" % (checked, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
