/* The game as PGN (the Seven Tag Roster, then SetUp/FEN/Variant for a game
 * that starts elsewhere, TimeControl and Termination), moves in English SAN. */
import {START_FEN} from './game.js'

export function gamePgn(game, info) {
    const d = new Date()
    const date = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`
    const tags = [
        ['Event', info.event], ['Site', 'Rokade in the browser'], ['Date', date], ['Round', '-'],
        ['White', info.white], ['Black', info.black], ['Result', info.result],
    ]
    if (game.chess960) tags.push(['Variant', 'Chess960'])
    if (game.startFen !== START_FEN) tags.push(['SetUp', '1'], ['FEN', game.startFen])
    tags.push(['TimeControl', info.timeControl])
    if (info.termination) tags.push(['Termination', info.termination])
    const head = tags.map(([k, v]) => `[${k} "${String(v).replace(/[\\"]/g, '\\$&')}"]`).join('\n')
    const [, side, , , , number] = game.startFen.split(' ')
    let n = Number(number) || 1
    let black = side === 'b'
    const words = []
    game.moves.forEach((m, i) => {
        if (!black) words.push(`${n}.`)
        else if (i === 0) words.push(`${n}...`)
        words.push(m.san)
        if (black) n++
        black = !black
    })
    words.push(info.result)
    const lines = []
    let line = ''
    for (const w of words) {
        if (line && line.length + 1 + w.length > 79) lines.push(line), (line = '')
        line += (line ? ' ' : '') + w
    }
    lines.push(line)
    return `${head}\n\n${lines.join('\n')}\n`
}
