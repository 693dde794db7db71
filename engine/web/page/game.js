/* One game by Rokade's rules (rules.c, compiled to rules.js): the start
 * position, the moves in UCI and SAN, the legal moves and the FIDE state.
 * The rules module holds one position; take-backs and line conversions
 * replay the game from its start. */
import createRules from './rules.js'

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'

let R = null

/* The play levels as the engine has them (search/level.h, through the
 * rules module), filled by loadRules: Skill Level runs 0..full, UCI_Elo
 * eloMin..eloMax, `points` is the UCI_Elo scale ([elo, strength], by
 * rising Elo), and strength(skill, limitStrength, elo) the strength the
 * engine plays at with those options. */
export const LEVELS = {}

export async function loadRules() {
    const m = await createRules()
    const str = (name, args) => m.ccall(name, 'string', args.map(() => 'string'), args)
    R = {
        init: () => m.ccall('rules_init', null, [], []),
        newGame: (fen, c960) => m.ccall('rules_new_game', 'number', ['string', 'number'], [fen, c960 ? 1 : 0]),
        error: () => str('rules_error', []),
        legal: () => str('rules_legal', []),
        play: (uci) => str('rules_play', [uci]),
        fen: () => str('rules_fen', []),
        state: () => str('rules_state', []),
        inCheck: () => m.ccall('rules_in_check', 'number', [], []) !== 0,
        side: () => m.ccall('rules_side', 'number', [], []),
        canMate: (c) => m.ccall('rules_can_mate', 'number', ['number'], [c]) !== 0,
    }
    R.init()
    const num = (name, ...args) => m.ccall(name, 'number', args.map(() => 'number'), args)
    const points = []
    for (let i = 0; i < num('rules_elo_points'); i++)
        points.push([num('rules_elo_point', i), num('rules_elo_point_strength', i)])
    Object.assign(LEVELS, {
        full: num('rules_level_full'),
        eloMin: num('rules_elo_min'),
        eloMax: num('rules_elo_max'),
        points,
        strength: (skill, limit, elo) => num('rules_level_strength', skill, limit ? 1 : 0, elo),
    })
}

/* The rules module's legal moves: {uci, san, from, to, promotion}. */
function legalMoves() {
    return R.legal().split('\n').filter(Boolean).map((l) => {
        const [uci, san] = l.split(' ')
        return {uci, san, from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci[4]}
    })
}

export class Game {
    /* Throws an Error with the reason when the FEN is refused. */
    constructor(fen = START_FEN, chess960 = false) {
        if (!R.newGame(fen, chess960)) throw new Error(R.error())
        this.startFen = R.fen()
        this.chess960 = chess960
        this.moves = [] // {uci, san}
        this.refresh()
    }

    refresh() {
        this.fen = R.fen()
        this.turn = R.side() === 0 ? 'w' : 'b'
        this.state = R.state() // rules.c's name of the GameState
        this.check = R.inCheck()
        this.legal = legalMoves()
    }

    /* The FEN and the legal moves before ply `ply` of the game (a reviewed
     * move's position); the game is left as it was. */
    at(ply) {
        R.newGame(this.startFen, this.chess960)
        for (const m of this.moves.slice(0, ply)) R.play(m.uci)
        const seen = {fen: R.fen(), legal: legalMoves()}
        R.newGame(this.startFen, this.chess960)
        for (const m of this.moves) R.play(m.uci)
        return seen
    }

    /* Plays a legal move (UCI); returns its SAN, or null when it is not legal. */
    play(uci) {
        const san = R.play(uci)
        if (!san) return null
        this.moves.push({uci, san})
        this.refresh()
        return san
    }

    replay(count) {
        const moves = this.moves.slice(0, count)
        R.newGame(this.startFen, this.chess960)
        this.moves = []
        for (const m of moves) this.play(m.uci)
        this.refresh()
    }

    undo(plies) {
        this.replay(Math.max(0, this.moves.length - plies))
    }

    /* Whether `color` ('w' or 'b') could still mate (FIDE 6.9). */
    canMate(color) {
        return R.canMate(color === 'w' ? 0 : 1)
    }

    /* SAN of a line of UCI moves from the current position (stops at the
     * first one that is not legal); the game is left as it was. */
    sanLine(ucis) {
        const out = []
        for (const u of ucis) {
            const san = R.play(u)
            if (!san) break
            out.push(san)
        }
        this.replay(this.moves.length)
        return out
    }

    /* The `position` command's argument for the engine. */
    uciPosition() {
        const moves = this.moves.map((m) => m.uci).join(' ')
        return `fen ${this.startFen}${moves ? ' moves ' + moves : ''}`
    }
}
