#!/usr/bin/env python3
"""Random UCI stress test for Rokade (Python 3 standard library only).

    python3 tests/stress.py --engine ./rokade --count 400 --seed 1

Drives one engine process over a pipe with a fixed number (--count) of random
UCI commands, valid and invalid, and checks that its answers stay consistent:

  * every `isready` gets exactly one `readyok`, also during a search
    (isready is the sync barrier after every command);
  * every finite `go` (depth, nodes, movetime, mate with another limit, clock
    variants, searchmoves, MultiPV up to 300) gets exactly one `bestmove`,
    legal in the position and inside `searchmoves` when given; `go infinite`
    and `go ponder` give none until `stop` / `ponderhit`, then exactly one;
    `bestmove (none)` only when there is no legal move; `info` lines name
    root moves, multipv indices fit MultiPV (and a `go depth N` reports every
    line at depth N), `wdl` appears exactly when UCI_ShowWDL is on; a
    `ponder` move, when checked, is legal after the best move; `go mate 1`
    in a mate-in-one position stops by itself with a mating move; the
    position is the same after the search;
  * after every accepted `position` command (startpos, FEN, random Chess960
    starts; random legal games of 0..300 plies, sometimes 1000+) `d` shows
    the FEN and key obtained independently by playing the same moves one
    command at a time (`position fen F_k moves m_k+1`); FENs the engine
    prints give themselves back through `position fen`; UCI_Chess960 on/off
    leaves the position alone;
  * invalid input (garbage lines, random bytes, unknown commands, bad FENs,
    illegal moves, unknown options and bad option values, bad `go` values,
    commands sent during an infinite search, stray `stop`/`ponderhit`) is
    answered with `info string error: ...` and leaves the position alone;
  * the session ends with `quit` (sometimes during a search) or with the end
    of input; the engine exits with status 0 in time and prints no sanitizer
    report on stderr.

The legal moves of a position come from the engine itself (`go perft 1`,
cross-checked with the move count of `d`): the script has no move generator.
Every read has a deadline (--timeout), so a hang is reported as a failure.
On failure it prints the seed, the command index, the last commands sent and
the last lines received, and exits 1; on success one summary line, exit 0.
--log FILE records the whole conversation. --max-threads caps the Threads
option (searches use up to that many threads; run under `taskset -c 0` to keep
them on one core). --strict also demands errors for FENs Rokade accepts by
design (castling rights without their rook, an en-passant square on the wrong
rank) and ends with a `go` that has only the opponent's clock (which Rokade
treats as no time limit). --skip NAME[,NAME] leaves out one kind of check
(see SKIPPABLE).
"""

import argparse
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time
from collections import deque

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# Positions in the exact form Rokade prints them (they must round-trip).
FEN_POOL = [
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
    "r3k3/8/8/8/8/8/8/4K3 b q - 0 1",
    "8/P7/8/8/8/8/7p/K6k w - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",          # stalemate
    "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",          # checkmate
    "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",         # in check
    "8/8/4k3/8/8/4K3/8/8 w - - 0 1",           # bare kings
    "8/8/4k3/8/8/4K3/8/7R w - - 99 120",       # 50-move rule is near
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",   # mate in one
    "3k4/8/3K4/8/8/8/8/6R1 w - - 0 1",         # mate in one
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1r1k3r/pppppppp/8/8/8/8/PPPPPPPP/1R1K3R w HBhb - 0 1",
]

MATE_IN_ONE = [
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "3k4/8/3K4/8/8/8/8/6R1 w - - 0 1",
    "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1",
    "3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
]

# Each must be rejected with an error (and leave the position alone).
BAD_FENS = [
    "",
    "8/8/8/8/8/8/8/8 w - - 0 1",                                  # no kings
    "4k3/8/8/8/8/8/8/8 w - - 0 1",                                # no white king
    "8/8/8/8/8/8/8/4K3 b - - 0 1",                                # no black king
    "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",                             # two kings
    "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",                            # side not to move in check
    "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1 5",                        # too many fields
    "r3k2r/8/8/8/8/8/8/R3K2R",                                    # 1 field
    "r3k2r/8/8/8/8/8/8/R3K2R w",                                  # 2 fields
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq",                             # 3 fields
    "r3k2r/8/8/8/8/8/8/R3K2X w KQkq - 0 1",                       # bad letters
    "r3k2r/8/8/8/8/8/8/R3K2r1 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K1R w - - 0 1",                          # short rank
    "r3k2r/8/8/8/8/8/8/R3K2R/8 w - - 0 1",                        # 9 ranks
    "r3k2r/8/8/8/8/8/R3K2R w - - 0 1",                            # 7 ranks
    "r3k2r/8/8/9/8/8/8/R3K2R w - - 0 1",
    "P3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",                          # pawn on rank 8
    "r3k2r/8/8/8/8/8/8/R3K2p w - - 0 1",                          # pawn on rank 1
    "r3k2r/8/8/8/8/8/8/R3K2R x - - 0 1",                          # bad side
    "r3k2r/8/8/8/8/8/8/R3K2R W - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R wb - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1",                      # bad castling
    "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w Kx - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w K-q - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w 1 - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - z9 0 1",                         # bad e.p.
    "r3k2r/8/8/8/8/8/8/R3K2R w - e9 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - e 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - e3e 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - E6 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - -3 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - - x 1",                          # bad counters
    "r3k2r/8/8/8/8/8/8/R3K2R w - - -1 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 -1",
    "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 x",
    "r3k2r/8/8/8/8/8/8/R3K2R w - - 100000001 1",
    "8/8/8/b7/8/5n2/8/r3K2k w - - 0 1",                           # three checkers
    "startpos",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk",
]

KNOWN_COMMANDS = {"uci", "isready", "ucinewgame", "position", "go", "stop", "ponderhit",
                  "setoption", "quit", "debug", "register", "help", "d", "eval", "bench",
                  "perft", "perftsuite"}
GO_KEYWORDS = ["searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo",
               "depth", "nodes", "mate", "movetime", "infinite", "perft"]
SANITIZER_PATTERNS = ("runtime error", "ERROR: AddressSanitizer", "WARNING: ThreadSanitizer",
                      "ERROR: LeakSanitizer", "ERROR: ThreadSanitizer",
                      "SUMMARY: UndefinedBehaviorSanitizer")
C_SPACE = b" \t\n\v\f\r"
SKIPPABLE = {
    "tab-moves": "a tab (not a space) before 'moves' in 'position fen ... moves'",
    "ponder-check": "checking the legality of the ponder move of a bestmove",
    "multipv-cover": "checking that a 'go depth N' reports every MultiPV line at depth N",
    "long-games": "the occasional game of 1000+ plies",
    "huge-hash": "Hash values above the range, which set the largest table the machine can give "
                 "(an AddressSanitizer build takes 18 s to allocate 18 GB)",
}

UCI_MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
PERFT_LINE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?): (\d+)$")


class Failure(Exception):
    pass


def short(text, n=160):
    text = text if isinstance(text, str) else text.decode("utf-8", "backslashreplace")
    text = text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= n else text[:n] + "...(%d chars)" % len(text)


# ---------------------------------------------------------------------------
# The engine process


