/* The page's settings, remembered in localStorage. */
const KEY = 'rokade.settings'

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
