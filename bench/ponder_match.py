#!/usr/bin/env python3
"""ponder_match.py: a small UCI engine-vs-engine match runner that ponders.

The project's match tool (../shared/tools/match) has no pondering; this one
plays one game at a time and lets an engine think on the opponent's time as
a GUI does, so that "Ponder on" can be measured against "Ponder off".
Python 3 standard library only. The rules (legal moves, checkmate,
stalemate, repetition, the 50/75-move rules, dead positions, SAN for the
PGN) come from a separate Rokade process, the referee (`d` and `go perft 1`).

Usage (from the repository root, after `make`):

    # the issue's match: Ponder on against Ponder off, 100 games at 8+0.08
    python3 bench/ponder_match.py \\
        --engine cmd=./rokade name=ponder ponder=on \\
        --engine cmd=./rokade name=noponder ponder=off \\
        --each option.Hash=16 option.Threads=1 --tc 8+0.08 --games 100 \\
        --openings ../shared/data/openings/balanced.epd \\
        --resign movecount=3 score=600 --draw movenumber=34 movecount=8 score=20 \\
        --pgn ponder.pgn

    # a quick look, every move with both clocks and the ponder events
    python3 bench/ponder_match.py --engine cmd=./rokade name=on ponder=on \\
        --engine cmd=./rokade name=off --tc 2+0.02 --games 4 \\
        --openings ../shared/data/openings/balanced.epd --verbose

    python3 bench/ponder_match.py --selftest   # about 20 s: checks itself

Engines: `--engine cmd=CMD [name=N] [dir=D] [ponder=on|off] [option.X=V]...`
(twice; CMD may have arguments, quote the whole token), `--each KEY=V...`
for both, `--ponder NAME|1|2|both|none` overrides the engines' ponder=.
The first engine's point of view is used in every count.

Pondering, as a GUI does it: an engine with ponder on gets
`setoption name Ponder value true`. After it answers `bestmove X ponder P`
(P legal and the game not over), it is sent `position ... X P` and
`go ponder wtime .. btime .. winc .. binc ..`: its own clock as it is after
X (increment added), the opponent's as it is before its move. When the
opponent plays P it is sent `ponderhit` and its clock runs from then; when
the opponent plays something else it is sent `stop`, its bestmove is
awaited and discarded, then the real position and a normal `go`, its clock
running from the `go`. A move is a time loss when it arrives more than
--timemargin ms after the clock ran out; the increment is added after each
move. Illegal or malformed moves, crashes and silence lose. A claimable
threefold repetition or 50-move draw ends the game as a draw (as match
tools do); so do stalemate, fivefold, 75 moves and dead positions.

Output: a line per game, then W-D-L from engine 1's view, score, Elo with
the 95% error bar (per game and pentanomial over the opening pairs),
Ptnml(0-2), LOS, time losses, ponder hits and misses. --pgn writes the
games (SAN moves from the referee, UCI if the referee's lists disagree).
Exit status: 0 done, 2 usage or startup error, 130 interrupted.
"""

import argparse
import math
import os
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_REFEREE = os.path.join(REPO, "rokade")
STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MATE_CP = 100000  # "score mate N" as a centipawn value for adjudication


class EngineError(Exception):
    """An engine died, hung or broke the protocol."""


# --------------------------------------------------------------------------
# A UCI process: a reader thread puts (monotonic time, line) on a queue, so
# every read has a timeout and arrival times are taken when the line comes.


class Uci:
    def __init__(self, cmd, name, cwd=None, log=None, own_group=True):
        self.cmd, self.name, self.log = cmd, name, log
        self.own_group = own_group
        argv = shlex.split(cmd)
        self.proc = subprocess.Popen(
            argv, cwd=cwd or None, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, start_new_session=own_group)
        self.q = queue.Queue()
        self.dead = False
        t = threading.Thread(target=self._read, daemon=True)
        t.start()

    def _read(self):
        try:
            for raw in self.proc.stdout:
                line = raw[:100000].decode("utf-8", "replace").rstrip("\r\n")
                now = time.monotonic()
                if self.log:
                    self.log.write(f"{now:.3f} {self.name} < {line}\n")
                self.q.put((now, line))
        except (OSError, ValueError):
            pass
        self.q.put((time.monotonic(), None))

    def send(self, line):
        """Writes a line; returns the monotonic time just after the write."""
        if self.dead:
            raise EngineError("the engine is gone")
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):
            self.dead = True
            raise EngineError("the engine is gone (write failed)")
        now = time.monotonic()
        if self.log:
            self.log.write(f"{now:.3f} {self.name} > {line}\n")
        return now

    def read(self, deadline):
        """The next (time, line) before the monotonic deadline, or None on
        timeout; EngineError at end of output."""
        if self.dead:
            raise EngineError("the engine is gone")
        left = deadline - time.monotonic()
        try:
            item = self.q.get(timeout=max(0.0, left)) if left > 0 else self.q.get_nowait()
        except queue.Empty:
            return None
        if item[1] is None:
            self.dead = True
            raise EngineError("the engine exited (crash or EOF)")
        return item

    def wait_for(self, prefix, timeout):
        """Reads until a line starting with prefix; returns the lines read."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            item = self.read(deadline)
            if item is None:
                raise EngineError(f"no '{prefix}' within {timeout:g} s")
            lines.append(item[1])
            if item[1].split()[:1] == [prefix] or item[1].startswith(prefix):
                return lines

    def close(self):
        """quit, one second of grace, then SIGKILL of the engine's group."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                self.proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                pass
        try:
            if self.own_group:
                os.killpg(self.proc.pid, signal.SIGKILL)  # the group we created
            else:
                self.proc.kill()
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            pass
        self.dead = True