class Engine:
    def __init__(self, argv, timeout, log=None):
        self.timeout = timeout
        self.log = log
        self.errf = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.errf)
        self.wfd = self.proc.stdin.fileno()
        self.rfd = self.proc.stdout.fileno()
        os.set_blocking(self.wfd, False)
        self.rbuf = b""
        self.queue = deque()
        self.eof = False
        self.sent = deque(maxlen=20)
        self.received = deque(maxlen=30)
        self.lines_sent = 0
        self.isready_sent = 0
        self.readyok_seen = 0
        self.bestmove_seen = 0
        self.action = 0

    def _read_chunk(self):
        try:
            data = os.read(self.rfd, 65536)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            if self.rbuf:
                self._add_line(self.rbuf)
                self.rbuf = b""
            return
        self.rbuf += data
        *lines, self.rbuf = self.rbuf.split(b"\n")
        for line in lines:
            self._add_line(line)

    def _add_line(self, raw):
        line = raw.decode("utf-8", "replace").rstrip("\r")
        if line == "readyok":
            self.readyok_seen += 1
        elif line.split(" ", 1)[0] == "bestmove":
            self.bestmove_seen += 1
        self.queue.append(line)

    def send(self, line, ending=b"\n"):
        raw = line.encode("utf-8", "surrogateescape") if isinstance(line, str) else line
        self.sent.append("[%d] %s" % (self.action, short(raw + ending)))
        self.lines_sent += 1
        if raw.split(C_SPACE[:1], 1)[0].strip(C_SPACE) == b"isready":
            self.isready_sent += 1
        data = raw + ending
        if self.log:
            self.log.write("> [%d] %s\n" % (self.action, short(data, 100000)))
        deadline = time.monotonic() + self.timeout
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("timeout (%.0f s) writing to the engine" % self.timeout)
            r, w, _ = select.select([] if self.eof else [self.rfd], [self.wfd], [], left)
            if r:
                self._read_chunk()
            if w:
                try:
                    n = os.write(self.wfd, data)
                except (BrokenPipeError, ConnectionResetError):
                    raise Failure("the engine closed its input (exit status %s)"
                                  % self.proc.poll())
                except BlockingIOError:
                    n = 0
                data = data[n:]

    def get_line(self, deadline, what):
        while not self.queue:
            if self.eof:
                try:
                    status = self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    status = None
                raise Failure("the engine's output ended while waiting for %s (exit status %s)"
                              % (what, status))
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure("timeout (%.0f s) waiting for %s" % (self.timeout, what))
            r, _, _ = select.select([self.rfd], [], [], left)
            if r:
                self._read_chunk()
        line = self.queue.popleft()
        self.received.append(line)
        if self.log:
            self.log.write("< %s\n" % line)
        return line

    def collect(self, what, bestmoves=0, readyoks=0, timeout=None):
        """Lines until `bestmoves` bestmove and `readyoks` readyok lines have
        come (in any order), none more; readyok lines are left out."""
        deadline = time.monotonic() + (timeout or self.timeout)
        lines, bm, ro = [], 0, 0
        while bm < bestmoves or ro < readyoks:
            line = self.get_line(deadline, what)
            if line == "readyok":
                ro += 1
                if ro > readyoks:
                    raise Failure("an unexpected readyok while waiting for %s" % what)
                continue
            if line.split(" ", 1)[0] == "bestmove":
                bm += 1
                if bm > bestmoves:
                    raise Failure("an unexpected (extra) '%s' while waiting for %s" % (line, what))
            lines.append(line)
        return lines

    def stderr_text(self):
        self.errf.seek(0)
        return self.errf.read().decode("utf-8", "replace")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass


# ---------------------------------------------------------------------------
# Small FEN helpers (no move generation: board layout only)


def fen_board(fen):
    """{square name: piece letter} of a FEN's placement field."""
    board = {}
    rows = fen.split()[0].split("/")
    for r, row in enumerate(rows):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board["abcdefgh"[f] + str(8 - r)] = ch
                f += 1
    return board


def king_square(fen):
    side = fen.split()[1]
    king = "K" if side == "w" else "k"
    for sq, pc in fen_board(fen).items():
        if pc == king:
            return sq
    return None


def needs_960(fen):
    """True when a castling right belongs to a king off the e-file: standard
    notation cannot write that castling move, and Rokade may refuse such a FEN
    unless UCI_Chess960 is on."""
    f = fen.split()
    if len(f) < 3 or f[2] == "-":
        return False
    kings = {pc: sq for sq, pc in fen_board(fen).items() if pc in "Kk"}
    for ch in f[2]:
        sq = kings.get("K" if ch.isupper() else "k")
        if sq and sq[0] != "e":
            return True
    return False


def random_960_fen(rng, shredder):
    sq = [None] * 8
    sq[rng.choice([1, 3, 5, 7])] = "B"
    sq[rng.choice([0, 2, 4, 6])] = "B"
    free = [i for i in range(8) if sq[i] is None]
    for pc in "QNN":
        i = rng.choice(free)
        sq[i] = pc
        free.remove(i)
    for i, pc in zip(sorted(free), "RKR"):
        sq[i] = pc
    back = "".join(sq)
    if shredder:
        files = [i for i, pc in enumerate(sq) if pc == "R"]
        kf, qf = "abcdefgh"[files[1]].upper(), "abcdefgh"[files[0]].upper()
        castling = kf + qf + kf.lower() + qf.lower()
    else:
        castling = "KQkq"
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s - 0 1" % (back.lower(), back, castling)


# ---------------------------------------------------------------------------
# Parsing the engine's answers


class DInfo:
    def __init__(self, fen, key, checkers, state, legal_count, san):
        self.fen, self.key, self.checkers = fen, key, checkers
        self.state, self.legal_count, self.san = state, legal_count, san


def parse_d(lines, where):
    """Parses the output of `d` at the start of `lines`; returns (DInfo, rest)."""
    board_rows, fen = [], None
    key = checkers = state = None
    for i, line in enumerate(lines):
        m = re.match(r"^ \| (.) \| (.) \| (.) \| (.) \| (.) \| (.) \| (.) \| (.) \| ([1-8])$", line)
        if m:
            board_rows.append(("".join(m.groups()[:8]), int(m.group(9))))
        elif line.startswith("Fen: "):
            fen = line[5:]
        elif line.startswith("Key: "):
            key = line[5:]
        elif line.startswith("Checkers: "):
            checkers = line[10:]
        elif line.startswith("State: "):
            state = line[7:]
        elif line.startswith(" +---+") or line == "   a   b   c   d   e   f   g   h":
            pass
        elif not line.startswith("Legal moves ("):
            raise Failure("%s: unexpected line in or before the 'd' output: %s" % (where, short(line)))
        else:
            m = re.match(r"^Legal moves \((\d+)\): (.*)$", line)
            if not m:
                raise Failure("%s: bad 'Legal moves' line: %s" % (where, line))
            n = int(m.group(1))
            san = [] if m.group(2) == "-" else m.group(2).split(" ")
            if len(san) != n or (n == 0) != (m.group(2) == "-"):
                raise Failure("%s: 'Legal moves (%d)' lists %d moves" % (where, n, len(san)))
            if fen is None or key is None or checkers is None or state is None:
                raise Failure("%s: 'd' output lacks Fen/Key/Checkers/State" % where)
            if len(board_rows) != 8 or [r for _, r in board_rows] != list(range(8, 0, -1)):
                raise Failure("%s: 'd' shows %d board rows" % (where, len(board_rows)))
            board = fen_board(fen)
            for row, rank in board_rows:
                for f in range(8):
                    want = board.get("abcdefgh"[f] + str(rank), " ")
                    if row[f] != want:
                        raise Failure("%s: the board drawn by 'd' differs from its Fen %s at %s"
                                      % (where, fen, "abcdefgh"[f] + str(rank)))
            return DInfo(fen, key, checkers, state, n, san), lines[i + 1:]
    raise Failure("%s: no complete 'd' output in %r" % (where, [short(x, 80) for x in lines[-5:]]))


def parse_perft(lines, depth, where):
    """Parses a perft divide; returns (list of moves, total, rest of lines)."""
    moves, total, counts = [], None, 0
    for i, line in enumerate(lines):
        m = PERFT_LINE.match(line)
        if m:
            moves.append(m.group(1))
            counts += int(m.group(2))
            if depth == 1 and m.group(2) != "1":
                raise Failure("%s: perft 1 gives %s for %s" % (where, m.group(2), m.group(1)))
            continue
        if line == "":
            continue
        m = re.match(r"^Nodes searched: (\d+)$", line)
        if m:
            total = int(m.group(1))
            rest = lines[i + 1:]
            if not rest or not rest[0].startswith("info string perft %d: %d nodes" % (depth, total)):
                raise Failure("%s: perft is not followed by its info line" % where)
            if total != counts:
                raise Failure("%s: perft total %d != sum of the divide %d" % (where, total, counts))
            return moves, total, rest[1:]
        raise Failure("%s: unexpected line in the perft output: %s" % (where, short(line)))
    raise Failure("%s: no 'Nodes searched' line in the perft output" % where)


def errors_in(lines):
    return [l for l in lines if l.startswith("info string error: ")]


# ---------------------------------------------------------------------------
# The test


