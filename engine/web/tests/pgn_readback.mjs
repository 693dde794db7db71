// Reads annotated PGN files (from `rokade review`) with two readers that are
// not Rokade's: @mliebelt/pgn-parser for the structure (tags, NAGs, comments,
// [%eval] and [%clk] commands, variations) and chess.js for the rules (every
// move of the main line and of every variation legal in its position, and
// chess.js's own PGN loader accepting each game whole).
//
//   node engine/web/tests/pgn_readback.mjs FILE... [--expect-nags N]
//
// Fails (exit 1) with the game and move when a game cannot be read, a move
// is illegal, a main-line move that does not end the game has no [%eval], a
// NAG is not one of $2 $4 $6, or the file has fewer NAGs than --expect-nags.
import fs from 'fs';
import { parse } from '@mliebelt/pgn-parser';
import { Chess } from 'chess.js';

const files = [];
let expectNags = 0;
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--expect-nags') expectNags = Number(process.argv[++i]);
  else files.push(process.argv[i]);
}
if (!files.length) {
  console.error('usage: pgn_readback.mjs FILE... [--expect-nags N]');
  process.exit(2);
}

let failures = 0;
const fail = (where, what) => {
  failures++;
  console.error(`pgn_readback: ${where}: ${what}`);
};

// Plays `moves` (pgn-parser's move objects) on a board from `fen`, and their
// variations from the position before each move; returns the NAG count.
function play(fen, moves, where, mainLine) {
  const board = new Chess(fen);
  let nags = 0;
  for (const [i, m] of moves.entries()) {
    const before = board.fen();
    const san = m.notation.notation;
    for (const v of m.variations || []) nags += play(before, v, `${where}, variation at ${san}`, false);
    try {
      board.move(san);
    } catch (e) {
      fail(where, `move ${i + 1} '${san}' is illegal in ${before}`);
      return nags;
    }
    for (const n of m.nag || []) {
      if (!['$2', '$4', '$6'].includes(n)) fail(where, `'${san}': unexpected NAG ${n}`);
      nags++;
    }
    if (mainLine && !board.isCheckmate() && !board.isStalemate()) {
      const diag = m.commentDiag || {};
      if (diag.eval === undefined) fail(where, `'${san}' (move ${i + 1}) has no [%eval]`);
    }
  }
  return nags;
}

for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  let games;
  try {
    games = parse(text, { startRule: 'games' });
  } catch (e) {
    fail(file, `pgn-parser cannot read it: ${e.message}`);
    continue;
  }
  // chess.js reads one game at a time: the file split before each tag section.
  const chunks = text.split(/\n(?=\[Event )/);
  if (chunks.length !== games.length) fail(file, `${chunks.length} tag sections, ${games.length} games`);
  let nags = 0, moves = 0;
  games.forEach((g, k) => {
    const where = `${file}, game ${k + 1}`;
    const tags = g.tags || {};
    if (tags.Annotator === undefined) fail(where, 'no Annotator tag');
    const fen = tags.FEN || new Chess().fen();
    nags += play(fen, g.moves, where, true);
    moves += g.moves.length;
    const cj = new Chess();
    try {
      cj.loadPgn(chunks[k] || '', { strict: false });
      if (cj.history().length !== g.moves.length)
        fail(where, `chess.js reads ${cj.history().length} moves, pgn-parser ${g.moves.length}`);
    } catch (e) {
      fail(where, `chess.js cannot load it: ${e.message}`);
    }
  });
  if (nags < expectNags) fail(file, `${nags} NAGs, expected at least ${expectNags}`);
  console.log(`pgn_readback: ${file}: ${games.length} games, ${moves} moves, ${nags} NAGs read back`);
}
process.exit(failures ? 1 : 0);
