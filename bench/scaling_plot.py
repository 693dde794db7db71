#!/usr/bin/env python3
"""Draws a scaling table as an SVG: Rokade's Elo against another engine at
equal nodes a move, by log(nodes), with each match's 95% error bar and the
weighted least-squares line through the points (weights 1/error^2), whose
slope is printed per doubling of the nodes.

Input: the Markdown rows of bench/README.md's "Scaling with nodes" table
("| 25,000 | 6301 | 200 | 104-50-46 | 64.5% | +103.7 +/- 46.8 | ..."), from
a file or stdin; rows of the same node count (matches of other seeds) are
drawn apart and fitted together.
Usage: python3 bench/scaling_plot.py [TABLE] > bench/scaling.svg
Standard library only."""
import math
import re
import sys

ROW = re.compile(r"^\|\s*([\d,]+)\s*\|[^|]*\|\s*(\d+)\s*\|\s*[\d-]+\s*\|\s*([\d.]+)%\s*\|"
                 r"\s*([+-]?[\d.]+)\s*\+/-\s*([\d.]+)\s*\|")


def parse(text):
    rows = []
    for line in text.splitlines():
        m = ROW.match(line.strip())
        if m:
            nodes, games, _, elo, err = m.groups()
            rows.append((int(nodes.replace(",", "")), int(games), float(elo), float(err)))
    return rows


def fit(rows):
    """Weighted least squares of Elo on log2(nodes): (intercept, slope per
    doubling, the slope's standard error), or None for fewer than two node
    counts."""
    if len({r[0] for r in rows}) < 2:
        return None
    ws = [1 / (r[3] / 1.96) ** 2 for r in rows]
    xs = [math.log2(r[0]) for r in rows]
    ys = [r[2] for r in rows]
    sw = sum(ws)
    mx = sum(w * x for w, x in zip(ws, xs)) / sw
    my = sum(w * y for w, y in zip(ws, ys)) / sw
    sxx = sum(w * (x - mx) ** 2 for w, x in zip(ws, xs))
    slope = sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys)) / sxx
    return my - slope * mx, slope, math.sqrt(1 / sxx)


def svg(rows, line):
    w, h, left, right, top, bottom = 640, 380, 60, 20, 56, 50
    lx = [math.log10(r[0]) for r in rows]
    x0, x1 = math.floor(min(lx) * 2) / 2 - 0.1, math.ceil(max(lx) * 2) / 2 + 0.1
    lo = min([-100] + [r[2] - r[3] for r in rows])
    hi = max([100] + [r[2] + r[3] for r in rows])
    y0, y1 = math.floor(lo / 50) * 50, math.ceil(hi / 50) * 50

    def X(v):
        return left + (v - x0) * (w - left - right) / (x1 - x0)

    def Y(v):
        return top + (y1 - v) * (h - top - bottom) / (y1 - y0)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    for v in range(y0, y1 + 1, 50):
        out.append(f'<line x1="{X(x0):.1f}" y1="{Y(v):.1f}" x2="{X(x1):.1f}" y2="{Y(v):.1f}" '
                   f'stroke="{"#888" if v == 0 else "#ddd"}"/>')
        out.append(f'<text x="{left - 6}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:+d}</text>')
    for n in sorted({r[0] for r in rows}):
        out.append(f'<text x="{X(math.log10(n)):.1f}" y="{h - bottom + 18}" '
                   f'text-anchor="middle">{n:,}</text>')
    out.append(f'<text x="{(left + w - right) / 2:.0f}" y="{h - 10}" text-anchor="middle">'
               f'nodes a move (log scale)</text>')
    out.append(f'<text x="14" y="{(top + h - bottom) / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(top + h - bottom) / 2:.0f})">Elo (95%)</text>')
    if line:
        a, b, se = line
        xa, xb = x0 + 0.05, x1 - 0.05
        ya = a + b * xa / math.log10(2)
        yb = a + b * xb / math.log10(2)
        out.append(f'<line x1="{X(xa):.1f}" y1="{Y(ya):.1f}" x2="{X(xb):.1f}" y2="{Y(yb):.1f}" '
                   f'stroke="#c41a1a" stroke-dasharray="6 4"/>')
        out.append(f'<text x="{left}" y="{top - 6}" fill="#c41a1a">the line: '
                   f'{b:+.1f} +/- {1.96 * se:.1f} Elo per doubling of the nodes</text>')
    seen = {}
    for n, games, elo, err in rows:
        k = seen.get(n, 0)
        seen[n] = k + 1
        x = X(math.log10(n)) + 8 * k
        out.append(f'<line x1="{x:.1f}" y1="{Y(elo - err):.1f}" x2="{x:.1f}" y2="{Y(elo + err):.1f}" '
                   f'stroke="#2a6f4e" stroke-width="2"/>')
        out.append(f'<circle cx="{x:.1f}" cy="{Y(elo):.1f}" r="4" fill="#2a6f4e"/>')
        anchor = "end" if x > w - right - 80 else "start"
        tx = x - 8 if anchor == "end" else x + 8
        out.append(f'<text x="{tx:.1f}" y="{Y(elo) - 6:.1f}" text-anchor="{anchor}">'
                   f'{elo:+.0f} ({games} games)</text>')
    out.append(f'<text x="{left}" y="{top - 22}">Rokade against Fairy-Stockfish 11.1 at equal '
               f'nodes</text>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    rows = parse(text)
    if not rows:
        sys.exit("scaling_plot: no table rows found")
    line = fit(rows)
    if line:
        print(f"scaling_plot: {line[1]:+.1f} +/- {1.96 * line[2]:.1f} Elo per doubling",
              file=sys.stderr)
    sys.stdout.write(svg(rows, line))


if __name__ == "__main__":
    main()
