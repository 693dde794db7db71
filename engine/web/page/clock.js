/* The two players' clocks (Fischer increment): the side to move's clock
 * runs; switch() adds the increment to the side that moved. */
export const TIME_CONTROLS = {
    none: null,
    '3+2': [180, 2],
    '5+0': [300, 0],
    '10+5': [600, 5],
    '15+10': [900, 10],
}

/* A testing hook: index.html?clock=BASE+INC (seconds, fractions allowed,
 * e.g. ?clock=2+1) adds that control to the menu as 'custom', so that a
 * test can see a flag fall within seconds. Returns its label, or null
 * without the parameter. (URLSearchParams reads a '+' as a space.) */
export function customControl(search) {
    const spec = new URLSearchParams(search).get('clock') || ''
    const m = /^(\d+(?:\.\d+)?)[+ ](\d+(?:\.\d+)?)$/.exec(spec.trim())
    if (!m || !(Number(m[1]) > 0)) return null
    TIME_CONTROLS.custom = [Number(m[1]), Number(m[2])]
    return `${m[1]}+${m[2]} s`
}

export class Clock {
    constructor(control, onTick, onFlag) {
        const [base, inc] = TIME_CONTROLS[control]
        this.control = control
        this.ms = {w: base * 1000, b: base * 1000}
        this.inc = inc * 1000
        this.running = null // the colour whose clock runs
        this.onTick = onTick
        this.onFlag = onFlag
        this.timer = null
    }

    start(color) {
        this.stop()
        this.running = color
        this.since = performance.now()
        this.timer = setInterval(() => this.tick(), 100)
    }

    tick() {
        const now = performance.now()
        this.ms[this.running] -= now - this.since
        this.since = now
        if (this.ms[this.running] <= 0) {
            this.ms[this.running] = 0
            const flagged = this.running
            this.stop()
            this.onFlag(flagged)
        }
        this.onTick()
    }

    /* The side that moved gets its increment; the other's clock starts. */
    switch(moved) {
        if (this.running) this.tick()
        if (!this.timer && this.ms[moved] <= 0) return
        this.ms[moved] += this.inc
        this.start(moved === 'w' ? 'b' : 'w')
    }

    /* Back to earlier times ({w, b} in ms, e.g. at a take-back), with the
     * `running` colour's clock running (none when null). */
    restore(ms, running) {
        this.stop()
        this.ms = {...ms}
        if (running) this.start(running)
    }

    stop() {
        if (this.timer) clearInterval(this.timer)
        if (this.running && this.timer) this.ms[this.running] -= performance.now() - this.since
        this.timer = null
        this.running = null
    }

    static format(ms) {
        const s = Math.max(0, Math.ceil(ms / 1000))
        const m = Math.floor(s / 60)
        return `${m}:${String(s % 60).padStart(2, '0')}`
    }

    /* The go arguments for the engine. */
    goArgs() {
        const r = (x) => Math.max(0, Math.round(x))
        return `wtime ${r(this.ms.w)} btime ${r(this.ms.b)} winc ${this.inc} binc ${this.inc}`
    }
}