class Stress:
    def __init__(self, engine, rng, args):
        self.e = engine
        self.rng = rng
        self.args = args
        self.skip = set(args.skip)
        self.chess960 = False
        self.multipv = 1
        self.threads = 1
        self.show_wdl = False
        self.debug = False
        # The current game: position command prefix, moves from it, and per
        # ply (fen, key, legal moves, in check) with ply 0 = the prefix.
        self.base = "startpos"
        self.moves = []
        self.hist = []
        self.stats = dict(searches=0, positions=0, rejections=0, plies=0)
        self.ending = None
        self.options = set()        # option names listed by `uci`
        self.skill = 20             # play levels (newer Rokade): 20 = full strength
        self.limit_strength = False

    def level_active(self):
        """A play level below full strength caps the depth and picks among
        several lines: no exact depth or mate expectations then."""
        return self.skill < 20 or self.limit_strength

    # -- current position ---------------------------------------------------
    @property
    def fen(self):
        return self.hist[-1][0]

    @property
    def key(self):
        return self.hist[-1][1]

    @property
    def legal(self):
        return self.hist[-1][2]

    @property
    def in_check(self):
        return self.hist[-1][3]

    def rng_ws(self, tokens):
        """Joins tokens, sometimes with odd (but valid) whitespace."""
        r = self.rng
        if r.random() < 0.8:
            return " ".join(tokens)
        out = r.choice(["", " ", "  ", "\t"]) if r.random() < 0.3 else ""
        for i, t in enumerate(tokens):
            if i:
                out += r.choice([" ", " ", "  ", "   ", "\t", " \t "])
            out += t
        return out + (r.choice([" ", "\t", "  "]) if r.random() < 0.3 else "")

    def send(self, line):
        ending = b"\r\n" if self.rng.random() < 0.05 else b"\n"
        self.e.send(line, ending)

    def sync(self, what):
        self.e.send("isready")
        return self.e.collect(what, readyoks=1)

    def no_output(self, lines, what):
        if lines:
            raise Failure("%s: expected no output, got %s" % (what, [short(l) for l in lines[:5]]))

    # -- probing the engine (bookkeeping commands, not counted) -------------
    def probe(self, poscmd, what):
        """Sends poscmd (if any), d and go perft 1; returns (errors, DInfo, moves)."""
        if poscmd is not None:
            self.e.send(poscmd)
        self.e.send("d")
        self.e.send("go perft 1")
        lines = self.sync(what)
        errs = []
        while lines and lines[0].startswith("info string error: "):
            errs.append(lines.pop(0))
        d, rest = parse_d(lines, what)
        moves, _, rest = parse_perft(rest, 1, what)
        if rest:
            raise Failure("%s: unexpected output %s" % (what, [short(l) for l in rest[:5]]))
        if len(moves) != d.legal_count:
            raise Failure("%s: 'd' lists %d legal moves, perft 1 gives %d (%s)"
                          % (what, d.legal_count, len(moves), d.fen))
        # Sorted, duplicates kept: in standard notation a Chess960 castling
        # move can read like a king move (both are root moves).
        return errs, d, sorted(moves)

    def check_d(self, what, fen=None, key=None):
        """`d` must show the expected FEN and key (default: the current ones)."""
        fen = self.fen if fen is None else fen
        key = self.key if key is None else key
        self.e.send("d")
        lines = self.sync(what)
        d, rest = parse_d(lines, what)
        if rest:
            raise Failure("%s: unexpected output after 'd': %s" % (what, [short(l) for l in rest[:5]]))
        if d.fen != fen:
            raise Failure("%s: the engine's position is\n    %s\nbut should be\n    %s"
                          % (what, d.fen, fen))
        if key is not None and d.key != key:
            raise Failure("%s: key %s but %s for the same FEN %s" % (what, d.key, key, fen))
        self.stats["positions"] += 1
        return d

    def set_game(self, base, moves, hist):
        self.base, self.moves, self.hist = base, moves, hist

    def rebase(self):
        """The current position becomes the start of a new game (from its FEN)."""
        self.set_game("fen " + self.fen, [], [self.hist[-1]])

    def play_random(self, hist, n, what):
        """Extends hist (list of (fen, key, legal, check)) by n random plies,
        one `position fen F moves m` at a time; returns the moves."""
        moves = []
        for _ in range(n):
            fen, _, legal, _ = hist[-1]
            if not legal:
                break
            m = self.rng.choice(legal)
            errs, d, nlegal = self.probe("position fen %s moves %s" % (fen, m),
                                         "%s (ply %d: %s)" % (what, len(hist), m))
            if errs:
                raise Failure("%s: the legal move %s (from perft) is refused in %s: %s"
                              % (what, m, fen, errs[0]))
            moves.append(m)
            hist.append((d.fen, d.key, nlegal, d.checkers != "-"))
            self.stats["plies"] += 1
        return moves

    def start_of(self, base, what):
        """(fen, key, legal, check) of a base ('startpos' or 'fen F'), checked."""
        errs, d, legal = self.probe("position " + base, what)
        if errs:
            raise Failure("%s: 'position %s' is refused: %s" % (what, short(base), errs[0]))
        want = START_FEN if base == "startpos" else base[4:]
        if d.fen != want:
            raise Failure("%s: 'position %s' gives the FEN %s" % (what, base, d.fen))
        return (d.fen, d.key, legal, d.checkers != "-")

    def roundtrip(self, entry, what):
        """`position fen X` for a FEN X the engine printed gives X back (and its key)."""
        fen, key = entry[0], entry[1]
        errs, d, legal = self.probe("position fen " + fen, what)
        if errs:
            raise Failure("%s: the engine's own FEN is refused: %s: %s" % (what, fen, errs[0]))
        if d.fen != fen or d.key != key:
            raise Failure("%s: position fen %s gives back %s (key %s, was %s)"
                          % (what, fen, d.fen, d.key, key))
        if legal != entry[2]:
            raise Failure("%s: legal moves of %s differ after a FEN round trip" % (what, fen))
        self.stats["positions"] += 1

    def restore(self, what):
        """Sets the engine back to the current game (after bookkeeping)."""
        cmd = "position " + self.base + (" moves " + " ".join(self.moves) if self.moves else "")
        self.e.send(cmd)
        self.no_output(errors_in(self.sync(what)), what)

    # -- actions ------------------------------------------------------------
    def pick_length(self):
        r = self.rng.random()
        if r < 0.03 and "long-games" not in self.skip:
            return self.rng.randint(1000, 1400)
        if r < 0.08:
            return self.rng.randint(100, 300)
        if r < 0.2:
            return 0
        return self.rng.randint(1, 40)

    def pool_fen(self):
        """A FEN of the pool that suits the current UCI_Chess960 setting."""
        return self.rng.choice([f for f in FEN_POOL if self.chess960 or not needs_960(f)])

    def act_position_new(self):
        r = self.rng.random()
        if r < 0.35:
            base = "startpos"
        elif r < 0.65:
            base = "fen " + self.pool_fen()
        elif r < 0.8:
            fen = random_960_fen(self.rng, self.rng.random() < 0.5)
            if not self.chess960 and needs_960(fen):
                f = fen.split()
                fen = " ".join(f[:2] + ["-"] + f[3:])
            base = "fen " + fen
        else:
            base = "fen " + self.fen
        what = "new game from " + short(base, 90)
        hist = [self.start_of(base, what)]
        moves = self.play_random(hist, self.pick_length(), what)
        if len(hist) > 2 and self.rng.random() < 0.3:
            self.roundtrip(self.rng.choice(hist[1:-1]), what + ": FEN round trip")
        # The command under test: everything in one go (sometimes from a
        # position in the middle, given by its FEN).
        if moves and self.rng.random() < 0.2:
            k = self.rng.randrange(len(moves))
            base, moves, hist = "fen " + hist[k][0], moves[k:], hist[k:]
        self.position_oneshot(base, moves, hist, what)

    def act_position_extend(self):
        if len(self.moves) > 2500:
            return self.act_position_new()
        hist = list(self.hist)
        n = self.rng.choice([1, 1, 1, 2, 2, 3, 4, 8])
        new = self.play_random(hist, n, "extending the game")
        self.position_oneshot(self.base, self.moves + new, hist, "extending the game")

    def position_oneshot(self, base, moves, hist, what):
        tokens = ["position"] + base.split(" ")
        if moves or self.rng.random() < 0.1:
            sep_moves = "moves"
            if (self.rng.random() < 0.03 and base.startswith("fen")
                    and "tab-moves" not in self.skip):
                tokens[-1] += "\tmoves"
                sep_moves = None
            tokens += ([sep_moves] if sep_moves else []) + moves
        line = self.rng_ws(tokens)
        if "tab-moves" in self.skip:
            line = line.replace("\tmoves", " moves")
        self.send(line)
        errs = errors_in(self.sync(what))
        if errs:
            raise Failure("%s: a legal position command is refused: %s" % (what, errs[0]))
        self.check_d("%s: after the one-shot position command (%d moves)" % (what, len(moves)),
                     hist[-1][0], hist[-1][1])
        self.set_game(base, moves, hist)

    def act_roundtrip(self):
        self.roundtrip(self.hist[-1], "FEN round trip of the current position")
        self.rebase()

    def expect_rejected(self, line, what, must_mention=None):
        self.send(line)
        lines = self.sync(what)
        errs = errors_in(lines)
        if not errs:
            raise Failure("%s: no 'info string error' for: %s (got %s)"
                          % (what, short(line), [short(l) for l in lines[:4]]))
        if must_mention and not any(must_mention in e for e in errs):
            raise Failure("%s: the error does not mention %r: %s" % (what, must_mention, errs[0]))
        others = [l for l in lines if l not in errs]
        if others:
            raise Failure("%s: unexpected output %s" % (what, [short(l) for l in others[:4]]))
        self.stats["rejections"] += 1
        return errs

    def illegal_token(self, entry):
        """A move string that is not legal in the ply's position (and not a
        castling move in the other notation: never from the king's square)."""
        fen, _, legal, _ = entry
        ksq = king_square(fen)
        r = self.rng
        for _ in range(100):
            kind = r.random()
            if kind < 0.6:
                t = "".join([r.choice("abcdefgh"), r.choice("12345678"),
                             r.choice("abcdefgh"), r.choice("12345678")])
                if r.random() < 0.1:
                    t += r.choice("qrbnkpQx")
            elif kind < 0.75 and legal:
                m = r.choice(legal)
                t = r.choice([m.upper(), m + "q" if len(m) == 4 else m[:4],
                              m[:4] + "k", m[2:4] + m[0:2], m + m[:2]])
            else:
                t = r.choice(["0000", "e2", "e2e", "e2e4e5", "xx11", "@@@@", "e2-e4", "O-O",
                              "Nf3", "e9e4", "i2i4", "moves", "startpos", "e2e4\x01",
                              "\u00e9\u00e9\u00e9\u00e9", "a" * 100])
            if t in legal or t[:2] == ksq:
                continue
            return t
        return "zz99"

    def act_position_invalid(self):
        r = self.rng.random()
        before = "rejected position command"
        if r < 0.35:
            # An illegal move somewhere in a sequence of legal ones.
            hist = list(self.hist)
            new = self.play_random(hist, self.rng.randint(0, 6), "building an illegal sequence")
            self.restore("restoring the game")
            moves = self.moves + new
            j = self.rng.randint(max(0, len(moves) - 12), len(moves))
            bad = self.illegal_token(hist[j])
            if self.rng.random() < 0.5 and j < len(moves):
                moves = moves[:j] + [bad] + moves[j + 1:]
            else:
                moves = moves[:j] + [bad] + moves[j:]
            line = self.rng_ws(["position"] + self.base.split(" ") + ["moves"] + moves)
            line = line.replace("\tmoves", " moves")   # tested in position_oneshot
            self.expect_rejected(line, "illegal move %d '%s'" % (j + 1, short(bad)),
                                 "move %d " % (j + 1))
        elif r < 0.7:
            fen = self.bad_fen()
            tail = self.rng.choice(["", "", " moves", " moves e2e4", " moves " + " ".join(self.moves[:3])])
            self.expect_rejected("position fen " + fen + tail, "bad FEN", "bad FEN")
        else:
            line = self.rng.choice([
                "position", "position ", "position foo", "position startpos bar",
                "position startpos e2e4", "position startpos move e2e4", "position Startpos",
                "position fen", "position FEN " + START_FEN, "position startpos moves e2e5",
                "position startpos moves e2e4 e2e4", "position fen moves e2e4",
                "position startposition", "position startpos moves e7e5",
                "position " + START_FEN, "position startpos moves e1g1",
            ])
            self.expect_rejected(line, before)
        self.check_d("after a rejected position command (must be unchanged)")
        # A go before the next accepted position must not search the old one.
        if self.rng.random() < 0.5:
            go = self.rng.choice(["go depth 2", "go nodes 500", "go movetime 20", "go infinite",
                                  "go wtime 1000 btime 1000"])
            self.send(go)
            lines = self.e.collect("'%s' after a rejected position" % go, bestmoves=1)
            if self.debug:
                lines = [l for l in lines if not l.startswith("info string debug: go ")]
            errs = errors_in(lines)
            if (len(lines) != 2 or len(errs) != 1 or "position command was refused" not in errs[0]
                    or lines[-1] != "bestmove 0000"):
                raise Failure("'%s' after a rejected position: expected the refusal and "
                              "bestmove 0000, got %s" % (go, [short(l) for l in lines[:4]]))
            self.stats["searches"] += 1   # answered by a bestmove
        self.restore("the game again after a rejected position")

    def bad_fen(self):
        r = self.rng.random()
        if r < 0.35:
            return self.rng.choice(BAD_FENS)
        if r < 0.5 and self.in_check:
            # The side to move is in check: give the move to the other side.
            f = self.fen.split()
            f[1] = "b" if f[1] == "w" else "w"
            f[3] = "-"
            return " ".join(f)
        f = self.rng.choice([self.fen, self.rng.choice(FEN_POOL)]).split()
        rows = f[0].split("/")
        kind = self.rng.randrange(9)
        if kind == 0:       # a bad piece letter
            i = self.rng.randrange(8)
            rows[i] = rows[i] + self.rng.choice("xXzZ*?eE0")
            rows[i] = rows[i][-1] + rows[i][:-1] if self.rng.random() < 0.5 else rows[i]
        elif kind == 1:     # a king missing
            king = self.rng.choice("Kk")
            for i, row in enumerate(rows):
                if king in row:
                    rows[i] = row.replace(king, "N" if king == "K" else "n")
        elif kind == 2:     # a second king
            for i, row in enumerate(rows):
                m = re.search(r"[1-8]", row)
                if m:
                    n = int(m.group())
                    rows[i] = row[:m.start()] + ("K" if i % 2 else "k") + (str(n - 1) if n > 1 else "") + row[m.end():]
                    break
            else:
                rows[0] = "kK" + rows[0][2:]
        elif kind == 3:     # a rank too long or too short
            i = self.rng.randrange(8)
            rows[i] = self.rng.choice([rows[i] + "1", "7", "1p1", "45", "9"])
        elif kind == 4:     # too many or too few ranks
            if self.rng.random() < 0.5:
                rows.append("8")
            else:
                rows.pop(self.rng.randrange(8))
        elif kind == 5:
            f[1] = self.rng.choice(["x", "W", "B", "white", "-", "wb"])
        elif kind == 6:
            f[2] = self.rng.choice(["KQkqK", "KK", "Kx", "K-", "-K", "kk", "QKq1", "12", "KQkqq"])
        elif kind == 7:
            f[3] = self.rng.choice(["z9", "e9", "e0", "e", "e3e", "E6", "-3", "i6", "66", "--"])
        else:
            cut = self.rng.choice([1, 2, 3, 7, 8])
            f = f[:cut] if cut <= 3 else f + ["1"] * (cut - 6)
            return " ".join(["/".join(rows)] + f[1:])
        if self.rng.random() < 0.2 and kind <= 4:
            f[4:6] = [self.rng.choice(["x", "-1", "1.5", "100000001"]), f[5]]
        return " ".join(["/".join(rows)] + f[1:])

    def act_position_lenient(self):
        """FENs Rokade accepts by design, normalizing them: castling rights
        without their rook, an impossible en-passant square, missing or zero
        counters. Accepted or refused, the state must stay consistent."""
        f = self.rng.choice([self.fen, self.rng.choice(FEN_POOL)]).split()
        kind = self.rng.randrange(4)
        strict_bad = False
        if kind == 0:
            f[2] = self.rng.choice(["KQkq", "Kk", "Q", "q", "KQ", "kq", "Kq", "HAha", "Bg"])
            strict_bad = self.castling_without_rook(f)
        elif kind == 1:
            f[3] = self.rng.choice("abcdefgh") + self.rng.choice("12345678")
            rank = f[3][1]
            strict_bad = rank != ("6" if f[1] == "w" else "3")
        elif kind == 2:
            f = f[:self.rng.choice([4, 5])]
        else:
            f[5] = "0"
        fen = " ".join(f)
        what = "lenient FEN " + fen
        self.send("position fen " + fen)
        errs = errors_in(self.sync(what))
        if errs:
            self.stats["rejections"] += 1
            self.check_d(what + ": refused, so the position must be unchanged")
            # go would refuse too until a position is accepted: the game again.
            self.restore(what + ": the game again")
            return
        if self.args.strict and strict_bad:
            raise Failure("%s: accepted without an error (--strict)" % what)
        errs, d, legal = self.probe(None, what)
        g = d.fen.split()
        if g[0] != f[0] or g[1] != f[1] or (len(f) >= 5 and g[4] != f[4]) or \
                (len(f) >= 6 and f[5] != "0" and g[5] != f[5]):
            raise Failure("%s: accepted as %s" % (what, d.fen))
        entry = (d.fen, d.key, legal, d.checkers != "-")
        self.roundtrip(entry, what + ": round trip")
        self.set_game("fen " + d.fen, [], [entry])

    def castling_without_rook(self, f):
        board = fen_board(" ".join(f))
        for ch in f[2]:
            if ch == "-":
                continue
            white = ch.isupper()
            rank = "1" if white else "8"
            rook = "R" if white else "r"
            king = "K" if white else "k"
            ksq = [s for s, p in board.items() if p == king]
            if not ksq or ksq[0][1] != rank:
                return True
            kf = "abcdefgh".index(ksq[0][0])
            files = ["abcdefgh".index(s[0]) for s, p in board.items() if p == rook and s[1] == rank]
            up = ch.upper()
            if up == "K" and not any(x > kf for x in files):
                return True
            if up == "Q" and not any(x < kf for x in files):
                return True
            if up not in "KQ" and ("ABCDEFGH".index(up) not in files):
                return True
        return False

    # -- searches -----------------------------------------------------------
    def go_limits(self):
        """Random finite limits (a list of tokens)."""
        r = self.rng
        white = self.fen.split()[1] == "w"
        kind = r.randrange(6)
        t = []
        if kind == 0:
            t = ["depth", str(r.randint(1, 6))]
        elif kind == 1:
            t = ["nodes", str(r.randint(100, 20000) if r.random() < 0.9 else r.randint(0, 100))]
        elif kind == 2:
            t = ["movetime", str(r.randint(5, 50) if r.random() < 0.9 else r.randint(0, 5))]
        elif kind == 3:
            t = ["mate", str(r.randint(1, 3))] + r.choice([
                ["depth", str(r.randint(1, 6))], ["nodes", str(r.randint(100, 20000))],
                ["movetime", str(r.randint(5, 50))]])
        elif kind == 4:
            us, them = ("wtime", "btime") if white else ("btime", "wtime")
            t = [us, str(r.randint(10, 1000) if r.random() < 0.9 else r.randint(0, 10))]
            if r.random() < 0.8:
                t += [them, str(r.randint(0, 1000))]
            if r.random() < 0.5:
                t += ["winc", str(r.randint(0, 100)), "binc", str(r.randint(0, 100))]
            if r.random() < 0.4:
                t += ["movestogo", str(r.randint(1, 40))]
            pairs = [t[i:i + 2] for i in range(0, len(t), 2)]
            r.shuffle(pairs)
            t = [x for p in pairs for x in p]
        else:
            t = ["depth", str(r.randint(1, 6)), "nodes", str(r.randint(100, 20000))]
            if r.random() < 0.5:
                t += ["movetime", str(r.randint(5, 50))]
        return t

    def searchmoves(self):
        legal = self.legal
        if not legal or self.rng.random() < 0.7:
            return None
        legal = sorted(set(legal))
        k = self.rng.randint(1, len(legal))
        sm = self.rng.sample(legal, k)
        if self.rng.random() < 0.1:
            # Repeated moves, sometimes more tokens than MAX_MOVES (256).
            sm = [self.rng.choice(sm) for _ in range(self.rng.choice([k + 1, 2 * k, 300]))]
        return sm

    def check_search_output(self, lines, allowed, what, depth_only=None):
        """Checks the info lines and the one bestmove of a search; returns it."""
        legal = self.legal
        nroot = len(legal) if allowed is None else len(set(allowed))
        allowed = legal if allowed is None else allowed
        best = [l for l in lines if l.split(" ", 1)[0] == "bestmove"]
        if len(best) != 1:
            raise Failure("%s: %d bestmove lines" % (what, len(best)))
        if lines[-1] != best[0]:
            raise Failure("%s: output after the bestmove: %s" % (what, lines[-1]))
        tok = best[0].split()
        if not legal:
            if tok != ["bestmove", "(none)"]:
                raise Failure("%s: no legal move in %s, but '%s'" % (what, self.fen, best[0]))
            want = "info depth 0 score mate 0" if self.in_check else "info depth 0 score cp 0"
            if want not in lines:
                raise Failure("%s: no '%s' line before bestmove (none)" % (what, want))
        else:
            if len(tok) not in (2, 4) or (len(tok) == 4 and tok[2] != "ponder"):
                raise Failure("%s: malformed '%s'" % (what, best[0]))
            if tok[1] not in allowed:
                raise Failure("%s: bestmove %s is not %s in %s (allowed: %s)"
                              % (what, tok[1], "legal" if allowed is legal else "among searchmoves",
                                 self.fen, " ".join(allowed)))
            if len(tok) == 4 and not UCI_MOVE.match(tok[3]):
                raise Failure("%s: malformed ponder move in '%s'" % (what, best[0]))
        lines_at = {}
        for l in lines:
            if l.startswith("info string error"):
                raise Failure("%s: unexpected error line: %s" % (what, l))
            if l.startswith("info string debug") and not self.debug:
                raise Failure("%s: a debug line with debug off: %s" % (what, l))
            if not l.startswith("info ") or " string " in l[:12]:
                continue
            w = l.split()
            if "currmove" in w:
                mv = w[w.index("currmove") + 1]
                if mv not in allowed:
                    raise Failure("%s: currmove %s is not a root move: %s" % (what, mv, l))
            if "multipv" in w:
                i = int(w[w.index("multipv") + 1])
                if not 1 <= i <= min(self.multipv, nroot):
                    raise Failure("%s: multipv %d with MultiPV %d and %d root moves: %s"
                                  % (what, i, self.multipv, nroot, l))
                d = int(w[w.index("depth") + 1])
                lines_at.setdefault(d, set()).add(i)
                if "wdl" in w:
                    if not self.show_wdl:
                        raise Failure("%s: wdl with UCI_ShowWDL off: %s" % (what, l))
                    j = w.index("wdl")
                    if sum(int(x) for x in w[j + 1:j + 4]) != 1000:
                        raise Failure("%s: wdl does not add up to 1000: %s" % (what, l))
                elif self.show_wdl:
                    raise Failure("%s: no wdl with UCI_ShowWDL on: %s" % (what, l))
                if "pv" in w:
                    j = w.index("pv")
                    if j + 1 >= len(w) or w[j + 1] not in allowed:
                        raise Failure("%s: the pv does not start with a root move: %s" % (what, l))
        if depth_only and nroot and "multipv-cover" not in self.skip and not self.level_active():
            want = set(range(1, min(self.multipv, nroot) + 1))
            if lines_at.get(depth_only, set()) != want:
                raise Failure("%s: at depth %d the multipv lines are %s, expected %s"
                              % (what, depth_only, sorted(lines_at.get(depth_only, [])), sorted(want)))
        return tok

    def after_search(self, tok, what):
        self.stats["searches"] += 1
        # `d` waits for the search to end: the position must be untouched.
        self.check_d(what + ": position after the search")
        if self.rng.random() < 0.3 and len(tok) == 4 and "ponder-check" not in self.skip:
            w = what + ": is the ponder move legal after the best move?"
            self.e.send("position fen %s moves %s %s" % (self.fen, tok[1], tok[3]))
            errs = errors_in(self.sync(w))
            if errs:
                raise Failure("%s: 'bestmove %s ponder %s' in %s: %s"
                              % (w, tok[1], tok[3], self.fen, errs[0]))
            self.restore(w)

    def act_go_finite(self):
        limits = self.go_limits()
        sm = self.searchmoves()
        tokens = ["go"] + limits
        if sm:
            k = self.rng.randrange(0, len(limits) + 1, 2)
            tokens = ["go"] + limits[:k] + ["searchmoves"] + sm + limits[k:]
        neg = None
        if self.rng.random() < 0.05:
            # A negative clock is an error but still a search (as 0 ms).
            neg = self.rng.choice(["wtime", "btime"])
            tokens = ["go", neg, str(-self.rng.randint(1, 500)), "wtime" if neg == "btime" else "btime",
                      "200"]
            sm = None
        line = self.rng_ws(tokens)
        what = "search '%s'" % short(line, 120)
        self.send(line)
        during = self.rng.random() < 0.3
        if during:
            self.e.send("isready")     # answered at once, even during the search
        queued = self.rng.random() < 0.15
        if queued:
            self.e.send("d")           # waits for the search to end
        stop = not queued and self.rng.random() < 0.1
        if stop:
            time.sleep(self.rng.random() * 0.02)
            self.e.send("stop")        # may come after the end: then an error
        lines = self.e.collect(what, bestmoves=1, readyoks=1 if during else 0)
        if stop:
            more = self.sync(what + ": after the stop")
            # The stop may come after the end: silent, but under debug on.
            if [l for l in more if l != "info string debug: stop: no search is running"]:
                raise Failure("%s: unexpected output after stop: %s" % (what, more[:3]))
        if queued:
            if any(l.startswith("Fen: ") for l in lines):
                raise Failure("%s: 'd' sent during the search was answered before the bestmove"
                              % what)
            d, rest = parse_d(self.sync(what + ": the queued 'd'"), what + ": the queued 'd'")
            if rest or d.fen != self.fen:
                raise Failure("%s: the queued 'd' shows %s (expected %s) %s"
                              % (what, d.fen, self.fen, rest[:3]))
        if neg:
            errs = errors_in(lines)
            if not any("negative" in e for e in errs):
                raise Failure("%s: no error for the negative clock" % what)
            lines = [l for l in lines if l not in errs]
        if self.debug:
            dbg = [l for l in lines if l.startswith("info string debug: go ")]
            if len(dbg) != 1:
                raise Failure("%s: debug is on but %d 'info string debug' lines" % (what, len(dbg)))
            lines = [l for l in lines if l not in dbg]
        depth_only = (int(limits[1]) if limits[0] == "depth" and len(limits) == 2
                      and not neg and not stop else None)
        tok = self.check_search_output(lines, sm, what, depth_only)
        self.after_search(tok, what)

    def act_mate_in_one(self):
        """`go mate 1` where a mate in one exists: it must stop by itself with a
        mating move (checked with the State line of `d`)."""
        fen = self.rng.choice(MATE_IN_ONE)
        entry = self.start_of("fen " + fen, "mate in one " + fen)
        self.set_game("fen " + fen, [], [entry])
        line = self.rng.choice(["go mate 1", "go mate 1", "go mate 2", "go depth 3", "go mate 1 nodes 100000"])
        what = "'%s' in %s" % (line, fen)
        self.send(line)
        lines = self.e.collect(what, bestmoves=1)
        if self.debug:
            lines = [l for l in lines if not l.startswith("info string debug: go ")]
        tok = self.check_search_output(lines, None, what)
        if self.level_active():
            self.after_search(tok, what)
            return self.restore(what)
        if not any(" score mate 1 " in l for l in lines if l.startswith("info depth")):
            raise Failure("%s: no 'score mate 1' reported" % what)
        self.after_search(tok, what)
        self.e.send("position fen %s moves %s" % (fen, tok[1]))
        self.e.send("d")
        lines = self.sync(what + ": is the bestmove mate?")
        d, _ = parse_d(lines, what)
        if not d.state.startswith("checkmate"):
            raise Failure("%s: bestmove %s does not mate (State: %s)" % (what, tok[1], d.state))
        self.restore(what)

    def forbidden_during_search(self, what):
        cmd = self.rng.choice(["position startpos", "position fen " + START_FEN, "go depth 1",
                               "setoption name MultiPV value 2", "setoption name Threads value 1",
                               "ucinewgame", "d", "eval", "go infinite", "go ponder"])
        self.send(cmd)
        lines = self.sync(what + ": '%s' during the search" % cmd)
        want = "info string error: '%s' ignored: a search is running" % cmd.split()[0]
        ok = [l.startswith(want) or (l.startswith("info ") and not l.startswith("info string error"))
              for l in lines]
        if not all(ok) or not any(l.startswith(want) for l in lines):
            raise Failure("%s: '%s' during the search: expected '%s...', got %s"
                          % (what, cmd, want, [short(l) for l in lines[-4:]]))
        self.stats["rejections"] += 1

    def quiet_sync(self, what):
        """isready during an endless search: only info lines may come, no bestmove."""
        for l in self.sync(what):
            if not l.startswith("info ") or l.startswith("info string error"):
                raise Failure("%s: unexpected '%s'" % (what, short(l)))

    def act_go_infinite(self):
        sm = self.searchmoves()
        r = self.rng.random()
        tokens = ["go"] if r < 0.2 else ["go", "infinite"]
        if r > 0.8:
            tokens += ["depth", str(self.rng.randint(1, 4))]
        if sm:
            tokens += ["searchmoves"] + sm
        line = self.rng_ws(tokens)
        what = "endless search '%s'" % short(line, 100)
        self.send(line)
        time.sleep(self.rng.random() * 0.06)
        if self.rng.random() < 0.4:
            self.forbidden_during_search(what)
        if self.rng.random() < 0.2:
            self.send("ponderhit")   # no ponder search: no effect, no error
        self.quiet_sync(what + ": no bestmove before stop")
        self.send("stop")
        lines = self.e.collect(what + ": the bestmove after stop", bestmoves=1)
        tok = self.check_search_output(lines, sm, what)
        self.after_search(tok, what)

    def act_go_ponder(self):
        r = self.rng.random()
        finite = r < 0.7
        limits = self.go_limits() if finite else []
        sm = self.searchmoves()
        tokens = ["go", "ponder"] + limits
        if self.rng.random() < 0.5:
            tokens = ["go"] + limits + ["ponder"]
        if sm:
            tokens += ["searchmoves"] + sm
        line = self.rng_ws(tokens)
        what = "ponder search '%s'" % short(line, 100)
        self.send(line)
        time.sleep(self.rng.random() * 0.06)
        if self.rng.random() < 0.4:
            self.forbidden_during_search(what)
        self.quiet_sync(what + ": no bestmove while pondering")
        if self.rng.random() < 0.4:
            self.send("stop")
        else:
            self.send("ponderhit")
            if not finite:
                time.sleep(self.rng.random() * 0.03)
                self.quiet_sync(what + ": after ponderhit an infinite search goes on")
                self.send("stop")
        lines = self.e.collect(what + ": the bestmove", bestmoves=1)
        tok = self.check_search_output(lines, sm, what)
        self.after_search(tok, what)

    def act_go_invalid(self):
        """A `go` with an unknown word searches with the rest of the line; one
        with a malformed value of a known word says so and still answers,
        with a one-ply search (a bad `go perft` is refused: it is no search)."""
        bad = self.illegal_token(self.hist[-1])
        legal = self.legal
        some = self.rng.choice(legal) if legal else "e2e4"
        kind = self.rng.random()
        if kind < 0.2:
            line = self.rng.choice(["go perft 0", "go perft 21", "go perft x"])
            self.expect_rejected(line, "bad go perft")
            self.check_d("after a rejected go perft")
            return
        allowed = None
        if kind < 0.55:
            line = self.rng.choice([
                "go depth 2 foo", "go foo 3 depth 1", "go Depth 3 depth 2", "go nodes 500 nodestime 0",
                "go nodestime 0 movetime 20", "go depth 1 x y z",
            ])
            want_error = False
        else:
            line = self.rng.choice([
                "go depth x", "go depth -3", "go depth", "go nodes -1", "go nodes 1.5",
                "go movetime abc", "go mate", "go searchmoves " + bad, "go wtime", "go winc -5 wtime 100",
                "go depth 99999999999999999999", "go movetime 10 nodes", "go depth 2 depth",
                "go mate -1", "go mate 0", "go movestogo -2 wtime 50 btime 50", "go nodes 1e3",
                "go depth 0x10", "go searchmoves %s %s depth 2" % (some, bad),
            ])
            want_error = True
            if line.startswith("go searchmoves %s " % some) and legal:
                allowed = [some]
        what = "'%s'" % line
        self.send(line)
        lines = self.e.collect(what + ": the bestmove", bestmoves=1)
        errs = errors_in(lines)
        if want_error and not errs:
            raise Failure("%s: no 'info string error' (got %s)" % (what, [short(l) for l in lines[:4]]))
        if not want_error and errs:
            raise Failure("%s: an unknown word taken for an error: %s" % (what, errs[0]))
        rest = [l for l in lines if l not in errs]
        if want_error and any(l.startswith("info depth 2 ") for l in rest):
            raise Failure("%s: a malformed go searched past one ply" % what)
        tok = self.check_search_output(rest, allowed, what)
        self.after_search(tok, what)

    def act_go_perft(self):
        depth = self.rng.choice([1, 1, 2, 2, 3])
        what = "go perft %d" % depth
        self.send(what)
        lines = self.sync(what)
        moves, total, rest = parse_perft(lines, depth, what)
        if rest:
            raise Failure("%s: unexpected output %s" % (what, [short(l) for l in rest[:4]]))
        if sorted(moves) != self.legal:
            raise Failure("%s: the divide's moves differ from the legal moves" % what)
        if depth == 1 and total != len(moves):
            raise Failure("%s: %d nodes for %d moves" % (what, total, len(moves)))

    def act_perft_command(self):
        if self.rng.random() < 0.3:
            fen = self.bad_fen()
            if fen.strip() == "" or fen.split()[0] == "startpos":
                fen = "x"
            self.expect_rejected("perft 2 " + fen, "perft with a bad FEN", "bad FEN")
            return
        fen = self.pool_fen()
        depth = self.rng.randint(1, 2)
        what = "perft %d %s" % (depth, fen)
        self.send(what)
        moves, total, rest = parse_perft(self.sync(what), depth, what)
        if rest:
            raise Failure("%s: unexpected output %s" % (what, [short(l) for l in rest[:4]]))
        self.check_d("after perft with a FEN (the position is not changed)")

    # -- options ------------------------------------------------------------
    def name(self, n):
        r = self.rng.random()
        if r < 0.6:
            return n
        if r < 0.8:
            return n.lower() if r < 0.7 else n.upper()
        return "".join(c.upper() if self.rng.random() < 0.5 else c.lower() for c in n)

    def act_setoption(self):
        r = self.rng
        levels = "Skill Level" in self.options
        kind = r.randrange(13 if levels else 9)
        value = None
        if kind == 0:
            name, value = "Hash", r.randint(1, 64)
        elif kind == 1:
            name, value = "Threads", r.randint(1, self.args.max_threads)
        elif kind == 2:
            name, value = "MultiPV", r.choice([1, 1, 2, 3, r.randint(1, 300)])
        elif kind == 3:
            name = "Clear Hash"
        elif kind == 4:
            return self.toggle_chess960()
        elif kind == 5:
            name, value = "Ponder", r.choice(["true", "false"])
        elif kind == 6:
            name, value = "Move Overhead", r.choice([0, 10, 20, r.randint(0, 100), r.randint(0, 5000)])
        elif kind == 7:
            name, value = "UCI_ShowWDL", r.choice(["true", "false"])
        elif kind == 9:     # play levels (when the engine has them)
            name, value = "Skill Level", r.choice([20, 20, r.randint(0, 20)])
        elif kind == 10:
            name, value = "UCI_LimitStrength", r.choice(["true", "false", "false"])
        elif kind == 11:
            name, value = "UCI_Elo", r.randint(1000, 2800)
        elif kind == 12:
            name, value = "Skill Seed", r.choice([0, r.randint(1, 2147483647)])
        else:
            self.send("ucinewgame")
            self.no_output(self.sync("ucinewgame"), "ucinewgame")
            self.check_d("after ucinewgame")
            return
        tokens = ["setoption", "name"] + self.name(name).split(" ")
        if value is not None:
            tokens += ["value", str(value)]
        line = self.rng_ws(tokens)
        self.send(line)
        lines = self.sync("setoption " + short(line))
        if name == "MultiPV" and value > 256:
            if len(lines) != 1 or "out of range" not in lines[0]:
                raise Failure("MultiPV %d: expected one 'out of range' error, got %s" % (value, lines))
            self.stats["rejections"] += 1
            value = 256
        else:
            self.no_output(lines, "'%s'" % short(line))
        if name == "Threads":
            self.threads = value
        elif name == "MultiPV":
            self.multipv = value
        elif name == "UCI_ShowWDL":
            self.show_wdl = value == "true"
        elif name == "Skill Level":
            self.skill = value
        elif name == "UCI_LimitStrength":
            self.limit_strength = value == "true"

    def toggle_chess960(self):
        on = self.rng.random() < 0.5
        line = self.rng_ws(["setoption", "name", self.name("UCI_Chess960"), "value",
                            "true" if on else "false"])
        self.send(line)
        self.no_output(self.sync(line), line)
        self.chess960 = on
        # The position stays; castling moves may change their notation.
        errs, d, legal = self.probe(None, "after UCI_Chess960 %s" % on)
        if d.fen != self.fen or d.key != self.key:
            raise Failure("UCI_Chess960 %s changed the position from %s to %s" % (on, self.fen, d.fen))
        self.stats["positions"] += 1
        self.hist[-1] = (d.fen, d.key, legal, d.checkers != "-")
        if not on and needs_960(self.fen):
            # Its FEN may not be accepted in standard mode: a new game.
            entry = self.start_of("startpos", "a new game after UCI_Chess960 false")
            self.set_game("startpos", [], [entry])
        else:
            self.rebase()

    def act_setoption_invalid(self):
        r = self.rng
        spin = r.choice(["Hash", "Threads", "MultiPV", "Move Overhead"])
        check = r.choice(["Ponder", "UCI_Chess960", "UCI_ShowWDL"])
        low = {"Hash": 1, "Threads": 1, "MultiPV": 1, "Move Overhead": 0}[spin]
        case = r.randrange(10)
        newval = None
        if case == 0:
            line = "setoption name %s value %s" % (r.choice(["Foo", "Hashes", "Thread", "Multi PV",
                                                              "UCI_Chess", "No Such Option", "Skil Level",
                                                              "ponder2", "Clear"]), r.randint(0, 9))
        elif case == 1:
            line = r.choice(["setoption", "setoption name", "setoption foo", "setoption value 3",
                             "setoption name value 3", "setoption Hash 3", "setoption  value name Hash"])
        elif case == 2:
            line = "setoption name %s value %s" % (spin, r.choice(["abc", "1.5", "12abc", "0x10", "--3",
                                                                   "1 6", "one", "+-1"]))
        elif case == 3:
            line = "setoption name %s" % spin + r.choice(["", " value", " value "])
        elif case == 4:
            v = low - r.randint(1, 1000)
            line, newval = "setoption name %s value %d" % (spin, v), low
        elif case == 5:
            s = r.choice([o for o in ["Hash", "MultiPV", "Move Overhead"]
                          if o != "Hash" or "huge-hash" not in self.args.skip])
            hi = {"Hash": 33554432, "MultiPV": 256, "Move Overhead": 5000}[s]
            v = hi + r.randint(1, 10000)
            spin = s
            line, newval = "setoption name %s value %d" % (s, v), None if s == "Hash" else hi
        elif case == 6:
            line = "setoption name %s value %s" % (check, r.choice(["yes", "1", "TRUE", "False", "on", "",
                                                                    "true false"]))
        elif case == 7:
            line = "setoption name %s" % check
        elif case == 8:
            spin = "MultiPV" if "huge-hash" in self.args.skip else "Hash"
            line = "setoption name %s value 99999999999999999999999" % spin
            newval = 256 if spin == "MultiPV" else None
        else:
            line = "setoption name %s value %d" % (spin, r.randint(-10, 0) if spin != "Move Overhead"
                                                   else -r.randint(1, 5))
            newval = low
        self.expect_rejected(line, "bad setoption")
        if newval is not None:
            if spin == "Threads":
                self.threads = newval
            elif spin == "MultiPV":
                self.multipv = newval

    # -- garbage and odd commands -------------------------------------------
    def engine_view(self, raw):
        """First token of a raw line as the engine sees it (C string, C isspace)."""
        while raw[-1:] in (b"\r",):
            raw = raw[:-1]
        raw = raw.split(b"\0", 1)[0]
        i = 0
        while i < len(raw) and raw[i] in C_SPACE:
            i += 1
        j = i
        while j < len(raw) and raw[j] not in C_SPACE:
            j += 1
        return raw[i:j][:63]

    def act_garbage(self):
        r = self.rng
        kind = r.randrange(5)
        if kind == 0:
            raw = bytes(r.choice([x for x in range(1, 256) if x != 10]) for _ in range(r.randint(1, 200)))
        elif kind == 1:
            word = "".join(r.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789")
                           for _ in range(r.randint(1, 12)))
            raw = (word + r.choice(["", " foo", " depth 5", " " + START_FEN])).encode()
        elif kind == 2:
            raw = r.choice([b"", b" ", b"\t", b"   \t  ", b"\r", b"\x00", b"\x00isready", b"\x0b\x0c"])
        elif kind == 3:
            raw = r.choice([b"Go depth 1", b"ISREADY", b"Position startpos", b"isready2", b"stopp",
                            b"quit_", b"ucinewgamex", b"go_depth", b"dd", b"bestmove e2e4",
                            b"readyok", b"info depth 1", b"uciok", b"xboard", b"protover 2",
                            b"\xff\xfeisready", b"\xc3\xa9go", b"position\xa0startpos"])
        else:
            raw = ("x" * r.randint(100, 20000)).encode()
        first = self.engine_view(raw)
        if first.decode("latin-1") in KNOWN_COMMANDS:
            raw = b"#" + raw
        self.send(raw)
        lines = self.sync("garbage %s" % short(raw, 60))
        errs = errors_in(lines)
        if len(errs) != 1 or len(lines) != 1:
            raise Failure("garbage %s: expected one error line, got %s"
                          % (short(raw, 60), [short(l) for l in lines[:4]]))
        self.stats["rejections"] += 1

    def act_stray(self):
        # Legal in practice (clients send stop when leaving analysis): silent.
        cmd = self.rng.choice(["stop", "ponderhit"])
        self.send(cmd)
        lines = self.sync("'%s' with no search running" % cmd)
        if self.debug:   # mentioned under debug on, as a debug line
            lines = [l for l in lines if not l.startswith("info string debug: %s: no " % cmd)]
        self.no_output(lines, "'%s' with no search running" % cmd)

    def act_misc(self):
        r = self.rng.randrange(9)
        if r == 0:
            self.send("uci")
            lines = self.sync("uci")
            if not lines or lines[-1] != "uciok" or not lines[0].startswith("id name "):
                raise Failure("uci: bad answer %s" % [short(l) for l in lines[:3]])
            names = [re.match(r"option name (.*?) type ", l).group(1) for l in lines
                     if l.startswith("option name ")]
            for want in ("Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "Clear Hash",
                         "UCI_Chess960", "UCI_ShowWDL"):
                if want not in names:
                    raise Failure("uci: option %s is not listed" % want)
        elif r == 1:
            self.send("help")
            if not self.sync("help"):
                raise Failure("help printed nothing")
        elif r == 2:
            v = self.rng.choice(["on", "off", "off"])
            self.send("debug " + v)
            self.no_output(self.sync("debug " + v), "debug " + v)
            self.debug = v == "on"
        elif r == 3:
            self.expect_rejected(self.rng.choice(["debug", "debug maybe", "debug ON"]), "bad debug")
        elif r == 4:
            self.send("eval")
            lines = self.sync("eval")
            if errors_in(lines) or not lines:
                raise Failure("eval: %s" % [short(l) for l in lines[:4]])
        elif r == 5:
            n = self.rng.randint(2, 6)
            for _ in range(n):
                self.e.send("isready")
            lines = self.e.collect("a burst of %d isready" % n, readyoks=n)
            self.no_output(lines, "isready burst")
        elif r == 6:
            self.send("register later")
            self.no_output(self.sync("register"), "register")
        elif r == 7 and self.rng.random() < 0.3:
            self.send("bench 1")
            lines = self.sync("bench 1")
            if not any(l.startswith("Nodes searched") for l in lines) or errors_in(lines):
                raise Failure("bench 1: %s" % [short(l) for l in lines[-4:]])
            self.check_d("after bench")
        else:
            self.check_d("d")

    # -- driver -------------------------------------------------------------
    def run(self, count):
        actions = [
            (self.act_position_new, 12), (self.act_position_extend, 12),
            (self.act_position_invalid, 12), (self.act_position_lenient, 3),
            (self.act_roundtrip, 3), (self.act_go_finite, 16), (self.act_go_infinite, 5),
            (self.act_go_ponder, 6), (self.act_go_invalid, 5), (self.act_go_perft, 3),
            (self.act_perft_command, 1), (self.act_setoption, 9),
            (self.act_setoption_invalid, 5), (self.act_garbage, 7), (self.act_stray, 2),
            (self.act_misc, 4), (self.act_mate_in_one, 1),
        ]
        funcs = [a for a, _ in actions]
        weights = [w for _, w in actions]
        self.e.action = 0
        self.e.send("uci")
        lines, deadline = [], time.monotonic() + self.args.timeout
        while not lines or lines[-1] != "uciok":
            lines.append(self.e.get_line(deadline, "uciok"))
        self.options = {m.group(1) for m in (re.match(r"option name (.*?) type ", l) for l in lines) if m}
        self.hist = [self.start_of("startpos", "the start position")]
        for i in range(1, count + 1):
            self.e.action = i
            self.rng.choices(funcs, weights)[0]()
        if self.args.strict:
            self.strict_checks()

    def finish(self):
        """Ends the session: `quit` (sometimes during a search) or the end of
        input (where a finite search still prints its bestmove). The engine
        must exit with status 0 in time."""
        e, r = self.e, self.rng
        kind = r.choice(["quit"] * 5 + ["quit during infinite", "quit during finite",
                                        "end of input", "end of input during finite"])
        what = "the end of the session (%s)" % kind
        self.ending = kind
        if "infinite" in kind:
            e.send("go infinite")
        elif "finite" in kind:
            e.send("go " + " ".join(self.go_limits()))
        if "during" in kind:
            time.sleep(r.random() * 0.05)
        e.action = self.args.count + 1
        if kind.startswith("quit"):
            e.send("quit")
        else:
            e.sent.append("[%d] (end of input)" % e.action)
            e.proc.stdin.close()
        rest = []
        deadline = time.monotonic() + self.args.timeout
        while True:
            try:
                rest.append(e.get_line(deadline, what))
            except Failure:
                if e.eof:
                    break
                raise
        best = [l for l in rest if l.split(" ", 1)[0] == "bestmove"]
        others = [l for l in rest if not l.startswith("info ") and l not in best]
        if others or errors_in(rest):
            raise Failure("%s: unexpected output %s" % (what, [short(l) for l in rest[-5:]]))
        need = (1, 1) if kind == "end of input during finite" else (0, 1) if "during" in kind else (0, 0)
        if not need[0] <= len(best) <= need[1]:
            raise Failure("%s: %d bestmove lines" % (what, len(best)))
        if best:
            self.check_search_output(rest, None, what)
            self.stats["searches"] += 1
        try:
            status = e.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise Failure("%s: the engine did not exit within %.0f s" % (what, self.args.timeout))
        if status != 0:
            raise Failure("%s: the engine exited with status %d" % (what, status))

    def strict_checks(self):
        """Cases Rokade handles by design in a way the brief calls wrong."""
        white = self.fen.split()[1] == "w"
        if self.legal:
            line = "go %s 100" % ("btime" if white else "wtime")
            self.send(line)
            lines = self.e.collect("'%s' (only the opponent's clock)" % line, bestmoves=1, timeout=5)
            self.after_search(self.check_search_output(lines, None, line), line)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="./rokade", help="engine binary (default ./rokade)")
    ap.add_argument("--count", type=int, default=400, help="random commands to send (default 400)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    ap.add_argument("--timeout", type=float, default=10.0, help="deadline of every read, s (10)")
    ap.add_argument("--max-threads", type=int, default=4, help="largest Threads value (4)")
    ap.add_argument("--strict", action="store_true",
                    help="also fail on lenient-by-design behaviour (see the module doc)")
    ap.add_argument("--log", help="write every line sent (>) and received (<) to this file")
    ap.add_argument("--skip", default="", help="comma list of checks to leave out: "
                    + ", ".join("%s (%s)" % kv for kv in SKIPPABLE.items()))
    args = ap.parse_args()
    args.skip = [s for s in args.skip.split(",") if s]
    for s in args.skip:
        if s not in SKIPPABLE:
            ap.error("unknown --skip name %r" % s)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1 << 31)
    rng = random.Random(args.seed)
    t0 = time.monotonic()
    try:
        log = open(args.log, "w", encoding="utf-8", errors="replace") if args.log else None
        eng = Engine([args.engine], args.timeout, log)
    except OSError as ex:
        print("stress: cannot start %s: %s" % (args.engine, ex))
        return 2
    test = Stress(eng, rng, args)
    try:
        try:
            test.run(args.count)
            test.finish()
            if eng.readyok_seen != eng.isready_sent:
                raise Failure("%d isready sent, %d readyok received"
                              % (eng.isready_sent, eng.readyok_seen))
            if eng.bestmove_seen != test.stats["searches"]:
                raise Failure("%d searches, %d bestmove lines"
                              % (test.stats["searches"], eng.bestmove_seen))
        except Failure:
            raise
        except Exception as ex:   # a parse error on odd output is a failure too
            raise Failure("%s: %s" % (type(ex).__name__, ex))
        err = eng.stderr_text()
        bad = [p for p in SANITIZER_PATTERNS if p in err]
        if bad:
            raise Failure("sanitizer report on stderr (%s)" % ", ".join(bad))
    except Failure as f:
        eng.kill()
        print("FAIL: %s" % f)
        print("  seed %d, command %d of %d (repeat: %s --engine %s --count %d --seed %d)"
              % (args.seed, eng.action, args.count, sys.argv[0], args.engine, args.count, args.seed))
        print("  isready sent %d, readyok received %d; searches %d, bestmove lines received %d"
              % (eng.isready_sent, eng.readyok_seen, test.stats["searches"], eng.bestmove_seen))
        print("  last commands sent ([command index] line):")
        for s in eng.sent:
            print("    > " + s)
        print("  last lines received:")
        for l in eng.received:
            print("    < " + short(l, 200))
        err = eng.stderr_text()
        if err.strip():
            print("  stderr (tail):")
            for l in err.strip().splitlines()[-30:]:
                print("    ! " + l)
        return 1
    s = test.stats
    print("stress: OK seed %d: %d commands (%d lines sent), %d searches, %d positions checked "
          "(%d plies played), %d rejections checked, ended by %s, %.1f s"
          % (args.seed, args.count, eng.lines_sent, s["searches"], s["positions"], s["plies"],
             s["rejections"], test.ending, time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
