/* The annotated PGN of Rokade's review (engine/review.h) read back for the
 * page: per main-line move its NAG, its [%eval], its comment and the first
 * move of its variation (the engine's better move), and the game's first
 * comment (each player's accuracy and counts). */
export const NAG_SYMBOL = {$6: '?!', $2: '?', $4: '??'}
export const NAG_NAME = {$6: 'inaccuracy', $2: 'mistake', $4: 'blunder'}

const command = /\[%(\w+)\s+([^\]]*)\]/g

export function parseReview(pgn) {
    const body = pgn.split('\n').filter((l) => !/^\[\w+ "/.test(l)).join('\n')
    const tokens = body.match(/\{[^}]*\}|[()]|\$\d+|[^\s{}()]+/g) || []
    const moves = []
    let summary = null, current = null, depth = 0, firstOfVariation = false
    for (const tok of tokens) {
        if (tok[0] === '{') {
            if (depth) continue
            const raw = tok.slice(1, -1).replace(/\s+/g, ' ').trim()
            const text = raw.replace(command, '').replace(/\s+/g, ' ').trim()
            const evalMatch = /\[%eval\s+([^\]]+)\]/.exec(raw)
            if (!current && summary === null) summary = text
            else if (current) Object.assign(current, {comment: text, eval: evalMatch ? evalMatch[1] : null})
        } else if (tok === '(') {
            depth++
            firstOfVariation = depth === 1
        } else if (tok === ')') depth = Math.max(0, depth - 1)
        else if (/^\$\d+$/.test(tok)) {
            if (!depth && current) current.nag = tok
        } else if (/^\d+\.+$/.test(tok) || ['1-0', '0-1', '1/2-1/2', '*'].includes(tok)) continue
        else if (!depth) {
            current = {san: tok, nag: null, eval: null, comment: '', best: null}
            moves.push(current)
        } else if (firstOfVariation && current) {
            current.best = tok
            firstOfVariation = false
        }
    }
    // The players' lines of the summary ("White (...): accuracy ...").
    const players = summary ? summary.match(/(White|Black)[^:]*: accuracy [^.]*\.\d*%?[^.]*\./g) || [] : []
    return {moves, summary, players}
}
