/* Chess960 start positions (FIDE Laws, Guideline II): the position with
 * number n (0..959) of the standard numbering, where 518 is the usual one. */
const KNIGHTS = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]]

export function chess960Fen(n) {
    const rank = Array(8).fill(null)
    const free = () => rank.map((p, i) => (p ? -1 : i)).filter((i) => i >= 0)
    rank[2 * (n % 4) + 1] = 'b' // light-squared bishop
    n = Math.floor(n / 4)
    rank[2 * (n % 4)] = 'b' // dark-squared bishop
    n = Math.floor(n / 4)
    rank[free()[n % 6]] = 'q'
    n = Math.floor(n / 6)
    const [a, b] = KNIGHTS[n]
    const f = free()
    rank[f[a]] = rank[f[b]] = 'n'
    const [r1, k, r2] = free()
    rank[r1] = rank[r2] = 'r'
    rank[k] = 'k'
    const black = rank.join('')
    return `${black}/pppppppp/8/8/8/8/PPPPPPPP/${black.toUpperCase()} w KQkq - 0 1`
}

export const randomChess960 = () => Math.floor(Math.random() * 960)
