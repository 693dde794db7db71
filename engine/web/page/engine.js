/* The page's side of the engine worker (engine-worker.js): sends UCI lines,
 * follows the `info` lines of the current search (score, best line) and
 * resolves a search's promise with its bestmove. */
export class Engine {
    constructor() {
        this.worker = new Worker('engine-worker.js')
        this.threads = false
        this.onInfo = null // ({score, mate, pv}, side, position): the side to move's view
        this.listeners = new Set()
        this.searches = [] // {resolve, side, position, score} of each go sent, oldest first
        this.reviews = [] // {resolve, reject} of each review sent, oldest first
        this.ready = new Promise((resolve) => {
            this.worker.onmessage = (e) => {
                if (e.data.ready) {
                    this.threads = e.data.threads
                    resolve()
                } else if ('reviewed' in e.data) {
                    const r = this.reviews.shift()
                    if (r) e.data.reviewed === null ? r.reject(new Error(e.data.error)) : r.resolve(e.data.reviewed)
                } else this.receive(e.data.line)
            }
        })
    }

    send(line) {
        this.worker.postMessage(line)
    }

    /* Resolves with the next line for which test(line) is true. */
    waitFor(test) {
        return new Promise((resolve) => {
            const listener = (line) => {
                if (test(line)) {
                    this.listeners.delete(listener)
                    resolve(line)
                }
            }
            this.listeners.add(listener)
        })
    }

    async init(threadCount) {
        await this.ready
        this.send('uci')
        if (this.threads) this.send(`setoption name Threads value ${threadCount}`)
        this.send('isready')
        await this.waitFor((l) => l === 'readyok')
    }

    setOption(name, value) {
        this.send(`setoption name ${name} value ${value}`)
    }

    /* Searches `position` (side to move `side`) with the go arguments;
     * resolves with the move ('(none)' when there is none) and the last
     * score seen. Every go gets exactly one bestmove, so the answers are
     * matched to the searches in order. */
    go(position, side, args) {
        this.send(`position ${position}`)
        this.send(`go ${args}`)
        return new Promise((resolve) => this.searches.push({resolve, side, position, score: null}))
    }

    stop() {
        this.send('stop')
    }

    /* Reviews a game (PGN text) at `nodes` a position (engine/review.h):
     * resolves with the annotated PGN, rejects with the engine's error.
     * onProgress(done, total) follows the positions searched. */
    review(pgn, nodes, onProgress) {
        const progress = (line) => {
            const m = /^info string review: game \d+, .* \((\d+)\/(\d+) positions/.exec(line)
            if (m && onProgress) onProgress(Number(m[1]), Number(m[2]))
        }
        this.listeners.add(progress)
        this.worker.postMessage({review: pgn, nodes})
        return new Promise((resolve, reject) => this.reviews.push({resolve, reject}))
            .finally(() => this.listeners.delete(progress))
    }

    receive(line) {
        for (const l of [...this.listeners]) l(line)
        const words = line.split(' ')
        if (words[0] === 'info') this.parseInfo(words)
        else if (words[0] === 'bestmove' && this.searches.length) {
            const s = this.searches.shift()
            s.resolve({move: words[1], score: s.score})
        }
    }

    parseInfo(words) {
        const at = words.indexOf('score')
        const multipv = words.indexOf('multipv')
        const search = this.searches[0]
        if (!search || at < 0 || (multipv >= 0 && words[multipv + 1] !== '1')) return
        const kind = words[at + 1]
        const value = Number(words[at + 2])
        const pv = words.indexOf('pv')
        const info = {
            score: kind === 'cp' ? value : null,
            mate: kind === 'mate' ? value : null,
            pv: pv >= 0 ? words.slice(pv + 1) : [],
        }
        search.score = info
        if (this.onInfo) this.onInfo(info, search.side, search.position)
    }
}
