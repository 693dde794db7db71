#!/usr/bin/env python3
"""Fits the win-draw-loss model of eval/wdl.h to Rokade's own games.

    rokade-train --data GAMES.vf[,MORE.vf] --wdl-table TABLE
    python3 eval/wdl/fit.py TABLE [--params eval/wdl/params.h] [--svg bench/wdl.svg]

TABLE counts, for every position of the games (from ply 16, scores within
+-3000), the game's result from the side to move's view by the material on
the board (pawn 1, minor 3, rook 5, queen 9) and the search score. The model:

    P(win)  = 1 / (1 + exp((a(m) - s) / b(m)))
    P(loss) = 1 / (1 + exp((a(m) + s) / b(m)))

with a and b cubic in m = clamp(material, MIN, MAX) / 58. The fit is by
maximum likelihood in two steps: for each material count with enough
positions, the a and b that make its games' results most likely
(Nelder-Mead on the log-likelihood), then a and b as cubics in m by least
squares weighted by the positions. Writes the constants (params.h) and a plot
of the observed results against the model (svg). Plain Python 3, nothing to
install.
"""
import argparse
import math
import sys
import textwrap

MIN, MAX = 10, 78  # the material range the model is fitted over (clamped outside)
BUCKET = 5  # centipawns per score cell in the fit
MIN_POSITIONS = 5000  # a material count with fewer is left out of step one


def read_table(path):
    """{material: {score: [wins, draws, losses]}} and the header lines."""
    cells, header = {}, []
    with open(path, encoding="ascii") as f:
        for lineno, line in enumerate(f, 1):
            if line.startswith("#"):
                header.append(line[1:].strip())
                continue
            parts = line.split()
            if len(parts) != 5:
                sys.exit(f"{path}:{lineno}: expected 'material score wins draws losses'")
            try:
                m, s, w, d, l = (int(x) for x in parts)
            except ValueError:
                sys.exit(f"{path}:{lineno}: not five integers")
            m = min(max(m, MIN), MAX)
            s = BUCKET * round(s / BUCKET)
            c = cells.setdefault(m, {}).setdefault(s, [0, 0, 0])
            c[0] += w
            c[1] += d
            c[2] += l
    if not cells:
        sys.exit(f"{path}: no data")
    return cells, header


def sigmoid(x):
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def probs(s, a, b):
    pw = sigmoid((s - a) / b)
    pl = sigmoid((-s - a) / b)
    return pw, 1 - pw - pl, pl


def log_likelihood(rows, a, b):
    """rows: [(score, wins, draws, losses)]."""
    if a <= 0 or b <= 0:
        return -math.inf
    ll = 0.0
    for s, w, d, l in rows:
        pw, pd, pl = probs(s, a, b)
        pd = max(pd, 1e-12)
        ll += w * math.log(max(pw, 1e-12)) + d * math.log(pd) + l * math.log(max(pl, 1e-12))
    return ll


def nelder_mead(f, x0, step, iters=300, tol=1e-9):
    """Minimises f from x0; a small, plain implementation."""
    n = len(x0)
    pts = [list(x0)]
    for i in range(n):
        p = list(x0)
        p[i] += step[i]
        pts.append(p)
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        if abs(vals[-1] - vals[0]) <= tol * (abs(vals[0]) + 1e-30):
            break
        centre = [sum(p[i] for p in pts[:-1]) / n for i in range(n)]
        worst = pts[-1]
        refl = [centre[i] + (centre[i] - worst[i]) for i in range(n)]
        fr = f(refl)
        if fr < vals[0]:
            exp_ = [centre[i] + 2 * (centre[i] - worst[i]) for i in range(n)]
            fe = f(exp_)
            pts[-1], vals[-1] = (exp_, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = refl, fr
        else:
            con = [centre[i] + 0.5 * (worst[i] - centre[i]) for i in range(n)]
            fc = f(con)
            if fc < vals[-1]:
                pts[-1], vals[-1] = con, fc
            else:
                best = pts[0]
                pts = [best] + [[best[i] + 0.5 * (p[i] - best[i]) for i in range(n)] for p in pts[1:]]
                vals = [vals[0]] + [f(p) for p in pts[1:]]
    i = min(range(n + 1), key=lambda i: vals[i])
    return pts[i], vals[i]


def cubic_fit(xs, ys, ws):
    """Weighted least squares y = c0 x^3 + c1 x^2 + c2 x + c3."""
    powers = [3, 2, 1, 0]
    mat = [[sum(w * x ** (p + q) for x, w in zip(xs, ws)) for q in powers] for p in powers]
    rhs = [sum(w * y * x ** p for x, y, w in zip(xs, ys, ws)) for p in powers]
    n = 4
    for col in range(n):  # Gaussian elimination with partial pivoting
        piv = max(range(col, n), key=lambda r: abs(mat[r][col]))
        mat[col], mat[piv] = mat[piv], mat[col]
        rhs[col], rhs[piv] = rhs[piv], rhs[col]
        for r in range(col + 1, n):
            k = mat[r][col] / mat[col][col]
            for c in range(col, n):
                mat[r][c] -= k * mat[col][c]
            rhs[r] -= k * rhs[col]
    sol = [0.0] * n
    for r in range(n - 1, -1, -1):
        sol[r] = (rhs[r] - sum(mat[r][c] * sol[c] for c in range(r + 1, n))) / mat[r][r]
    return sol


def poly(c, x):
    return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]


