#!/usr/bin/env python3
"""Draws the play-level calibration as an SVG: for each UCI_Elo setting, the
Elo difference of Rokade against Stockfish at the same setting with its 95%
error bar, and the band where the score is 40-60% (about +-70 Elo).

Input: the table bench/calibrate.sh prints (Markdown rows
"| 1400 | 100 | 48-4-48 | 50.0% | +0.0 +/- 68.3 |"), from a file or stdin.
Usage: python3 bench/calibration_plot.py [TABLE] > calibration.svg
Standard library only."""
import math
import re
import sys

ROW = re.compile(r"^\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*([\d-]+)\s*\|\s*([\d.]+)%\s*\|"
                 r"\s*([+-]?[\d.]+|[+-]?inf)\s*\+/-\s*([\d.]+|inf)\s*\|")


def parse(text):
    rows = []
    for line in text.splitlines():
        m = ROW.match(line.strip())
        if m:
            elo, games, _, score, diff, err = m.groups()
            rows.append((int(elo), int(games), float(score), float(diff), float(err)))
    return rows


def band_elo(p):
    return -400 * math.log10(1 / p - 1)


def svg(rows):
    w, h, left, right, top, bottom = 640, 360, 60, 20, 30, 50
    xs = [r[0] for r in rows]
    x0, x1 = min(xs) - 100, max(xs) + 100
    lo = min([-200] + [r[3] - r[4] for r in rows if math.isfinite(r[4])])
    hi = max([200] + [r[3] + r[4] for r in rows if math.isfinite(r[4])])
    y0, y1 = math.floor(lo / 100) * 100, math.ceil(hi / 100) * 100

    def X(v):
        return left + (v - x0) * (w - left - right) / (x1 - x0)

    def Y(v):
        return top + (y1 - v) * (h - top - bottom) / (y1 - y0)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    b40, b60 = band_elo(0.4), band_elo(0.6)
    out.append(f'<rect x="{X(x0):.1f}" y="{Y(b60):.1f}" width="{X(x1) - X(x0):.1f}" '
               f'height="{Y(b40) - Y(b60):.1f}" fill="#dfe"/>')
    for v in range(y0, y1 + 1, 100):
        out.append(f'<line x1="{X(x0):.1f}" y1="{Y(v):.1f}" x2="{X(x1):.1f}" y2="{Y(v):.1f}" '
                   f'stroke="{"#888" if v == 0 else "#ddd"}"/>')
        out.append(f'<text x="{left - 6}" y="{Y(v) + 4:.1f}" text-anchor="end">{v:+d}</text>')
    for e in xs:
        out.append(f'<text x="{X(e):.1f}" y="{h - bottom + 18}" text-anchor="middle">{e}</text>')
    for e, games, score, diff, err in rows:
        if math.isfinite(err):
            out.append(f'<line x1="{X(e):.1f}" y1="{Y(diff - err):.1f}" x2="{X(e):.1f}" '
                       f'y2="{Y(diff + err):.1f}" stroke="#236" stroke-width="2"/>')
        out.append(f'<circle cx="{X(e):.1f}" cy="{Y(diff):.1f}" r="4" fill="#236"/>')
        out.append(f'<text x="{X(e) + 7:.1f}" y="{Y(diff) - 6:.1f}">{score:.0f}%</text>')
    out.append(f'<text x="{w / 2}" y="{h - 10}" text-anchor="middle">UCI_Elo (Rokade and '
               f'Stockfish 15.1 at the same setting, 4+0.04)</text>')
    out.append(f'<text x="14" y="{h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 14 {h / 2})">Elo difference, 95%</text>')
    out.append(f'<text x="{X(x1) - 4:.1f}" y="{Y(b60) + 14:.1f}" text-anchor="end" '
               f'fill="#585">40-60%</text>')
    out.append('</svg>')
    return "\n".join(out) + "\n"


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    rows = parse(text)
    if not rows:
        sys.exit("calibration_plot: no table rows found (the output of bench/calibrate.sh)")
    sys.stdout.write(svg(rows))


if __name__ == "__main__":
    main()
