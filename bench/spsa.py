#!/usr/bin/env python3
"""spsa.py: tunes search constants together by SPSA over the match tool.

The engine is a `make TUNE=1` build, which lists every constant of
search/tunables.h as a UCI spin option. Each iteration plays game pairs
between the engine set to theta + c_k * delta and the engine set to
theta - c_k * delta (delta a random sign per parameter), and moves theta by
a_k * (wins - losses) * delta / c_k: the simultaneous-perturbation
stochastic approximation (Spall), with the schedule OpenBench uses:

    c_k = c / (k + 1)^0.101      a_k = a / (A + k + 1)^0.602     A = N / 10
    c   = c_end * N^0.101        a   = r_end * c_end^2 * (A + N)^0.602

N is the number of iterations, c_end a parameter's last perturbation
(default: a twentieth of its range) and r_end the last learning rate.

Usage (from the repository root):

    make TUNE=1 BUILD=build/tunable EXE=build/tunable/rokade build/tunable/rokade
    python3 bench/spsa.py --engine build/tunable/rokade --state spsa.json \\
        --param RFP_MARGIN --param LMR_DIV:150:300 --param FUTILITY_MARGIN \\
        --iterations 2000 --pairs 2 --tc 2+0.02 --concurrency 2 \\
        --openings ../shared/data/openings/balanced.epd

    python3 bench/spsa.py --selftest      # the update rule on a known optimum

`--param NAME[:MIN:MAX[:C_END]]` names a tunable (its default is the start;
its range, from search/tunables.h, may be narrowed here: the ranges there
reach the values that switch a technique off, too wide to tune in). The
state file keeps theta and the iteration count after every iteration, so
the same command resumes a run that was cut off; `--show` prints it. The
log (stdout) has one line an iteration. At the end, the values to put into
search/tunables.h. Python 3 standard library only.
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

ALPHA, GAMMA = 0.602, 0.101
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def read_tunables(path):
    """NAME -> (default, min, max) from the SEARCH_TUNABLES list."""
    out = {}
    pat = re.compile(r"X\(\s*([A-Z0-9_]+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+)\)")
    with open(path, encoding="utf-8") as f:
        for m in pat.finditer(f.read()):
            out[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return out


def parse_param(spec, tunables):
    parts = spec.split(":")
    name = parts[0]
    if name not in tunables:
        raise ValueError(f"no tunable {name} in search/tunables.h")
    default, lo, hi = tunables[name]
    if len(parts) not in (1, 3, 4):
        raise ValueError(f"--param {spec}: NAME or NAME:MIN:MAX[:C_END]")
    if len(parts) >= 3:
        lo2, hi2 = int(parts[1]), int(parts[2])
        if not lo <= lo2 < hi2 <= hi:
            raise ValueError(f"--param {spec}: the range must lie within {lo}..{hi}")
        lo, hi = lo2, hi2
    if not lo <= default <= hi:
        raise ValueError(f"--param {spec}: the default {default} is outside {lo}..{hi}")
    c_end = float(parts[3]) if len(parts) == 4 else max(0.5, (hi - lo) / 20)
    if c_end <= 0:
        raise ValueError(f"--param {spec}: C_END must be positive")
    return {"name": name, "start": default, "min": lo, "max": hi, "c_end": c_end}


class Schedule:
    """The gains of iteration k for a parameter with c_end, over n iterations."""

    def __init__(self, n, r_end):
        self.n, self.r_end, self.big_a = n, r_end, n / 10

    def gains(self, k, c_end):
        c = c_end * self.n**GAMMA
        a = self.r_end * c_end**2 * (self.big_a + self.n) ** ALPHA
        return a / (self.big_a + k + 1) ** ALPHA, c / (k + 1) ** GAMMA


def clamp(v, p):
    return min(max(v, p["min"]), p["max"])


def step(state, params, sched, rng, play):
    """One iteration: perturb, play, update. play(plus, minus) -> wins - losses
    of plus (dicts NAME -> int value)."""
    k = state["iteration"]
    signs = {p["name"]: rng.choice((-1, 1)) for p in params}
    plus, minus, gains = {}, {}, {}
    for p in params:
        a_k, c_k = sched.gains(k, p["c_end"])
        gains[p["name"]] = (a_k, c_k)
        theta = state["theta"][p["name"]]
        plus[p["name"]] = int(round(clamp(theta + c_k * signs[p["name"]], p)))
        minus[p["name"]] = int(round(clamp(theta - c_k * signs[p["name"]], p)))
    result = play(plus, minus)
    for p in params:
        a_k, c_k = gains[p["name"]]
        theta = state["theta"][p["name"]] + a_k * result * signs[p["name"]] / c_k
        state["theta"][p["name"]] = clamp(theta, p)
    state["iteration"] = k + 1
    return result


def match_player(args):
    """A play() that runs the match tool for --pairs game pairs."""

    def play(plus, minus):
        seed = args.seed * 100003 + play.iteration
        play.iteration += 1
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            cmd = [args.match, "--engine", f"cmd={args.engine}", "name=plus"]
            cmd += [f"option.{n}={v}" for n, v in plus.items()]
            cmd += ["--engine", f"cmd={args.engine}", "name=minus"]
            cmd += [f"option.{n}={v}" for n, v in minus.items()]
            cmd += ["--each", "option.Hash=16", "option.Threads=1",
                    "--games", str(2 * args.pairs), "--concurrency", str(args.concurrency),
                    "--seed", str(seed), "--json", out]
            cmd += ["--nodes", str(args.nodes)] if args.nodes else ["--tc", args.tc]
            if args.openings:
                cmd += ["--openings", args.openings]
            run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if run.returncode != 0 or not os.path.exists(out):
                sys.exit(f"error: the match tool failed (status {run.returncode}):\n"
                         + run.stdout[-2000:])
            with open(out, encoding="utf-8") as f:
                res = json.load(f)["results"][0]
        play.games += res["games"]
        return res["wins"] - res["losses"]

    play.iteration = 0
    play.games = 0
    return play


def save(path, state):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def run(args):
    tunables = read_tunables(os.path.join(ROOT, "search", "tunables.h"))
    try:
        params = [parse_param(s, tunables) for s in args.param]
    except ValueError as e:
        sys.exit(f"error: {e}")
    if not params:
        sys.exit("error: name at least one --param")
    names = [p["name"] for p in params]
    if os.path.exists(args.state):
        with open(args.state, encoding="utf-8") as f:
            state = json.load(f)
        if sorted(state["theta"]) != sorted(names) or state["iterations"] != args.iterations:
            sys.exit(f"error: {args.state} is a run of other parameters or iterations; "
                     "name another --state")
    else:
        state = {"iterations": args.iterations, "iteration": 0, "games": 0,
                 "theta": {p["name"]: float(p["start"]) for p in params}}
    if args.show:
        print(json.dumps(state, indent=1))
        return 0
    # The engine must list each parameter as an option (a TUNE=1 build);
    # otherwise the match tool's setoption would be refused in silence.
    try:
        uci = subprocess.run([args.engine], input="uci\nquit\n", capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as e:
        sys.exit(f"error: cannot run {args.engine}: {e}")
    listed = set(re.findall(r"^option name (\S+) type spin", uci, re.M))
    missing = [n for n in names if n not in listed]
    if missing:
        sys.exit(f"error: {args.engine} has no option {', '.join(missing)}: "
                 "is it a `make TUNE=1` build?")
    sched = Schedule(args.iterations, args.r_end)
    play = match_player(args)
    play.iteration = state["iteration"]
    while state["iteration"] < args.iterations:
        rng = random.Random(args.seed * 7919 + state["iteration"])
        result = step(state, params, sched, rng, play)
        state["games"] += play.games
        play.games = 0
        save(args.state, state)
        values = " ".join(f"{n}={state['theta'][n]:.2f}" for n in names)
        print(f"iteration {state['iteration']}/{args.iterations} games {state['games']} "
              f"result {result:+d} {values}", flush=True)
    print("values for search/tunables.h:")
    for p in params:
        print(f"  {p['name']} {int(round(state['theta'][p['name']]))} (was {p['start']})")
    return 0


def selftest():
    """On a noisy objective with a known optimum, the update moves theta
    there: each game pair is won by the side nearer the optimum with a
    probability that grows with the difference."""
    params = [{"name": "X", "start": 20, "min": 0, "max": 100, "c_end": 5.0},
              {"name": "Y", "start": 80, "min": 0, "max": 100, "c_end": 5.0}]
    best = {"X": 60, "Y": 30}
    noise = random.Random(5)

    def strength(v):
        return -sum((v[n] - best[n]) ** 2 for n in best) / 100.0

    def play(plus, minus):
        p = 1 / (1 + math.exp(-(strength(plus) - strength(minus))))
        return sum(1 if noise.random() < p else -1 for _ in range(2))

    n = 3000
    state = {"iteration": 0, "theta": {"X": 20.0, "Y": 80.0}}
    sched = Schedule(n, 0.002)
    for _ in range(n):
        step(state, params, sched, random.Random(state["iteration"]), play)
    ok = all(abs(state["theta"][k] - best[k]) < 8 for k in best)
    print(f"selftest: theta {state['theta']['X']:.1f}, {state['theta']['Y']:.1f} "
          f"(optimum 60, 30 from 20, 80): {'ok' if ok else 'FAILED'}")
    # Clamping: a parameter pushed against its bound stays inside it.
    edge = [{"name": "Z", "start": 1, "min": 0, "max": 10, "c_end": 2.0}]
    st = {"iteration": 0, "theta": {"Z": 1.0}}
    for _ in range(50):
        step(st, edge, Schedule(50, 0.5), random.Random(st["iteration"]),
             lambda plus, minus: 2 if plus["Z"] < minus["Z"] else -2)
    inside = 0 <= st["theta"]["Z"] <= 10 and st["theta"]["Z"] < 1.5
    print(f"selftest: a bound holds ({st['theta']['Z']:.2f}): {'ok' if inside else 'FAILED'}")
    # The tunables file parses, and a bad --param is refused.
    tun = read_tunables(os.path.join(ROOT, "search", "tunables.h"))
    parsed = "RFP_MARGIN" in tun and len(tun) >= 50
    try:
        parse_param("RFP_MARGIN:0:1000", tun)
        refused = False
    except ValueError:
        refused = True
    print(f"selftest: tunables.h read ({len(tun)}), a range beyond it refused: "
          f"{'ok' if parsed and refused else 'FAILED'}")
    return 0 if ok and inside and parsed and refused else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", help="the TUNE=1 build")
    ap.add_argument("--param", action="append", default=[], help="NAME[:MIN:MAX[:C_END]]")
    ap.add_argument("--state", default="spsa.json", help="state file (resumes)")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=1, help="game pairs an iteration")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--nodes", type=int, default=0, help="nodes a move instead of --tc")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--openings", default=os.path.join(ROOT, "..", "shared", "data", "openings",
                                                       "balanced.epd"))
    ap.add_argument("--r-end", type=float, default=0.002, help="the last learning rate")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--match", default=os.path.join(ROOT, "..", "shared", "tools", "match",
                                                    "match"))
    ap.add_argument("--show", action="store_true", help="print the state and exit")
    ap.add_argument("--selftest", action="store_true")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if not args.engine and not args.show:
        ap.error("--engine is required")
    if args.iterations < 1 or args.pairs < 1 or args.concurrency < 1:
        ap.error("--iterations, --pairs and --concurrency must be at least 1")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
