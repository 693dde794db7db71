#!/usr/bin/env python3
"""Checks a Rokade binary built for another system or CPU, run through a
runner (wine for Windows, qemu-aarch64 for ARM64), against what the native
build says: a UCI session through pipes, bench's node count, perft suites
at small depth, Threads 2 and, with --syzygy, tablebase probes from a
SyzygyPath of two directories.

    python3 tests/cross_check.py --runner wine --engine build/windows/rokade.exe \
        --bench 1723324 --syzygy ../shared/data/syzygy --path-sep ';'

Prints one line per check and 'cross_check: N passed, N failed'; the exit
status is 1 when any failed. Used by tests/cross_test.sh (make test-cross).
"""
import argparse
import os
import queue
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time

PASSED = 0
FAILED = 0


def result(ok, name, detail=""):
    global PASSED, FAILED
    if ok:
        PASSED += 1
        print(f"ok   {name}")
    else:
        FAILED += 1
        print(f"FAIL {name}: {detail}")
    sys.stdout.flush()


class Engine:
    """The engine under its runner, its output read on a thread."""

    def __init__(self, cmd, path_arg):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self.lines = queue.Queue()
        self.transcript = []
        threading.Thread(target=self._read, daemon=True).start()
        self.path_arg = path_arg

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line, end="\n"):
        self.proc.stdin.write((line + end).encode())
        self.proc.stdin.flush()

    def wait_for(self, prefix, timeout):
        """Lines up to and including the first that starts with prefix;
        None at the timeout or the end of the output."""
        deadline = time.monotonic() + timeout
        got = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, got
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None, got
            if line is None:
                return None, got
            got.append(line)
            self.transcript.append(line)
            if line.startswith(prefix):
                return line, got

    def quit(self, timeout):
        try:
            self.send("quit")
        except BrokenPipeError:
            pass
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return None


def run(cmd, timeout):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace")


MOVE = re.compile(r"^bestmove [a-h][1-8][a-h][1-8][qrbn]?( ponder [a-h][1-8][a-h][1-8][qrbn]?)?$")


def uci_session(base, scale):
    e = Engine(base, None)
    e.send("uci")
    line, got = e.wait_for("uciok", 30 * scale)
    result(line is not None and got and got[0].startswith("id name Rokade"), "uci: id name, uciok",
           got[:2])
    # A GUI's line ends may be CRLF on any system.
    e.send("isready", end="\r\n")
    line, _ = e.wait_for("readyok", 10 * scale)
    result(line is not None, "isready (CRLF) answered")
    e.send("ucinewgame")
    e.send("position startpos moves e2e4 e7e5 g1f3", end="\r\n")
    e.send("go wtime 3000 btime 3000 winc 30 binc 30")
    t0 = time.monotonic()
    line, _ = e.wait_for("bestmove", 10 * scale)
    result(line is not None and MOVE.match(line), "go with clocks: a bestmove",
           f"{line!r} after {time.monotonic() - t0:.1f} s")
    e.send("position startpos")
    e.send("go infinite")
    line, _ = e.wait_for("info depth", 10 * scale)
    result(line is not None, "go infinite: info lines")
    time.sleep(0.3)
    e.send("isready")
    line, got = e.wait_for("readyok", 5 * scale)
    result(line is not None and not any(l.startswith("bestmove") for l in got),
           "isready during go infinite, no bestmove before stop")
    e.send("stop")
    line, _ = e.wait_for("bestmove", 5 * scale)
    result(line is not None and MOVE.match(line), "stop: a bestmove", line)
    e.send("position startpos moves d2d4 d7d5")
    e.send("go ponder wtime 2000 btime 2000")
    time.sleep(0.3)
    e.send("ponderhit")
    line, _ = e.wait_for("bestmove", 10 * scale)
    result(line is not None and MOVE.match(line), "go ponder, ponderhit: a bestmove", line)
    e.send("setoption name Threads value 2")
    e.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    e.send("go depth 10")
    line, got = e.wait_for("bestmove", 60 * scale)
    depth10 = any(l.startswith("info depth 10 ") for l in got)
    result(line is not None and MOVE.match(line) and depth10, "Threads 2: go depth 10", line)
    e.send("setoption name Hash value 64")
    e.send("isready")
    line, _ = e.wait_for("readyok", 10 * scale)
    result(line is not None, "Hash 64 (a table of the platform's large allocation)")
    status = e.quit(10 * scale)
    result(status == 0, "quit: exit status 0", status)