def model_ab(ca, cb, m):
    x = min(max(m, MIN), MAX) / 58
    return poly(ca, x), poly(cb, x)


def fit(cells):
    per_m = {}
    for m in sorted(cells):
        rows = [(s, *c) for s, c in sorted(cells[m].items())]
        n = sum(w + d + l for _, w, d, l in rows)
        if n < MIN_POSITIONS:
            continue
        (a, b), nll = nelder_mead(lambda p: -log_likelihood(rows, p[0], p[1]), [200.0, 80.0], [50.0, 20.0])
        per_m[m] = (a, b, n, -nll)
    if len(per_m) < 4:
        sys.exit("too few material counts with enough positions to fit cubics")
    xs = [m / 58 for m in per_m]
    ws = [per_m[m][2] for m in per_m]
    ca = cubic_fit(xs, [per_m[m][0] for m in per_m], ws)
    cb = cubic_fit(xs, [per_m[m][1] for m in per_m], ws)
    return per_m, ca, cb


def total_ll(cells, ab):
    ll, n = 0.0, 0
    for m, row in cells.items():
        a, b = ab(m)
        rows = [(s, *c) for s, c in row.items()]
        ll += log_likelihood(rows, a, b)
        n += sum(sum(c) for c in row.values())
    return ll, n


def write_params(path, ca, cb, header, stats):
    fmt = lambda c: ", ".join(f"{v:.6f}" for v in c)
    with open(path, "w", encoding="ascii") as f:
        f.write("/* The WDL model's constants (eval/wdl.h), written by eval/wdl/fit.py: do\n")
        f.write(" * not edit; remake them with the commands of eval/README.md, \"The WDL\n")
        f.write(" * model\", with each new net.\n")
        for line in textwrap.wrap("Data: " + (header[0] if header else "?") + ". " + stats, 74):
            f.write(f" * {line}\n")
        f.write(" */\n#ifndef ROKADE_WDL_PARAMS_H\n#define ROKADE_WDL_PARAMS_H\n\n")
        f.write(f"#define WDL_MIN {MIN}\n#define WDL_MAX {MAX}\n")
        f.write(f"static const double WdlA[4] = {{{fmt(ca)}}};\n")
        f.write(f"static const double WdlB[4] = {{{fmt(cb)}}};\n\n#endif\n")


