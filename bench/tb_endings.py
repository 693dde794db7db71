#!/usr/bin/env python3
"""Tablebase endings played out against another engine (the Syzygy issue's
conversion test).

  tb_endings.py openings REFERENCE.epd OUT.epd
      picks won and drawn positions from the Syzygy reference file (its
      lines: `FEN; wdl W; dtz D; table NAME`): per table of WON, the
      WON_PER_TABLE wins (WDL +-2, not cursed) farthest from their zeroing
      move (the longest DTZ; ties in the file's order), and per table of
      DRAWN the first DRAWN_PER_TABLE draws. Writes their FENs, one a line.

  tb_endings.py score REFERENCE.epd MATCH.json ENGINE
      reads the match tool's --json summary of a match played from those
      openings (each opening twice, colours reversed) and says, for ENGINE:
      how many of the won positions it won when it had the winning side
      (within the fifty-move rule: the match tool ends a game at 100 plies
      without capture or pawn move), and how many draws it held with either
      side. Lists every game that fell short. Exit status 1 when any did.

Python 3 standard library only.
"""
import json
import sys

# Tables whose wins are played out, and whose draws are.
WON = ["KQvKR", "KRPvKR", "KBNvK", "KBBvKN", "KRBvKR", "KRRvKR", "KQvKP", "KRvKP", "KPvK",
       "KPPvK"]
DRAWN = ["KRPvKR", "KRBvKR", "KBBvKN", "KRvKB", "KRvKN", "KPvK", "KRvKP", "KQvKQ"]
WON_PER_TABLE = 6
DRAWN_PER_TABLE = 4


def read_reference(path):
    """FEN (first four fields) -> (wdl, dtz, table, full FEN)."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = [p.strip() for p in line.split(";")]
            if len(parts) < 4 or not parts[0]:
                continue
            fields = {p.split()[0]: p.split()[1] for p in parts[1:] if len(p.split()) == 2}
            try:
                wdl, dtz = int(fields["wdl"]), int(fields["dtz"])
            except (KeyError, ValueError):
                continue
            fen = parts[0]
            out[" ".join(fen.split()[:4])] = (wdl, dtz, fields.get("table", "?"), fen)
    return out


def make_openings(ref_path, out_path):
    ref = read_reference(ref_path)
    wins = {t: [] for t in WON}
    drawn = {t: [] for t in DRAWN}
    for wdl, dtz, table, fen in ref.values():
        if abs(wdl) == 2 and table in wins:
            wins[table].append((-abs(dtz), len(wins[table]), fen))
        elif wdl == 0 and table in drawn and len(drawn[table]) < DRAWN_PER_TABLE:
            drawn[table].append(fen)
    chosen = []
    for table in WON:
        chosen += [fen for _, _, fen in sorted(wins[table])[:WON_PER_TABLE]]
    for table in DRAWN:
        chosen += drawn[table]
    with open(out_path, "w", encoding="utf-8") as f:
        for fen in chosen:
            f.write(fen + "\n")
    print(f"{len(chosen)} positions: "
          + ", ".join(f"{t} wins {min(len(wins[t]), WON_PER_TABLE)}" for t in WON) + ", "
          + ", ".join(f"{t} draws {len(drawn[t])}" for t in DRAWN))


def score(ref_path, json_path, engine):
    ref = read_reference(ref_path)
    with open(json_path, encoding="utf-8") as f:
        games = json.load(f).get("games", [])
    tally = {}  # (kind, table) -> [good, total]
    short = []
    for g in games:
        if engine not in (g.get("white"), g.get("black")):
            continue
        key = " ".join(str(g.get("opening", "")).split()[:4])
        if key not in ref:
            continue
        wdl, _, table, fen = ref[key]
        stm = key.split()[1]
        colour = "w" if g["white"] == engine else "b"
        points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(g["result"])
        if points is None:
            continue
        if colour == "b":
            points = 1.0 - points
        if wdl == 0:
            kind, good = "draw held", points >= 0.5
        elif (wdl > 0) == (stm == colour):
            kind, good = "win converted", points == 1.0
        else:
            continue  # the other engine had the won side
        cell = tally.setdefault((kind, table), [0, 0])
        cell[0] += good
        cell[1] += 1
        if not good:
            short.append(f"{kind[:4]} {table} {fen} as {colour}: {g['result']} ({g.get('reason')}, "
                         f"{g.get('plies')} plies)")
    for kind in ("win converted", "draw held"):
        cells = {t: c for (k, t), c in tally.items() if k == kind}
        good = sum(c[0] for c in cells.values())
        total = sum(c[1] for c in cells.values())
        detail = ", ".join(f"{t} {c[0]}/{c[1]}" for t, c in sorted(cells.items()))
        print(f"{engine}: {kind}: {good}/{total} ({detail})")
    for line in short:
        print("  short:", line)
    return 1 if short else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "openings":
        make_openings(argv[2], argv[3])
        return 0
    if len(argv) == 5 and argv[1] == "score":
        return score(argv[2], argv[3], argv[4])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
