/* The page's settings and the game in progress, remembered in localStorage. */
const KEY = 'rokade.settings'
const GAME_KEY = 'rokade.game'

export const DEFAULTS = {
    opponent: 'robot', color: 'w', levelMode: 'skill', skill: 5, elo: 1500, time: 'none',
    chess960: false, lang: 'en', sound: true, evalBar: false,
}

export function loadSettings() {
    try {
        const saved = JSON.parse(localStorage.getItem(KEY) || '{}')
        const s = {...DEFAULTS}
        for (const k of Object.keys(DEFAULTS))
            if (typeof saved[k] === typeof DEFAULTS[k]) s[k] = saved[k]
        return s
    } catch {
        return {...DEFAULTS}
    }
}

export function saveSettings(s) {
    try {
        localStorage.setItem(KEY, JSON.stringify(s))
    } catch {
        /* storage full or disabled: the settings last for this visit */
    }
}

/* The game in progress as app.js saves it (null when there is none, or it
 * cannot be read). */
export function loadGame() {
    try {
        const g = JSON.parse(localStorage.getItem(GAME_KEY) || 'null')
        return g && typeof g.startFen === 'string' && Array.isArray(g.moves) ? g : null
    } catch {
        return null
    }
}

/* Saves the game in progress, or forgets it when `game` is null. */
export function saveGame(game) {
    try {
        if (game) localStorage.setItem(GAME_KEY, JSON.stringify(game))
        else localStorage.removeItem(GAME_KEY)
    } catch {
        /* storage full or disabled: the game is not kept */
    }
}