# --------------------------------------------------------------------------
# The referee: a Rokade process asked `d` and `go perft 1` for each position.


class Referee:
    def __init__(self, cmd, log=None):
        self.cmd, self.log = cmd, log
        self.uci = None
        self.start()

    def start(self):
        if self.uci:
            self.uci.close()
        self.uci = Uci(self.cmd, "referee", log=self.log)
        self.uci.send("uci")
        self.uci.wait_for("uciok", 10)
        self.uci.send("setoption name Hash value 1")
        self.uci.send("isready")
        self.uci.wait_for("readyok", 10)

    def query(self, fen, moves):
        """Returns dict fen, state, legal (UCI list), san (list, same order)."""
        for attempt in range(2):
            try:
                return self._query(fen, moves)
            except EngineError:
                if attempt:
                    raise
                self.start()

    def _query(self, fen, moves):
        pos = "position startpos" if fen is None else "position fen " + fen
        if moves:
            pos += " moves " + " ".join(moves)
        u = self.uci
        u.send(pos)
        u.send("d")
        u.send("go perft 1")
        u.send("isready")
        lines = u.wait_for("readyok", 30)
        r = {"fen": None, "state": None, "san": [], "legal": [], "errors": []}
        for ln in lines:
            if ln.startswith("Fen: "):
                r["fen"] = ln[5:].strip()
            elif ln.startswith("State: "):
                r["state"] = ln[7:].strip()
            elif ln.startswith("Legal moves ("):
                rest = ln.split(":", 1)[1].split()
                r["san"] = [] if rest == ["-"] else rest
            elif ln.startswith("info string error"):
                r["errors"].append(ln)
            else:
                parts = ln.split(": ")
                if len(parts) == 2 and parts[1].strip() == "1" and 4 <= len(parts[0]) <= 5:
                    r["legal"].append(parts[0])
        if r["fen"] is None or r["state"] is None:
            raise EngineError("referee: no Fen/State from d")
        if len(r["san"]) != len(r["legal"]) or not all(
                san_matches(s, m) for s, m in zip(r["san"], r["legal"])):
            r["san"] = None  # the two lists are not in one order: no SAN
        return r

    def close(self):
        if self.uci:
            self.uci.close()


def san_matches(san, uci):
    """Whether SAN and UCI name the same move (as far as the squares go)."""
    s = san.rstrip("+#")
    if s.startswith("O-O"):
        return uci[:2] in ("e1", "e8")
    if "=" in s:
        s = s[:s.index("=")]
    return s[-2:] == uci[2:4]


def classify(state):
    """(kind, reason) from the referee's State: line: kind is 'ongoing',
    'mate' (the side to move is mated) or 'draw'."""
    if state.startswith("checkmate"):
        return "mate", "checkmate"
    if state.startswith("draw:"):
        return "draw", state[5:].strip()
    if "claimable" in state:  # ongoing, draw claimable: ... : adjudicated
        return "draw", state.split("claimable:", 1)[1].strip() + " (claimed)"
    if state.startswith("ongoing"):
        return "ongoing", ""
    raise EngineError(f"referee: unknown state '{state}'")


# --------------------------------------------------------------------------
# Statistics


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_interval(values_probs, n):
    """Elo and its 95% error (half width) for n samples of a score whose
    distribution is {value: probability}."""
    mean = sum(v * p for v, p in values_probs)
    var = sum(p * (v - mean) ** 2 for v, p in values_probs)
    if n == 0:
        return mean, elo(mean), math.inf
    se = math.sqrt(var / n)
    lo, hi = elo(mean - 1.959964 * se), elo(mean + 1.959964 * se)
    return mean, elo(mean), (hi - lo) / 2


def wdl_stats(w, d, l):
    n = w + d + l
    if n == 0:
        return 0.5, 0.0, math.inf
    return elo_interval([(1.0, w / n), (0.5, d / n), (0.0, l / n)], n)


def penta_stats(ptnml):
    """ptnml[i] = pairs in which engine 1 scored i/2 points (i = 0..4)."""
    n = sum(ptnml)
    if n == 0:
        return 0.5, 0.0, math.inf
    return elo_interval([(i / 4.0, c / n) for i, c in enumerate(ptnml)], n)


def los(w, l):
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


def fmt_elo(e, err):
    def f(x):
        if x in (math.inf, -math.inf):
            return "+inf" if x > 0 else "-inf"
        return f"{x:+.1f}" if abs(x) >= 0.05 else "0.0"
    er = "inf" if err == math.inf or err != err else f"{err:.1f}"
    return f"{f(e)} +/- {er}"


# --------------------------------------------------------------------------
# Options


def parse_kv(tokens, what):
    out = {}
    for t in tokens:
        if "=" not in t:
            raise SystemExit(f"{what}: '{t}' is not KEY=VALUE")
        k, v = t.split("=", 1)
        out[k] = v
    return out


def parse_tc(s):
    if s is None:
        return None
    try:
        base, _, inc = s.partition("+")
        if "/" in base:
            raise ValueError
        return float(base), float(inc or 0)
    except ValueError:
        raise SystemExit(f"--tc: '{s}' is not SEC[+INC] (e.g. 8+0.08)")


def on_off(v, what):
    v = v.lower()
    if v in ("on", "true", "1", "yes"):
        return True
    if v in ("off", "false", "0", "no"):
        return False
    raise SystemExit(f"{what}: '{v}' is not on/off")


