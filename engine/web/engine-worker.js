/* The engine's Web Worker. It loads the threads build when the page is
 * cross-origin isolated (SharedArrayBuffer is there), the single-threaded
 * build otherwise, and speaks UCI through messages: the page posts one
 * command line, the worker posts back {line} for every line the engine
 * prints (engine_web.c), after a first {ready, threads}. A review is a
 * message {review: PGN text, nodes}: the worker writes the PGN to the
 * engine's file system, runs `review` on it (its progress comes as info
 * string lines) and posts back {reviewed: annotated PGN} or {reviewed:
 * null, error}. */
'use strict'

const threads = self.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function'
const script = new URL(threads ? 'rokade-mt.js' : 'rokade-st.js', self.location.href).href
importScripts(script)

const MAX_LINE = 20000 // longer input is no UCI command the page sends
let engine = null
const waiting = []

function run(text) {
    for (const line of String(text).split(/[\r\n]+/)) {
        if (line.trim() && line.length <= MAX_LINE)
            engine.ccall('web_command', 'number', ['string'], [line])
    }
}

function review({review: pgn, nodes}) {
    const errors = []
    const listen = (line) => line.startsWith('info string error: review:') && errors.push(line)
    listening = listen
    try {
        engine.FS.writeFile('/review-in.pgn', pgn)
        engine.ccall('web_command', 'number', ['string'],
            [`review /review-in.pgn nodes ${Math.max(1, Math.floor(Number(nodes) || 0))} out /review-out.pgn`])
        if (errors.length) self.postMessage({reviewed: null, error: errors.join('\n')})
        else self.postMessage({reviewed: engine.FS.readFile('/review-out.pgn', {encoding: 'utf8'})})
    } catch (err) {
        self.postMessage({reviewed: null, error: String(err)})
    } finally {
        listening = null
    }
}

function handle(data) {
    if (data && typeof data === 'object' && 'review' in data) review(data)
    else run(data)
}

let listening = null // the running review's watch on the lines
self.onmessage = (e) => (engine ? handle(e.data) : waiting.push(e.data))

// The pthreads load the script again: inside a worker, emscripten cannot
// tell its address by itself.
const onLine = (line) => {
    if (listening) listening(line)
    self.postMessage({line})
}

RokadeEngine({onLine, mainScriptUrlOrBlob: script}).then((m) => {
    engine = m
    engine.ccall('web_init', null, [], [])
    self.postMessage({ready: true, threads})
    waiting.splice(0).forEach(handle)
})
