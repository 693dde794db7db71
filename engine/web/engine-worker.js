/* The engine's Web Worker. It loads the threads build when the page is
 * cross-origin isolated (SharedArrayBuffer is there), the single-threaded
 * build otherwise, and speaks UCI through messages: the page posts one
 * command line, the worker posts back {line} for every line the engine
 * prints (engine_web.c), after a first {ready, threads}. */
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

self.onmessage = (e) => (engine ? run(e.data) : waiting.push(e.data))

// The pthreads load the script again: inside a worker, emscripten cannot
// tell its address by itself.
RokadeEngine({onLine: (line) => self.postMessage({line}), mainScriptUrlOrBlob: script}).then((m) => {
    engine = m
    engine.ccall('web_init', null, [], [])
    self.postMessage({ready: true, threads})
    waiting.splice(0).forEach(run)
})
