/* The play levels as the page shows them: Skill Level 0..20 or UCI_Elo, with
 * the calibrated strength in words. The table is search/level.c's, read the
 * other way (strength -> Elo). */
const ELO_TABLE = [[1000, 3.0], [1200, 4.7], [1400, 7.2], [1500, 8.6], [1600, 9.9],
    [1700, 10.6], [1800, 11.6], [1900, 13.3], [2000, 16.6], [2400, 20.0]]

export const ELO_MIN = 1000
export const ELO_MAX = 2800

/* About what Elo a Skill Level plays at (below strength 3, 1000 Elo, the
 * scale is not calibrated: it is extended with the slope of its first step,
 * and the page says only "below 1000"). */
export function skillElo(skill) {
    const [e0, s0] = ELO_TABLE[0]
    if (skill <= s0) return Math.round(e0 - (s0 - skill) * (200 / 1.7))
    for (let i = 1; i < ELO_TABLE.length; i++) {
        const [e1, s1] = ELO_TABLE[i]
        const [ea, sa] = ELO_TABLE[i - 1]
        if (skill <= s1) return Math.round(ea + ((skill - sa) / (s1 - sa)) * (e1 - ea))
    }
    return 2400
}

export function strengthWords(elo) {
    if (elo < 900) return 'a beginner'
    if (elo < 1300) return 'a casual player'
    if (elo < 1600) return 'a club player'
    if (elo < 1900) return 'a strong club player'
    if (elo < 2200) return 'an expert'
    return 'a master'
}

/* The level's Elo, its description, and its strength 0..20 (for the delay). */
export function describeLevel(mode, value) {
    const elo = mode === 'elo' ? value : skillElo(value)
    const full = mode === 'skill' ? value >= 20 : value >= 2400
    const what = full ? 'full strength, about 2400 Elo or more'
        : elo < ELO_MIN ? `below ${ELO_MIN} Elo: plays like ${strengthWords(elo)}`
        : `about ${elo} Elo: plays like ${strengthWords(elo)}`
    return {elo, text: what, strength: mode === 'skill' ? value : Math.min(20, (elo - 700) / 85)}
}