def bench(base, expected, scale):
    status, out = run(base + ["bench"], 300 * scale)
    m = re.search(r"^Nodes searched *: (\d+)", out, re.M)
    got = int(m.group(1)) if m else None
    result(status == 0 and got == expected, f"bench: {expected} nodes", f"status {status}, got {got}")


def perft(base, root, depth, scale):
    for suite, extra in (("standard.epd", []), ("tricky.epd", []), ("chess960.epd", ["chess960"])):
        path = os.path.join(root, "perft", suite)
        status, out = run(base + ["perftsuite " + " ".join([path, str(depth)] + extra)], 300 * scale)
        ok = status == 0 and "perftsuite: PASS" in out and " 0 failed" in out
        last = [l for l in out.splitlines() if l.startswith("perft suite")]
        result(ok, f"perft suite {suite} to depth {depth}", last[-1:] or out[-300:])


def syzygy(base, tables, sep, to_path, count, scale):
    """The tables split over two directories, given as one SyzygyPath with
    the system's separator; then `d`'s tablebase line for positions of the
    reference file, against it."""
    names = sorted(n for n in os.listdir(tables) if n.endswith((".rtbw", ".rtbz")))
    with tempfile.TemporaryDirectory() as tmp:
        dirs = [os.path.join(tmp, "a"), os.path.join(tmp, "b")]
        for d in dirs:
            os.mkdir(d)
        for n in names:
            # 3-4 pieces in one, 5 in the other ("KBBvKN": 6 letters, 1 'v').
            d = dirs[1] if len(n.split(".")[0]) - 1 >= 5 else dirs[0]
            os.symlink(os.path.join(os.path.abspath(tables), n), os.path.join(d, n))
        refs = []
        with open(os.path.join(tables, "reference.epd")) as f:
            for line in f:
                parts = [p.strip() for p in line.split(";")]
                if len(parts) >= 3:
                    refs.append(parts)
        step = max(1, len(refs) // count)
        chosen = refs[::step][:count]
        e = Engine(base, None)
        e.send("setoption name SyzygyPath value " + sep.join(to_path(d) for d in dirs))
        e.send("isready")
        line, got = e.wait_for("readyok", 30 * scale)
        errors = [l for l in got if "error" in l]
        result(line is not None and not errors, "SyzygyPath of two directories", errors)
        bad = []
        five = 0
        for fen, wdl, dtz, *_ in chosen:
            e.send("position fen " + fen)
            e.send("d")
            line, got = e.wait_for("Tablebase:", 10 * scale)
            m = re.match(r"Tablebase: WDL (-?\d+) \(\w+\), DTZ (-?\d+)", line or "")
            want = (int(wdl.split()[1]), int(dtz.split()[1]))
            if not m or (int(m.group(1)), int(m.group(2))) != want:
                bad.append((fen, want, line))
            if sum(c.isalpha() for c in fen.split()[0]) >= 5:
                five += 1
        e.send("isready")
        e.wait_for("readyok", 10 * scale)
        e.quit(10 * scale)
        result(not bad and five > 0,
               f"Syzygy probes: {len(chosen)} positions of reference.epd ({five} of 5 pieces, "
               "from the second directory)", bad[:3])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runner", default="", help="the command that runs the binary (wine, qemu-aarch64)")
    ap.add_argument("--engine", required=True)
    ap.add_argument("--bench", type=int, required=True, help="the native build's bench node count")
    ap.add_argument("--perft-depth", type=int, default=3)
    ap.add_argument("--syzygy", default="", help="the tables' directory (with reference.epd)")
    ap.add_argument("--syzygy-count", type=int, default=24)
    ap.add_argument("--path-sep", default=":")
    ap.add_argument("--windows-paths", action="store_true",
                    help="give the runner's program Windows paths (winepath -w)")
    ap.add_argument("--slow", type=float, default=1.0, help="a factor for every time-out (qemu)")
    a = ap.parse_args()
    base = shlex.split(a.runner) + [a.engine]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def to_path(p):
        if not a.windows_paths:
            return p
        return subprocess.run(["winepath", "-w", p], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL).stdout.decode().strip()

    uci_session(base, a.slow)
    bench(base, a.bench, a.slow)
    perft(base, root, a.perft_depth, a.slow)
    if a.syzygy:
        if os.path.exists(os.path.join(a.syzygy, "reference.epd")):
            syzygy(base, a.syzygy, a.path_sep, to_path, a.syzygy_count, a.slow)
        else:
            print(f"skip Syzygy probes: no {a.syzygy}/reference.epd")
    print(f"cross_check: {PASSED} passed, {FAILED} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
