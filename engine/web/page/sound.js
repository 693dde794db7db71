/* The game's sounds, synthesised with WebAudio (no sound files): a move, a
 * capture, a check and the end of the game. */
let ctx = null

function audio() {
    if (!ctx) ctx = new AudioContext()
    if (ctx.state === 'suspended') ctx.resume()
    return ctx
}

/* A short knock: filtered noise with a fast decay. */
function knock(at, gain, freq) {
    const a = audio()
    const len = Math.floor(a.sampleRate * 0.08)
    const buf = a.createBuffer(1, len, a.sampleRate)
    const data = buf.getChannelData(0)
    for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 6)
    const src = a.createBufferSource()
    src.buffer = buf
    const filter = a.createBiquadFilter()
    filter.type = 'bandpass'
    filter.frequency.value = freq
    filter.Q.value = 1.5
    const g = a.createGain()
    g.gain.value = gain
    src.connect(filter).connect(g).connect(a.destination)
    src.start(a.currentTime + at)
}

function tone(at, freq, length) {
    const a = audio()
    const osc = a.createOscillator()
    const g = a.createGain()
    osc.type = 'sine'
    osc.frequency.value = freq
    const t = a.currentTime + at
    g.gain.setValueAtTime(0.0001, t)
    g.gain.exponentialRampToValueAtTime(0.2, t + 0.02)
    g.gain.exponentialRampToValueAtTime(0.0001, t + length)
    osc.connect(g).connect(a.destination)
    osc.start(t)
    osc.stop(t + length + 0.05)
}

export const sounds = {
    enabled: true,
    play(kind) {
        if (!this.enabled || typeof AudioContext === 'undefined') return
        if (kind === 'move') knock(0, 1.2, 900)
        else if (kind === 'capture') knock(0, 1.6, 600), knock(0.05, 1.0, 1200)
        else if (kind === 'check') tone(0, 880, 0.15), tone(0.12, 660, 0.2)
        else if (kind === 'end') [523, 659, 784].forEach((f, i) => tone(i * 0.12, f, 0.5))
    },
}
