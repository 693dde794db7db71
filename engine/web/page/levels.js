/* The play levels as the page shows them: Skill Level or UCI_Elo, with
 * the strength in words. The scale, the ranges and the strength of a setting
 * are the engine's own (search/level.c through the rules module, LEVELS in
 * game.js), read here the other way for a Skill Level (strength -> Elo). */
import {LEVELS} from './game.js'

/* What full strength was measured at (README.md, "Strength"): 48.8% in
 * 200 games against Stockfish 15.1 at UCI_Elo 2800, 8+0.08, with the net
 * built in now (k8u; ft12h 49.5%, gen3ft-a 50.25%). The scale's points
 * stop below it: every UCI_Elo from the last point up plays at full
 * strength. */
const FULL_STRENGTH = "full strength: about 2800 on Stockfish's UCI_Elo scale " +
    '(it scores about 50% against Stockfish 15.1 set to UCI_Elo 2800)'

/* The slider's [min, max] for a mode ('skill' or 'elo'). */
export function levelRange(mode) {
    return mode === 'elo' ? [LEVELS.eloMin, LEVELS.eloMax] : [0, LEVELS.full]
}

/* About what Elo a Skill Level plays at: the UCI_Elo whose strength it is.
 * Below the scale's first point (not calibrated) the first step's slope is
 * extended, and the page says only "below" that point. */
export function skillElo(skill) {
    const points = LEVELS.points
    const [[e0, s0], [e1, s1]] = points
    if (skill <= s0) return Math.round(e0 - ((s0 - skill) * (e1 - e0)) / (s1 - s0))
    for (let i = 1; i < points.length; i++) {
        const [ea, sa] = points[i - 1]
        const [eb, sb] = points[i]
        if (skill <= sb) return Math.round(ea + ((skill - sa) / (sb - sa)) * (eb - ea))
    }
    return points[points.length - 1][0]
}

export function strengthWords(elo) {
    if (elo < 900) return 'a beginner'
    if (elo < 1300) return 'a casual player'
    if (elo < 1600) return 'a club player'
    if (elo < 1900) return 'a strong club player'
    if (elo < 2200) return 'an expert'
    return 'a master'
}

/* The level's Elo, its description, and the engine's strength for it
 * (0..LEVELS.full; for the robot's pause and thinking time). */
export function describeLevel(mode, value) {
    const elo = mode === 'elo' ? value : skillElo(value)
    const strength = mode === 'elo' ? LEVELS.strength(0, true, value) : LEVELS.strength(value, false, 0)
    const lowest = LEVELS.points[0][0]
    const text = strength >= LEVELS.full ? FULL_STRENGTH
        : elo < lowest ? `below ${lowest} Elo: plays like ${strengthWords(elo)}`
        : `about ${elo} Elo: plays like ${strengthWords(elo)}`
    return {elo, text, strength}
}