class EngineSpec:
    def __init__(self, kv, index):
        if "cmd" not in kv:
            raise SystemExit("--engine needs cmd=CMD")
        self.cmd = kv["cmd"]
        self.name = kv.get("name")
        self.dir = kv.get("dir")
        self.ponder = on_off(kv.get("ponder", "off"), "ponder=")
        self.options = [(k[7:], v) for k, v in kv.items() if k.startswith("option.")]
        unknown = [k for k in kv if k not in ("cmd", "name", "dir", "ponder")
                   and not k.startswith("option.")]
        if unknown:
            raise SystemExit(f"--engine: unknown key(s) {', '.join(unknown)}")
        self.index = index


def load_openings(path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if all(len(x) in (4, 5) and x[0] in "abcdefgh" and x[1] in "12345678"
                   for x in fields):
                out.append((None, fields))  # moves from the start position
                continue
            if len(fields) < 4:
                print(f"warning: {path}:{lineno}: skipped (not a FEN)", file=sys.stderr)
                continue
            fen = fields[:4]
            if (len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit()):
                fen += fields[4:6]
            else:
                fen += ["0", "1"]
            out.append((" ".join(fen), []))
    return out


def check_opening(referee, opening):
    """The referee's view of an opening, or None when it is unusable."""
    fen, moves = opening
    r = referee.query(fen, moves)
    if r["errors"]:
        return None
    if fen is not None and r["fen"].split()[:2] != fen.split()[:2]:
        return None  # the referee kept its old position: a bad FEN
    if classify(r["state"])[0] != "ongoing":
        return None
    return r


# --------------------------------------------------------------------------
# The players: one engine process each, restarted after a failure.


class Player:
    def __init__(self, spec, args, log):
        self.spec, self.args, self.log = spec, args, log
        self.name = spec.name
        self.uci = None
        self.has_ponder_option = False
        self.pondering = None  # the ponder move being pondered on, or None
        self.ponder_hits = self.ponder_misses = 0
        self.time_losses = 0
        self.scores = []  # white-POV score of each move this game (or None)

    def start(self):
        if self.uci:
            self.uci.close()
        self.uci = Uci(self.spec.cmd, self.name or f"engine{self.spec.index + 1}",
                       cwd=self.spec.dir, log=self.log)
        self.uci.send("uci")
        lines = self.uci.wait_for("uciok", self.args.readytimeout / 1000)
        for ln in lines:
            w = ln.split()
            if ln.startswith("id name ") and not self.name:
                self.name = ln[8:].strip()
            if w[:3] == ["option", "name", "Ponder"]:
                self.has_ponder_option = True
        if not self.name:
            self.name = f"engine{self.spec.index + 1}"
        self.uci.name = self.name
        for k, v in self.spec.options:
            self.uci.send(f"setoption name {k} value {v}")
        if self.has_ponder_option or self.spec.ponder:
            self.uci.send("setoption name Ponder value " +
                          ("true" if self.spec.ponder else "false"))
        self.isready()
        self.pondering = None

    def isready(self):
        self.uci.send("isready")
        self.uci.wait_for("readyok", self.args.readytimeout / 1000)

    def alive(self):
        return self.uci is not None and not self.uci.dead and self.uci.proc.poll() is None

    def close(self):
        if self.uci:
            self.uci.close()


def parse_bestmove(line):
    w = line.split()
    if not w or w[0] != "bestmove":
        return None, None
    move = w[1] if len(w) > 1 else ""
    ponder = w[3] if len(w) > 3 and w[2] == "ponder" else None
    return move, ponder


def parse_score(line):
    """Score of an info line (side to move's view), or None."""
    w = line.split()
    if "score" not in w or "lowerbound" in w or "upperbound" in w:
        return None
    i = w.index("score")
    try:
        if w[i + 1] == "cp":
            return int(w[i + 2])
        if w[i + 1] == "mate":
            m = int(w[i + 2])
            return MATE_CP - abs(m) if m > 0 else -(MATE_CP - abs(m))
    except (IndexError, ValueError):
        return None
    return None


class Game:
    """One game: players[0] is White."""

    def __init__(self, args, referee, white, black, opening, round_no, vprint):
        self.args, self.referee = args, referee
        self.players = [white, black]
        self.fen, self.moves = opening[0], list(opening[1])
        self.start_moves = len(self.moves)
        self.round_no = round_no
        self.vprint = vprint
        self.clock = [args.tc[0] * 1000.0, args.tc[0] * 1000.0] if args.tc else None
        self.result = None  # "1-0", "0-1", "1/2-1/2"
        self.reason = ""
        self.loser = None
        self.time_loss = None  # index of a player who lost on time
        self.played = []  # (uci, san or None)
        self.min_clock = [math.inf, math.inf]
        self.start_fen = None

    def pos_cmd(self, extra=()):
        s = "position startpos" if self.fen is None else "position fen " + self.fen
        mv = self.moves + list(extra)
        if mv:
            s += " moves " + " ".join(mv)
        return s

    def go_limits(self, ponder=False):
        parts = ["go"]
        if ponder:
            parts.append("ponder")
        if self.clock:
            inc = self.args.tc[1] * 1000.0
            parts += ["wtime", str(max(1, int(self.clock[0]))),
                      "btime", str(max(1, int(self.clock[1]))),
                      "winc", str(int(inc)), "binc", str(int(inc))]
        if self.args.nodes:
            parts += ["nodes", str(self.args.nodes)]
        if self.args.depth:
            parts += ["depth", str(self.args.depth)]
        if self.args.movetime:
            parts += ["movetime", str(self.args.movetime)]
        return " ".join(parts)

    def stm(self, r):
        return 0 if r["fen"].split()[1] == "w" else 1

    def lose(self, side, reason):
        self.loser = side
        self.result = "0-1" if side == 0 else "1-0"
        self.reason = reason

    def draw(self, reason):
        self.result = "1/2-1/2"
        self.reason = reason

    def lone_king(self, fen, side):
        """Whether player `side` (0 White) has nothing but its king."""
        board = fen.split()[0]
        pieces = [c for c in board if c.isalpha()]
        own = [c for c in pieces if (c.isupper() if side == 0 else c.islower())]
        return len(own) == 1

    def wait_bestmove(self, p, t0, deadline):
        """Reads p's output until bestmove before the deadline; returns (its
        arrival time, the line, the last info score), or (None, None, score)
        on timeout. After a ponderhit the lines before t0 are the ponder
        search's, on the position now played: their scores count."""
        score = None
        while True:
            item = p.uci.read(deadline)
            if item is None:
                return None, None, score
            tm, line = item
            if line.startswith("info"):
                s = parse_score(line)
                if s is not None:
                    score = s
            elif line.startswith("bestmove"):
                return tm, line, score

    def stop_pondering(self, p):
        """stop, then the bestmove of the ponder search, discarded."""
        p.uci.send("stop")
        deadline = time.monotonic() + self.args.readytimeout / 1000
        _, line, _ = self.wait_bestmove(p, 0, deadline)
        p.pondering = None
        if line is None:
            p.uci.close()
            raise EngineError("no bestmove after stop (pondering)")

    def play(self):
        args = self.args
        r = self.referee.query(self.fen, self.moves)
        self.start_fen = r["fen"]
        for p in self.players:
            p.scores = []
        while self.result is None:
            side = self.stm(r)
            p = self.players[side]
            last = self.moves[-1] if len(self.moves) > self.start_moves else None
            try:
                if p.pondering is not None and p.pondering == last:
                    t0 = p.uci.send("ponderhit")
                    p.pondering = None
                    p.ponder_hits += 1
                    how = "ponderhit"
                else:
                    if p.pondering is not None:
                        p.ponder_misses += 1
                        self.stop_pondering(p)
                        how = "miss"
                    else:
                        how = "go"
                    p.uci.send(self.pos_cmd())
                    t0 = p.uci.send(self.go_limits())
                if self.clock:
                    deadline = t0 + (self.clock[side] + args.timemargin) / 1000.0
                else:
                    deadline = t0 + args.movetimeout / 1000.0
                if args.movetime:
                    deadline = min(deadline, t0 + (args.movetime + args.timemargin) / 1000.0)
                tm, line, score = self.wait_bestmove(p, t0, deadline)
            except EngineError as e:
                self.lose(side, f"{p.name}: {e}")
                break
            if line is None:
                p.uci.close()  # it may be hung: a new process for the next game
                if self.clock:
                    p.time_losses += 1
                    self.time_loss = side
                    if self.lone_king(r["fen"], 1 - side):
                        self.draw(f"{p.name} lost on time, but the opponent has a lone king")
                    else:
                        self.lose(side, f"{p.name} lost on time (no move within "
                                        f"{self.clock[side]:.0f} ms + margin)")
                else:
                    self.lose(side, f"{p.name}: no bestmove in time (hang guard)")
                break
            used = max(0.0, (tm - t0) * 1000.0)
            if self.clock:
                self.clock[side] -= used
                self.min_clock[side] = min(self.min_clock[side], self.clock[side])
                if self.clock[side] < -args.timemargin:
                    p.time_losses += 1
                    self.time_loss = side
                    if self.lone_king(r["fen"], 1 - side):
                        self.draw(f"{p.name} lost on time, but the opponent has a lone king")
                    else:
                        self.lose(side, f"{p.name} lost on time ({-self.clock[side]:.0f} ms over)")
                    break
                self.clock[side] += args.tc[1] * 1000.0
            move, ponder = parse_bestmove(line)
            if move not in r["legal"]:
                what = "null move" if move in ("0000", "(none)", "") else "illegal move"
                self.lose(side, f"{p.name}: {what} '{move}' (rules infraction)")
                break
            i = r["legal"].index(move)
            san = r["san"][i] if r["san"] else None
            self.moves.append(move)
            self.played.append((move, san))
            p.scores.append(None if score is None else (score if side == 0 else -score))
            try:
                r = self.referee.query(self.fen, self.moves)
            except EngineError as e:
                raise SystemExit(f"the referee failed: {e}")
            if args.verbose:
                clk = (f" clocks w {self.clock[0] / 1000:.3f} b {self.clock[1] / 1000:.3f}"
                       if self.clock else "")
                self.vprint(f"  {len(self.played):3d}. {p.name:>10} {move:<5} {how:<9} "
                            f"{used:7.1f} ms  score {score}{clk}"
                            + (f"  ponder {ponder}" if ponder else ""))
            kind, why = classify(r["state"])
            if kind == "mate":
                self.lose(1 - side, f"{p.name} mates")
                break
            if kind == "draw":
                self.draw(why)
                break
            if self.adjudicate():
                break
            if (p.spec.ponder and ponder and ponder in r["legal"]):
                try:
                    p.uci.send(self.pos_cmd([ponder]))
                    p.uci.send(self.go_limits(ponder=True))
                    p.pondering = ponder
                except EngineError:
                    p.pondering = None  # found out at its next move
        for p in self.players:
            if p.pondering is not None:
                try:
                    self.stop_pondering(p)
                except EngineError:
                    pass
                p.pondering = None
        return self.result

    def adjudicate(self):
        a = self.args
        s0, s1 = self.players[0].scores, self.players[1].scores
        if a.maxmoves and min(len(s0), len(s1)) >= a.maxmoves:
            self.draw(f"adjudication: {a.maxmoves} moves each")
            return True
        if a.resign:
            n, cp = a.resign["movecount"], a.resign["score"]
            if len(s0) >= n and len(s1) >= n:
                last = s0[-n:] + s1[-n:]
                if None not in last:
                    if all(x >= cp for x in last):
                        self.lose(1, "adjudication: Black resigns")
                        return True
                    if all(x <= -cp for x in last):
                        self.lose(0, "adjudication: White resigns")
                        return True
        if a.draw:
            n, m, cp = a.draw["movenumber"], a.draw["movecount"], a.draw["score"]
            if len(s0) >= max(n, m) and len(s1) >= max(n, m):
                last = s0[-m:] + s1[-m:]
                if None not in last and all(abs(x) <= cp for x in last):
                    self.draw("adjudication: draw by scores")
                    return True
        return False

    def pgn(self, event, white, black):
        a = self.args
        tags = [("Event", event), ("Site", "ponder_match.py"),
                ("Date", time.strftime("%Y.%m.%d")), ("Round", str(self.round_no)),
                ("White", white), ("Black", black), ("Result", self.result)]
        start = self.start_fen or self.fen or STARTPOS
        if start != STARTPOS:
            tags += [("FEN", start), ("SetUp", "1")]
        if a.tc:
            tags.append(("TimeControl", f"{a.tc[0]:g}+{a.tc[1]:g}"))
        r = self.reason
        term = ("time forfeit" if "on time" in r and self.loser is not None
                else "adjudication" if r.startswith("adjudication")
                else "rules infraction" if "illegal" in r or "null move" in r
                else "abandoned" if self.loser is not None and "mates" not in r
                else "normal")
        tags.append(("Termination", term))
        out = [f'[{k} "{v}"]' for k, v in tags]
        base = start.split()
        num = int(base[5]) if len(base) > 5 else 1
        words = []
        black = base[1] == "b"
        for k, (uci, san) in enumerate(self.played):
            mv = san or uci
            if not black:
                words.append(f"{num}. {mv}")
            elif k == 0:
                words.append(f"{num}... {mv}")
            else:
                words.append(mv)
            if black:
                num += 1
            black = not black
        words.append("{" + self.reason + "}")
        words.append(self.result)
        text, line = [], ""
        for w in words:
            if len(line) + len(w) + 1 > 79:
                text.append(line)
                line = w
            else:
                line = (line + " " + w).strip()
        text.append(line)
        return "\n".join(out) + "\n\n" + "\n".join(text) + "\n\n"


# --------------------------------------------------------------------------
# The match


def build_parser():
    ap = argparse.ArgumentParser(
        prog="ponder_match.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="A UCI match runner that ponders (one game at a time).",
        epilog=__doc__.split("Usage", 1)[1].split("\n", 1)[1].split("Engines:")[0])
    ap.add_argument("--engine", nargs="+", action="append", metavar="KEY=VALUE",
                    help="cmd=CMD [name=N] [dir=D] [ponder=on|off] [option.X=V]...; twice")
    ap.add_argument("--each", nargs="+", default=[], metavar="KEY=VALUE",
                    help="defaults for both engines, e.g. option.Hash=16 option.Threads=1")
    ap.add_argument("--ponder", metavar="WHICH",
                    help="which engines ponder: a name, 1, 2, both or none "
                         "(overrides ponder= of --engine)")
    ap.add_argument("--tc", help="clock SEC[+INC], e.g. 8+0.08")
    ap.add_argument("--nodes", type=int, help="go nodes N (with or without --tc)")
    ap.add_argument("--depth", type=int, help="go depth N")
    ap.add_argument("--movetime", type=int, help="go movetime MS")
    ap.add_argument("--games", type=int, default=2,
                    help="number of games, rounded up to pairs (default 2)")
    ap.add_argument("--openings", help="EPD/FEN lines or UCI move lines; "
                    "without it every game starts from the initial position")
    ap.add_argument("--order", choices=("random", "sequential"), default="random")
    ap.add_argument("--seed", type=int, help="seed of the random opening order (printed)")
    ap.add_argument("--timemargin", type=int, default=50,
                    help="ms a move may arrive after the clock ran out (default 50)")
    ap.add_argument("--movetimeout", type=int, default=60000,
                    help="ms without bestmove that lose when there is no clock (default 60000)")
    ap.add_argument("--readytimeout", type=int, default=10000,
                    help="ms for uciok, readyok and the bestmove after stop (default 10000)")
    ap.add_argument("--resign", nargs="+", metavar="KEY=VALUE",
                    help="movecount=M score=CP: both engines agree for M moves each "
                         "that one side is CP or more ahead: it wins (default off)")
    ap.add_argument("--draw", nargs="+", metavar="KEY=VALUE",
                    help="movenumber=N movecount=M score=CP: a draw once both sides made "
                         "N moves in the game and the last M scores of each are within CP (default off)")
    ap.add_argument("--maxmoves", type=int, help="a draw after N moves by each side")
    ap.add_argument("--referee", default=DEFAULT_REFEREE,
                    help=f"the Rokade used for the rules (default {DEFAULT_REFEREE})")
    ap.add_argument("--pgn", help="write the games to this file (overwritten)")
    ap.add_argument("--event", default="ponder_match")
    ap.add_argument("--log", help="the UCI traffic with times, for debugging")
    ap.add_argument("--verbose", action="store_true",
                    help="print every move: time used, clocks, ponderhits and misses")
    ap.add_argument("--selftest", action="store_true",
                    help="check the rules, the statistics and the failure cases, then "
                         "play 2 quick games Ponder on/off and check their sanity")
    ap.add_argument("--fake-engine", help=argparse.SUPPRESS)
    return ap


def summarize(names, wdl, ptnml, players, endings, out=sys.stdout):
    w, d, l = wdl
    n = w + d + l
    s, e, err = wdl_stats(w, d, l)
    ps, pe, perr = penta_stats(ptnml)
    print(f"\nResult of {names[0]} vs {names[1]}: {n} games", file=out)
    print(f"  W-D-L {w}-{d}-{l}  score {100 * s:.1f}%  draws {100 * d / max(1, n):.1f}%"
          f"  LOS {100 * los(w, l):.1f}%", file=out)
    print(f"  Elo {fmt_elo(e, err)} (95%, per game)", file=out)
    print(f"  Elo {fmt_elo(pe, perr)} (95%, pentanomial, {sum(ptnml)} pairs)", file=out)
    print(f"  Ptnml(0-2): {', '.join(str(x) for x in ptnml)}", file=out)
    for p in players:
        tries = p.ponder_hits + p.ponder_misses
        rate = f" ({100 * p.ponder_hits / tries:.0f}% hit rate)" if tries else ""
        print(f"  {p.name}: ponder {'on' if p.spec.ponder else 'off'}, "
              f"{p.ponder_hits} ponderhits, {p.ponder_misses} misses{rate}, "
              f"{p.time_losses} time losses", file=out)
    if endings:
        print("  Endings: " + ", ".join(f"{k} {v}" for k, v in
                                        sorted(endings.items(), key=lambda x: -x[1])), file=out)


def ending_kind(reason):
    for key in ("mates", "stalemate", "threefold", "fivefold", "50-move", "75-move",
                "dead position", "resigns", "draw by scores", "moves each", "on time",
                "illegal", "null move", "crash", "gone", "no bestmove"):
        if key in reason:
            return key
    return reason[:30]


def run_match(args, quiet=False):
    """Plays the match; returns a dict of the results (the selftest reads it)."""
    out = open(os.devnull, "w") if quiet else sys.stdout

    def vprint(s):
        print(s, file=out, flush=True)

    log = open(args.log, "w", buffering=1) if args.log else None
    each = parse_kv(args.each, "--each")
    specs = []
    for i, toks in enumerate(args.engine or []):
        kv = dict(each)
        kv.update(parse_kv(toks, "--engine"))
        specs.append(EngineSpec(kv, i))
    if len(specs) != 2:
        raise SystemExit("give --engine twice")
    if args.ponder is not None:
        w = args.ponder
        for sp in specs:
            sp.ponder = (w == "both" or w == str(sp.index + 1) or w == sp.name)
        if w not in ("both", "none", "1", "2") and not any(sp.name == w for sp in specs):
            raise SystemExit(f"--ponder: no engine named '{w}'")
    if not args.tc and not (args.nodes or args.depth or args.movetime):
        raise SystemExit("give --tc (or --nodes/--depth/--movetime)")
    if any(sp.ponder for sp in specs) and not args.tc:
        print("warning: pondering without --tc: ponder searches end only at "
              "ponderhit/stop", file=sys.stderr)

    referee = Referee(args.referee, log=log)
    players = [Player(sp, args, log) for sp in specs]
    try:
        for p in players:
            try:
                p.start()
            except (EngineError, OSError) as e:
                raise SystemExit(f"engine {p.spec.cmd}: does not start: {e}")
        names = [p.name for p in players]
        if names[0] == names[1]:
            names[1] += "-2"
            players[1].name = players[1].uci.name = names[1]

        if args.openings:
            openings = load_openings(args.openings)
            if not openings:
                raise SystemExit(f"--openings: no positions in {args.openings}")
        else:
            openings = [(None, [])]
        seed = args.seed if args.seed is not None else random.randrange(1 << 31)
        if args.order == "random" and len(openings) > 1:
            random.Random(seed).shuffle(openings)
        pairs = (max(1, args.games) + 1) // 2
        print(f"{names[0]} (ponder {'on' if specs[0].ponder else 'off'}) vs {names[1]} "
              f"(ponder {'on' if specs[1].ponder else 'off'}): {2 * pairs} games, "
              f"tc {'%g+%g' % args.tc if args.tc else '-'}, openings {args.openings or 'startpos'} "
              f"({args.order}, seed {seed})", file=out, flush=True)

        pgn = open(args.pgn, "w") if args.pgn else None
        wdl = [0, 0, 0]
        ptnml = [0] * 5
        endings = {}
        games = []
        k = 0
        gno = 0
        try:
            for pair in range(pairs):
                while True:  # the next usable opening
                    op = openings[k % len(openings)]
                    k += 1
                    if check_opening(referee, op):
                        break
                    print(f"warning: opening skipped: {op}", file=sys.stderr)
                    if k > len(openings) * 2:
                        raise SystemExit("no usable opening")
                pair_pts = 0.0
                for g in range(2):
                    gno += 1
                    white, black = (players[0], players[1]) if g == 0 else (players[1], players[0])
                    for p in players:
                        if not p.alive():
                            try:
                                p.start()
                            except (EngineError, OSError) as e:
                                raise SystemExit(f"{p.name}: does not restart: {e}")
                    game = Game(args, referee, white, black, op, gno, vprint)
                    startfail = None
                    for p in (white, black):
                        try:
                            p.uci.send("ucinewgame")
                            p.isready()
                        except EngineError as e:
                            startfail = (p, e)
                            break
                    if startfail:
                        side = 0 if startfail[0] is white else 1
                        game.lose(side, f"{startfail[0].name}: {startfail[1]} at game start")
                    else:
                        if args.verbose:
                            vprint(f"game {gno}: {white.name} - {black.name}, "
                                   + " ".join([op[0] or "startpos"] + list(op[1])))
                        game.play()
                    res = game.result
                    pts_white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[res]
                    pts0 = pts_white if white is players[0] else 1.0 - pts_white
                    pair_pts += pts0
                    wdl[0 if pts0 == 1 else 1 if pts0 == 0.5 else 2] += 1
                    kind = ending_kind(game.reason)
                    endings[kind] = endings.get(kind, 0) + 1
                    games.append({"white": white.name, "black": black.name, "result": res,
                                  "reason": game.reason, "plies": len(game.played),
                                  "min_clock": list(game.min_clock),
                                  "clock": list(game.clock) if game.clock else None,
                                  "time_loss": game.time_loss})
                    if pgn:
                        pgn.write(game.pgn(args.event, white.name, black.name))
                        pgn.flush()
                    s, e, err = wdl_stats(*wdl)
                    hits = sum(p.ponder_hits for p in players)
                    tries = hits + sum(p.ponder_misses for p in players)
                    hr = f" ponderhits {hits}/{tries}" if tries else ""
                    clk = (f" clocks {game.clock[0] / 1000:.2f}/{game.clock[1] / 1000:.2f}s"
                           if game.clock else "")
                    vprint(f"[{gno}/{2 * pairs}] {white.name} vs {black.name} {res} "
                           f"{{{game.reason}}} {len(game.played)} plies{clk} | "
                           f"{names[0]} vs {names[1]}: W {wdl[0]} D {wdl[1]} L {wdl[2]} "
                           f"{100 * s:.1f}% Elo {fmt_elo(e, err)}{hr}")
                ptnml[int(round(pair_pts * 2))] += 1
        except KeyboardInterrupt:
            print("\ninterrupted: the finished games", file=out)
            summarize(names, wdl, ptnml, players, endings, out=out)
            raise
        summarize(names, wdl, ptnml, players, endings, out=out)
        if pgn:
            pgn.close()
        return {"wdl": wdl, "ptnml": ptnml, "games": games, "names": names,
                "hits": [p.ponder_hits for p in players],
                "misses": [p.ponder_misses for p in players],
                "time_losses": [p.time_losses for p in players], "seed": seed}
    finally:
        for p in players:
            p.close()
        referee.close()
        if log:
            log.close()
        if quiet:
            out.close()


# --------------------------------------------------------------------------
# A bad engine for the selftest: plays Rokade's moves except as told.


def fake_engine(mode):
    """mode: illegal|crash|hang|null, after 2 good moves. Moves come from a
    Rokade it runs, so the game is a real one until then."""
    real = Uci(DEFAULT_REFEREE, "inner", own_group=False)  # dies with us
    real.send("uci")
    real.wait_for("uciok", 10)
    moves = 0
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "quit":
            break
        if w[0] == "uci":
            print("id name fake-" + mode)
            print("uciok", flush=True)
        elif w[0] == "isready":
            print("readyok", flush=True)
        elif w[0] == "position":
            real.send(line.strip())
        elif w[0] == "go":
            moves += 1
            if moves > 2 and mode == "crash":
                os._exit(3)
            if moves > 2 and mode == "hang":
                time.sleep(3600)
            real.send("go depth 2")
            best = real.wait_for("bestmove", 10)[-1].split()[1]
            if moves > 2 and mode == "illegal":
                best = "a1a1" if best != "a1a1" else "h8h8"
            if moves > 2 and mode == "null":
                best = "0000"
            print("bestmove " + best, flush=True)
    real.close()


# --------------------------------------------------------------------------
# --selftest


def selftest(args):
    t_start = time.monotonic()
    ok = True

    def check(cond, what):
        nonlocal ok
        print(("ok   " if cond else "FAIL ") + what, flush=True)
        ok = ok and bool(cond)

    if not os.path.exists(args.referee):
        raise SystemExit(f"selftest: {args.referee} missing (run make)")
    # statistics
    check(abs(elo(0.75) - 190.85) < 0.01, "elo(0.75) = 190.85")
    check(elo(0.5) == 0 and elo(1) == math.inf, "elo(0.5) = 0, elo(1) = inf")
    s, e, err = wdl_stats(10, 20, 10)
    check(s == 0.5 and e == 0 and 70 < err < 90, f"W10 D20 L10: Elo 0 +/- {err:.1f}")
    ps, pe, perr = penta_stats([0, 5, 10, 5, 0])
    check(ps == 0.5 and pe == 0 and abs(perr - 54.3) < 0.1,
          f"Ptnml 0,5,10,5,0: Elo 0 +/- {perr:.1f} (var 1/32 a pair: 54.3)")
    check(abs(los(10, 0) - 0.99922) < 1e-4, "LOS 10-0 = 99.92%")
    # rules through the referee
    ref = Referee(args.referee)
    try:
        cases = [
            ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", [], "mate"),
            ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", [], "draw"),  # stalemate
            ("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", [], "draw"),  # dead: K+N v K
            ("8/8/4k3/8/8/3RK3/8/8 w - - 100 80", [], "draw"),  # 50 moves claimable
            ("8/8/4k3/8/8/3RK3/8/8 w - - 20 80", [], "ongoing"),
            (None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8".split(), "draw"),  # threefold
            (None, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1".split(), "ongoing"),
        ]
        for fen, mv, want in cases:
            r = ref.query(fen, mv)
            got = classify(r["state"])
            check(got[0] == want, f"referee: {fen or 'startpos'} {' '.join(mv)[-23:]}: "
                                  f"{r['state']}")
        r = ref.query(None, [])
        check(len(r["legal"]) == 20 and r["san"] and r["san"][r["legal"].index("g1f3")] == "Nf3",
              "referee: 20 legal moves from the start, g1f3 = Nf3")
        r = ref.query(None, ["e2e4", "e7e5", "e1e3"])
        check(r["errors"], "referee: an illegal move is refused: " + " ".join(r["errors"]))
        r = ref.query("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", [])
        check("e1g1" in r["legal"] and "e1c1" in r["legal"] and r["san"] is not None,
              "referee: castling as e1g1/e1c1, SAN in step")
    finally:
        ref.close()

    # failure cases against a fake engine
    me = f"{sys.executable} {os.path.abspath(__file__)} --fake-engine"
    for mode, want in (("illegal", "illegal"), ("null", "null move"),
                       ("crash", "exited"), ("hang", "on time")):
        a = build_parser().parse_args([
            "--engine", f"cmd={args.referee}", "name=rokade",
            "--engine", f"cmd={me} {mode}", "name=fake", "ponder=off",
            "--ponder", "1", "--tc", "1+0.01", "--games", "2",
            "--referee", args.referee])
        res = run_match(finish_args(a), quiet=True)
        reasons = [g["reason"] for g in res["games"]]
        check(res["wdl"] == [2, 0, 0] and all(want in x for x in reasons),
              f"fake engine '{mode}' loses both games: {reasons[0]}")

    # two real games, Ponder on against Ponder off
    log = "/tmp/ponder_match_selftest_%d.log" % os.getpid()
    a = build_parser().parse_args([
        "--engine", f"cmd={args.referee}", "name=on", "ponder=on",
        "--engine", f"cmd={args.referee}", "name=off", "ponder=off",
        "--each", "option.Hash=16", "option.Threads=1",
        "--tc", "2+0.02", "--games", "2", "--maxmoves", "60",
        "--resign", "movecount=3", "score=500",
        "--draw", "movenumber=30", "movecount=6", "score=10",
        "--referee", args.referee, "--log", log, "--verbose"]
        + (["--openings", args.openings] if args.openings else []))
    res = run_match(finish_args(a))
    g = res["games"]
    check(len(g) == 2 and all(x["result"] in ("1-0", "0-1", "1/2-1/2") for x in g),
          "2 games with a result: " + "; ".join(f"{x['result']} {{{x['reason']}}}" for x in g))
    check(sum(res["wdl"]) == 2 and sum(res["ptnml"]) == 1, "W+D+L = 2, one pair")
    check(res["hits"][0] > 0, f"ponderhits seen: {res['hits'][0]} "
                              f"(misses {res['misses'][0]})")
    check(res["hits"][1] == 0 and res["misses"][1] == 0, "the Ponder off side never ponders")
    check(res["time_losses"] == [0, 0], "no time losses")
    check(all(min(x["min_clock"]) > -50 and max(x["clock"]) <= 2000 + 0.02 * 1000 * 61
              for x in g), "clocks stay within the time control: " +
          "; ".join(f"min {min(x['min_clock']):.0f} ms" for x in g))
    with open(log) as f:
        traffic = f.read()
    check("on > setoption name Ponder value true" in traffic
          and "off > setoption name Ponder value false" in traffic
          and "on > go ponder wtime" in traffic and "on > ponderhit" in traffic
          and "off > go ponder" not in traffic, "the UCI traffic has the ponder protocol")
    os.unlink(log)
    print(f"selftest {'passed' if ok else 'FAILED'} in {time.monotonic() - t_start:.0f} s")
    return 0 if ok else 1


def finish_args(args):
    """Parses the compound options in place; returns args."""
    args.tc = parse_tc(args.tc)
    if args.resign:
        kv = parse_kv(args.resign, "--resign")
        try:
            args.resign = {"movecount": int(kv["movecount"]), "score": int(kv["score"])}
        except (KeyError, ValueError):
            raise SystemExit("--resign needs movecount=M score=CP")
    if args.draw:
        kv = parse_kv(args.draw, "--draw")
        try:
            args.draw = {"movenumber": int(kv["movenumber"]),
                         "movecount": int(kv["movecount"]), "score": int(kv["score"])}
        except (KeyError, ValueError):
            raise SystemExit("--draw needs movenumber=N movecount=M score=CP")
    if not os.path.exists(shlex.split(args.referee)[0]):
        raise SystemExit(f"--referee: {args.referee} not found (run make)")
    return args


def interrupted(signum, frame):
    raise KeyboardInterrupt


def main():
    args = build_parser().parse_args()
    # Ctrl-C or a kill: the finished games' summary, then the engines killed.
    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    if args.fake_engine:
        fake_engine(args.fake_engine)
        return 0
    if args.selftest:
        return selftest(args)
    run_match(finish_args(args))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