def write_svg(path, cells, ca, cb, title):
    """Observed W/D/L rate by normalised score, three material ranges, against the model."""
    groups = [("opening (material 60-78)", 60, 78), ("middlegame (30-59)", 30, 59), ("endgame (10-29)", 10, 29)]
    width, height, pad = 960, 360, 50
    pw_ = (width - 2 * pad) / 3
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 40}" '
           'font-family="sans-serif" font-size="11">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{width / 2}" y="16" text-anchor="middle" font-size="13">{title}</text>']
    colours = ["#2a7", "#888", "#c33"]
    lo, hi, step = -400, 400, 20  # normalised centipawns on the x axis
    for gi, (name, mlo, mhi) in enumerate(groups):
        x0 = pad + gi * pw_ + 10
        w_ = pw_ - 30
        y0, h_ = 40, height - 60
        sx = lambda v: x0 + (v - lo) / (hi - lo) * w_
        sy = lambda p: y0 + (1 - p) * h_
        out.append(f'<rect x="{x0}" y="{y0}" width="{w_}" height="{h_}" fill="none" stroke="#444"/>')
        out.append(f'<text x="{x0 + w_ / 2}" y="{y0 - 6}" text-anchor="middle">{name}</text>')
        for v in range(lo, hi + 1, 200):
            out.append(f'<line x1="{sx(v)}" y1="{y0 + h_}" x2="{sx(v)}" y2="{y0 + h_ + 4}" stroke="#444"/>')
            out.append(f'<text x="{sx(v)}" y="{y0 + h_ + 16}" text-anchor="middle">{v / 100:+.0f}</text>')
        for p in (0, 0.5, 1):
            out.append(f'<text x="{x0 - 4}" y="{sy(p) + 4}" text-anchor="end">{p:.1f}</text>')
            out.append(f'<line x1="{x0}" y1="{sy(p)}" x2="{x0 + w_}" y2="{sy(p)}" stroke="#ddd"/>')
        # Observed and model rates, by bucket of the printed (normalised) score.
        obs, mod = {}, {}
        for m in range(mlo, mhi + 1):
            if m not in cells:
                continue
            a, b = model_ab(ca, cb, m)
            for s, c in cells[m].items():
                k = step * round(100 * s / a / step)
                if k < lo or k > hi:
                    continue
                o = obs.setdefault(k, [0, 0, 0])
                q = mod.setdefault(k, [0.0, 0.0, 0.0])
                n = sum(c)
                pr = probs(s, a, b)
                for i in range(3):
                    o[i] += c[i]
                    q[i] += n * pr[i]
        for i in range(3):
            pts = []
            for k in sorted(obs):
                n = sum(obs[k])
                if n < 200:
                    continue
                out.append(f'<circle cx="{sx(k):.1f}" cy="{sy(obs[k][i] / n):.1f}" r="2.5" fill="{colours[i]}"/>')
                pts.append(f"{sx(k):.1f},{sy(mod[k][i] / n):.1f}")
            if pts:
                out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colours[i]}" stroke-width="1.5"/>')
    lx = pad + 10
    for i, lab in enumerate(["win", "draw", "loss"]):
        out.append(f'<circle cx="{lx + i * 90}" cy="{height + 20}" r="3" fill="{colours[i]}"/>')
        out.append(f'<text x="{lx + i * 90 + 8}" y="{height + 24}">{lab}</text>')
    out.append(f'<text x="{lx + 280}" y="{height + 24}">dots: the games; lines: the model. '
               'x: the printed score (pawns, normalised: +1 = 50% win)</text>')
    out.append("</svg>")
    with open(path, "w", encoding="ascii") as f:
        f.write("\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table")
    ap.add_argument("--params", help="write the constants here (eval/wdl/params.h)")
    ap.add_argument("--svg", help="write the plot here (bench/wdl.svg)")
    args = ap.parse_args()
    cells, header = read_table(args.table)
    per_m, ca, cb = fit(cells)
    print("material  positions  a(fit)  b(fit)  a(cubic)  b(cubic)")
    for m, (a, b, n, _) in per_m.items():
        am, bm = model_ab(ca, cb, m)
        print(f"{m:8d} {n:10d} {a:7.1f} {b:7.1f} {am:9.1f} {bm:9.1f}")
    ll_model, n = total_ll(cells, lambda m: model_ab(ca, cb, m))
    ll_old, _ = total_ll(cells, lambda m: (150.0, 65.0))
    ll_free = sum(v[3] for v in per_m.values())
    n_free = sum(v[2] for v in per_m.values())
    ll_model_sub, _ = total_ll({m: cells[m] for m in per_m}, lambda m: model_ab(ca, cb, m))
    stats = (f"{n} positions; mean log-likelihood per position: model {ll_model / n:.5f}, "
             f"the old fixed logistic (150, 65) {ll_old / n:.5f}; on the {n_free} positions "
             f"of step one, model {ll_model_sub / n_free:.5f}, free a and b per material "
             f"{ll_free / n_free:.5f}")
    print(stats)
    print("a:", ", ".join(f"{v:.6f}" for v in ca))
    print("b:", ", ".join(f"{v:.6f}" for v in cb))
    if args.params:
        write_params(args.params, ca, cb, header, stats)
    if args.svg:
        write_svg(args.svg, cells, ca, cb, "Rokade's WDL model against its own games (" + (header[0].split(";")[-1].strip() if header else "") + ")")


if __name__ == "__main__":
    main()
