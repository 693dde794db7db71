// The page in headless Chromium (Debian's, driven by puppeteer-core), served
// by serve.py as `make serve` does, and the wasm engine's bench against the
// native one. Run by `make web-test`: ROKADE is the native binary, WEB_OUT
// the built page.
import {test, before, after, afterEach} from 'node:test'
import assert from 'node:assert/strict'
import {spawn, execFileSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import {fileURLToPath} from 'node:url'
import puppeteer from 'puppeteer-core'

const OUT = path.resolve(process.env.WEB_OUT || '../../build/web')
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..')
const ROKADE = path.resolve(process.env.ROKADE || '../../rokade')
const servers = []
let browser, page, base
const problems = [] // console errors and uncaught exceptions

function serve(plain) {
    const args = ['serve.py', OUT, '0', ...(plain ? ['--plain'] : [])]
    const p = spawn('python3', args, {stdio: ['ignore', 'pipe', 'inherit']})
    servers.push(p)
    return new Promise((resolve, reject) => {
        p.stdout.on('data', (d) => {
            const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(String(d))
            if (m) resolve(m[0])
        })
        p.on('exit', () => reject(new Error('serve.py ended')))
    })
}

async function open(p, url, query = '') {
    p.on('console', (m) => m.type() === 'error' && problems.push(`${url}: ${m.text()}`))
    p.on('pageerror', (e) => problems.push(`${url}: ${e && e.message}`))
    await p.goto(`${url}index.html${query}`)
    await p.waitForSelector('body[data-ready=yes]', {timeout: 60000})
}

const plies = (p = page) => p.$eval('#moves', (e) => Number(e.dataset.plies))
const status = (p = page) => p.$eval('#status', (e) => e.textContent)
const moveTexts = (p = page) => p.$$eval('#moves li span', (s) => s.map((x) => x.textContent).filter((t) => t !== '…'))
const pgnText = (p = page) => p.$eval('#pgn', (e) => e.value)
const pgnMoves = async (p = page) => (await pgnText(p)).split('\n\n')[1].split(/\s+/)
    .filter((w) => w && !/^\d+\.(\.\.)?$/.test(w) && !['1-0', '0-1', '1/2-1/2', '*'].includes(w))
const waitPlies = (n, p = page, timeout = 30000) =>
    p.waitForFunction((k) => document.querySelector('#moves').dataset.plies === String(k), {timeout}, n)
// The clocks' times in ms by colour ({w, b}) and the colour whose clock runs.
const clockMs = (p) => p.evaluate(() => Object.fromEntries([...document.querySelectorAll('.clock')]
    .map((e) => [e.dataset.color, Number(e.dataset.ms)])))
const clockRunning = (p) => p.evaluate(() => document.querySelector('.clock.running')?.dataset.color ?? null)
// The board's pieces as {square: piece}, as cm-chessboard draws them.
const boardPieces = (p = page) => p.$$eval('#board g.pieces > g[data-square]',
    (gs) => Object.fromEntries(gs.map((g) => [g.dataset.square, g.dataset.piece])))
const START_FEN_TEST = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function newGame({opponent = 'friend', fen = '', chess960 = false, color, time = 'none', p = page} = {}) {
    await p.select('#opponent', opponent)
    if (color) await p.select('#color', color)
    await p.select('#time', time)
    const box = await p.$('#chess960')
    if ((await box.evaluate((b) => b.checked)) !== chess960) await box.click()
    await p.$eval('#fen', (e, v) => (e.value = v), fen)
    await p.click('#newgame')
    await p.waitForFunction(() => document.querySelector('#moves').dataset.plies === '0')
}

async function typeOn(p, ...moves) {
    for (const m of moves) {
        const before = await plies(p)
        await p.$eval('#move-input', (e, v) => (e.value = v), m)
        await p.click('#move-form button')
        await p.waitForFunction((n) => Number(document.querySelector('#moves').dataset.plies) > n, {}, before)
    }
}
const type = (...moves) => typeOn(page, ...moves)

// Moves the level slider (in the mode shown) to `value`.
async function setLevel(value, p = page) {
    await p.$eval('#level', (e, v) => {
        e.value = String(v)
        e.dispatchEvent(new Event('input', {bubbles: true}))
    }, value)
}

async function skillZero(p = page) {
    await p.select('#level-mode', 'skill')
    await setLevel(0, p)
}

async function setEvalBar(on, p = page) {
    if ((await p.$eval('#evalbar-on', (b) => b.checked)) !== on) await p.click('#evalbar-on')
}

// Answers the page's confirmation (resign, draw) with yes or no.
async function confirm(yes, p = page) {
    await p.waitForSelector('#confirm:not([hidden])', {timeout: 2000})
    await p.click(yes ? '#confirm-yes' : '#confirm-no')
}

// search/level.c's UCI_Elo table as [[elo, strength], ...], read from the C.
function engineEloTable() {
    const src = readFileSync(path.join(REPO, 'search/level.c'), 'utf8')
    const body = /EloTable\[\]\s*=\s*\{([^;]*)\};/.exec(src)[1]
    return [...body.matchAll(/\{\s*(\d+)\s*,\s*([\d.]+)\s*\}/g)].map((m) => [Number(m[1]), Number(m[2])])
}

// The native engine's spin option `name` as [min, max] (strings).
function uciRange(name) {
    const out = execFileSync(ROKADE, [], {input: 'uci\nquit\n', encoding: 'utf8'})
    const m = new RegExp(`option name ${name} type spin default -?\\d+ min (-?\\d+) max (-?\\d+)`).exec(out)
    return [m[1], m[2]]
}

// Whether the SAN moves `line` are legal one after the other after the
// SAN moves `played` from `fen`, by a rules module of the page's own.
const legalLine = (p, fen, played, line) => p.evaluate(async (fen, played, line) => {
    const {default: createRules} = await import('./rules.js')
    const m = await createRules()
    m.ccall('rules_init', null, [], [])
    m.ccall('rules_new_game', 'number', ['string', 'number'], [fen, 0])
    for (const san of [...played, ...line]) {
        const legal = m.ccall('rules_legal', 'string', [], []).split('\n').map((l) => l.split(' '))
        const found = legal.find(([, s]) => s === san)
        if (!found) return false
        m.ccall('rules_play', 'string', ['string'], [found[0]])
    }
    return true
}, fen, played, line)

// Whether the text of `sel` is drawn whole: not cut by its own box or by
// any ancestor that clips.
const shownWhole = (sel, p = page) => p.$eval(sel, (el) => {
    const r = document.createRange()
    r.selectNodeContents(el)
    const t = r.getBoundingClientRect()
    if (!(t.width > 0) || el.closest('[hidden]')) return false
    for (let a = el; a; a = a.parentElement) {
        if (a !== el && getComputedStyle(a).overflow === 'visible') continue
        const b = a.getBoundingClientRect()
        if (t.left < b.left - 0.5 || t.right > b.right + 0.5 || t.top < b.top - 0.5 || t.bottom > b.bottom + 0.5)
            return false
    }
    return true
})

async function clickSquare(sq) {
    // A click while the board is still drawing a position can be lost.
    await page.waitForSelector('#board[data-settled=yes]')
    const r = await page.$eval(`#board rect[data-square="${sq}"]`, (e) => {
        const b = e.getBoundingClientRect()
        return {x: b.x + b.width / 2, y: b.y + b.height / 2}
    })
    await page.mouse.click(r.x, r.y)
}

before(async () => {
    base = await serve(false)
    browser = await puppeteer.launch({
        executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
        headless: true,
        args: ['--no-sandbox', '--autoplay-policy=no-user-gesture-required'],
    })
    page = await browser.newPage()
    await page.setViewport({width: 1100, height: 850})
    await page.evaluateOnNewDocument(() => localStorage.clear())
    await open(page, base)
})

after(async () => {
    if (browser) await browser.close()
    for (const s of servers) s.kill()
})

test('wasm bench equals the native bench', async () => {
    const native = /Nodes searched\s*:\s*(\d+)/.exec(execFileSync(ROKADE, ['bench'], {encoding: 'utf8'}))[1]
    const factory = createRequire(import.meta.url)(path.join(OUT, 'rokade-st.js'))
    const lines = []
    const m = await factory({onLine: (l) => lines.push(l), wasmBinary: readFileSync(path.join(OUT, 'rokade-st.wasm'))})
    m.ccall('web_init', null, [], [])
    m.ccall('web_command', 'number', ['string'], ['bench'])
    const wasm = /Nodes searched\s*:\s*(\d+)/.exec(lines.join('\n'))[1]
    assert.equal(wasm, native)
})

test('threads build when cross-origin isolated', async () => {
    assert.equal(await page.$eval('body', (b) => b.dataset.engine), 'threads')
})

test('a short game by clicks against the robot at a low level', async () => {
    await skillZero()
    await newGame({opponent: 'robot', color: 'w'})
    for (const [from, to, n] of [['e2', 'e4', 2], ['g1', 'f3', 4]]) {
        await clickSquare(from)
        await clickSquare(to)
        await page.waitForFunction((k) => Number(document.querySelector('#moves').dataset.plies) >= k,
            {timeout: 30000}, n)
    }
    const moves = await moveTexts()
    assert.equal(moves[0], 'e4')
    assert.equal(moves[2], 'Nf3')
    await page.screenshot({path: path.join(OUT, 'screenshot.png')})
})

test('switching the language changes the move list', async () => {
    await page.select('#lang', 'nl')
    assert.equal((await moveTexts())[2], 'Pf3')
    await page.select('#lang', 'en')
    assert.equal((await moveTexts())[2], 'Nf3')
})

test('a promotion through the dialog', async () => {
    await newGame({fen: '8/P6k/8/8/8/8/8/K7 w - - 0 1'})
    await clickSquare('a7')
    await clickSquare('a8')
    // A locator waits for the dialog's piece and retries if the dialog is
    // redrawn between finding and clicking it.
    await page.locator('#board [data-piece="wn"]').click()
    await page.waitForFunction(() => document.querySelector('#moves').dataset.plies === '1')
    assert.deepEqual(await moveTexts(), ['a8=N'])
})

test('checkmate, and the PGN equals the moves played', async () => {
    await newGame()
    await type('f3', 'e5', 'g4', 'Qh4')
    assert.match(await status(), /^Checkmate \(FIDE Laws 5\.1\.1\): Black wins, 0-1/)
    const pgn = await pgnText()
    assert.match(pgn, /\[Result "0-1"\]/)
    assert.match(pgn, /\[Date "\d{4}\.\d\d\.\d\d"\]/)
    assert.deepEqual(await pgnMoves(), ['f3', 'e5', 'g4', 'Qh4#'])
})

test('review after the game: marks, the better move on the board, the summary and the PGN', async () => {
    await newGame()
    assert.equal(await page.$eval('#review', (b) => b.hidden), true)
    await type('e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7')
    assert.match(await status(), /^Checkmate/)
    await page.click('#review')
    await page.waitForSelector('#moves[data-reviewed=yes]', {timeout: 180000})
    assert.match(await status(), /^Review done/)
    // 3... Nf6?? allows the mate: marked, and its better move shown.
    const marks = await page.$$eval('#moves span[data-ply]', (s) => s.map((x) => x.dataset.nag || ''))
    assert.equal(marks.length, 7)
    assert.equal(marks[5], '??')
    assert.equal(marks[6], '')
    await page.click('#moves span[data-ply="5"]')
    await page.waitForSelector('#board[data-settled=yes]')
    const pieces = await boardPieces()
    assert.equal(pieces.f6, undefined) // the position before Nf6
    assert.equal(pieces.g8, 'bn')
    const better = await page.$eval('#board', (b) => b.dataset.better)
    assert.match(better, /^[a-h][1-8][a-h][1-8]$/)
    assert.notEqual(better, 'g8f6')
    assert.ok(await legalLine(page, START_FEN_TEST, ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4'],
        [await page.evaluate((u) => {
            // the SAN of the better move from the review's text
            return document.querySelector('#review-move').textContent.match(/Better was \d+\.+ (\S+)\./)[1]
        }, better)]))
    assert.match(await page.$eval('#review-move', (e) => e.textContent), /Blunder .*allows a mate in 1/)
    const summary = await page.$$eval('#review-summary li', (l) => l.map((x) => x.textContent))
    assert.equal(summary.length, 2)
    assert.match(summary[0], /^White: accuracy \d+\.\d%/)
    assert.match(summary[1], /^Black: accuracy .*1 blunder\./)
    const pgn = await pgnText()
    // The movetext is wrapped at 80 columns, and where depends on the
    // comment before (the review's time in it): any white space may part
    // the tokens.
    assert.match(pgn, /3\.\.\.\s+Nf6\s+\$4\s+\{/)
    assert.match(pgn, /\[Annotator "Rokade /)
    assert.match(pgn, /\[%eval /)
    await page.screenshot({path: path.join(OUT, 'review.png')})
    await page.click('#review-end')
    await page.waitForSelector('#board[data-settled=yes]')
    assert.equal((await boardPieces()).f7, 'wq')
    // A new game forgets the review.
    await newGame()
    assert.equal(await page.$eval('#review-box', (b) => b.hidden), true)
    assert.equal(await page.$eval('#moves', (m) => m.dataset.reviewed), 'no')
})

test('stalemate', async () => {
    await newGame({fen: '7k/5K2/8/6Q1/8/8/8/8 w - - 0 1'})
    await type('Qg6')
    assert.match(await status(), /^Stalemate \(FIDE Laws 5\.2\.1\): Draw/)
})

test('dead position', async () => {
    await newGame({fen: '7k/8/8/8/8/8/6p1/5K1B w - - 0 1'})
    await type('Kxg2')
    assert.match(await status(), /^Dead position \(FIDE Laws 5\.2\.2\)/)
})

test('threefold repetition is claimed', async () => {
    await newGame()
    await type('Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1')
    assert.equal(await page.$eval('#claim', (b) => b.disabled), true)
    await type('Ng8')
    await page.click('#claim')
    assert.match(await status(), /^Threefold repetition claimed \(FIDE Laws 9\.2\): Draw, 1\/2-1\/2/)
})

test('fivefold repetition ends the game', async () => {
    await newGame()
    for (let i = 0; i < 4; i++) await type('Nf3', 'Nf6', 'Ng1', 'Ng8')
    assert.match(await status(), /^Fivefold repetition \(FIDE Laws 9\.6\.1\)/)
})

test('seventy-five moves end the game', async () => {
    await newGame({fen: '8/8/4k3/8/8/4K3/8/R7 w - - 149 100'})
    await type('Ra2')
    assert.match(await status(), /^Seventy-five-move rule \(FIDE Laws 9\.6\.2\)/)
})

test('Chess960 start and castling', async () => {
    await newGame({chess960: true})
    const fen = /\[FEN "([^"]+)"\]/.exec(await page.$eval('#pgn', (e) => e.value))
    const rank = (fen ? fen[1] : 'rnbqkbnr').split('/')[0]
    assert.match(rank, /^(?=.*r.*k.*r)(?=.*q)[rnbqk]{8}$/)
    assert.notEqual(rank.indexOf('b') % 2, rank.lastIndexOf('b') % 2)
    await newGame({chess960: true, fen: 'rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w KQkq - 0 1'})
    await clickSquare('b1')
    await clickSquare('g1')
    await page.waitForFunction(() => document.querySelector('#moves').dataset.plies === '1')
    assert.deepEqual(await moveTexts(), ['O-O'])
    assert.match(await page.$eval('#pgn', (e) => e.value), /\[Variant "Chess960"\]/)
})

test('resignation against the robot', async () => {
    await skillZero()
    await newGame({opponent: 'robot', color: 'w'})
    await page.click('#resign')
    await confirm(true)
    assert.match(await status(), /^Resignation \(FIDE Laws 5\.1\.2\): Black wins, 0-1$/)
    assert.match(await pgnText(), /\[Result "0-1"\]/)
    assert.equal(await page.$eval('#resign', (b) => b.disabled), true)
    assert.equal(await page.$eval('#draw', (b) => b.disabled), true)
})

// The robot accepts a draw when its last search did not find it better
// (score <= 0, no mate): it does with a lone king against a queen, and
// declines with the queen.
test('a draw offer to the robot: declined when it is better, accepted when not', async () => {
    await skillZero()
    // Black keeps two pawns that no one white move can both block, so even
    // a weak robot cannot stalemate at once (a lone king against Q can be).
    await newGame({opponent: 'robot', color: 'b', fen: 'k7/p6p/3Q4/8/8/8/8/7K w - - 0 1'})
    await waitPlies(1)
    await page.click('#draw')
    await confirm(true)
    assert.equal(await status(), 'Rokade declines the draw')
    assert.equal(await page.$eval('#status', (e) => e.dataset.ending), undefined)
    assert.match(await pgnText(), /\[Result "\*"\]/)
    await newGame({opponent: 'robot', color: 'b', fen: 'k7/8/3q4/8/8/8/8/7K w - - 0 1'})
    await waitPlies(1)
    await page.click('#draw')
    await confirm(true)
    assert.match(await status(), /^Draw by agreement \(FIDE Laws 5\.2\.3\): Draw, 1\/2-1\/2$/)
    assert.match(await pgnText(), /\[Result "1\/2-1\/2"\]/)
})

// A misclick must not end the game: resigning and offering or agreeing a
// draw wait for a second click on "Yes".
test('resigning and a draw ask to confirm', async () => {
    await skillZero()
    await newGame({opponent: 'robot', color: 'w'})
    await page.click('#resign')
    assert.equal(await page.$eval('#status', (e) => e.dataset.ending), undefined)
    await confirm(false)
    assert.equal(await page.$eval('#confirm', (e) => e.hidden), true)
    assert.equal(await page.$eval('#status', (e) => e.dataset.ending), undefined)
    assert.equal(await status(), 'Your move')
    await type('e4')
    await waitPlies(2)
    await newGame()
    await page.click('#draw')
    assert.equal(await page.$eval('#status', (e) => e.dataset.ending), undefined)
    assert.match(await pgnText(), /\[Result "\*"\]/)
    await confirm(true)
    assert.match(await status(), /^Draw by agreement \(FIDE Laws 5\.2\.3\): Draw, 1\/2-1\/2$/)
})

// With the evaluation bar on, after the robot's move the best line starts
// from the position on the board (the robot's move is not repeated), and
// the score is White's (here White, the robot, is a queen up).
test('the best line starts from the position on the board, the score from White\'s view', async () => {
    await setEvalBar(true)
    await skillZero()
    const fen = 'k7/p6p/3Q4/8/8/8/8/7K w - - 0 1'
    await newGame({opponent: 'robot', color: 'b', fen})
    await waitPlies(1)
    for (const wait of [0, 1000]) {
        await sleep(wait)
        await page.waitForFunction(() => {
            const e = document.querySelector('#bestline')
            return !e.closest('[hidden]') && /Best line[^:]*: \S/.test(e.textContent)
        }, {timeout: 10000})
        const text = await page.$eval('#bestline', (e) => e.textContent)
        const line = text.split(/Best line[^:]*: /)[1].trim().split(/\s+/)
        const played = await moveTexts()
        assert.equal(played.length, 1)
        assert.notEqual(line[0], played[0], text)
        assert.ok(await legalLine(page, fen, played, line), `${text} after ${played}`)
        assert.match(await page.$eval('#evalscore', (e) => e.textContent), /^(\+\d+\.\d|M\d+)$/)
        assert.match(await page.$eval('#evalinfo', (e) => e.textContent), /White's view/)
    }
    await setEvalBar(false)
})

// The score beside the bar is drawn whole, mates as M1 (White mates) and
// -M1 (Black mates).
test('the evaluation is readable, mates as M1 and -M1', async () => {
    await setEvalBar(true)
    await newGame({fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1'})
    await page.waitForFunction(() => document.querySelector('#evalscore')?.textContent === 'M1', {timeout: 10000})
    assert.ok(await shownWhole('#evalscore'))
    await newGame({fen: 'r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1'})
    await page.waitForFunction(() => document.querySelector('#evalscore')?.textContent === '-M1', {timeout: 10000})
    assert.ok(await shownWhole('#evalscore'))
    // Black two rooks up: a long score, whole.
    await newGame({fen: 'rr2k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1'})
    await page.waitForFunction(() => /^-\d\d\.\d$/.test(document.querySelector('#evalscore')?.textContent),
        {timeout: 10000})
    assert.ok(await shownWhole('#evalscore'))
    await setEvalBar(false)
})

test("take-back against the robot removes its answer and the player's move", async () => {
    await skillZero()
    await newGame({opponent: 'robot', color: 'w'})
    await type('e4')
    await waitPlies(2)
    await sleep(400) // the board's animation
    const board2 = await boardPieces()
    const moves2 = await moveTexts()
    await type('d4')
    await waitPlies(4)
    await page.click('#takeback')
    await waitPlies(2)
    assert.deepEqual(await moveTexts(), moves2)
    assert.deepEqual(await pgnMoves(), moves2)
    await page.waitForFunction((want) => {
        const gs = [...document.querySelectorAll('#board g.pieces > g[data-square]')]
        const have = Object.fromEntries(gs.map((g) => [g.dataset.square, g.dataset.piece]))
        return JSON.stringify(have, Object.keys(have).sort()) === JSON.stringify(want, Object.keys(want).sort())
    }, {timeout: 5000}, board2)
    assert.equal(await status(), 'Your move')
})

// A second page with a custom clock control (?clock=BASE+INC, clock.js),
// closed after the test; the main page is brought back to the front (in
// the background it stops answering).
async function clockPage(query) {
    const p = await browser.newPage()
    clockPages.push(p)
    await open(p, base, query)
    return p
}
const clockPages = []
afterEach(async () => {
    for (const p of clockPages.splice(0)) await p.close()
    if (page) await page.bringToFront()
})

// The clocks on a page with a custom control (?clock=BASE+INC, clock.js),
// in a friend game: White's first move starts Black's clock.
test('clocks: the side to move runs down, the increment, and a flag fall', async () => {
    const p = await clockPage('?clock=2+1')
    await newGame({p, time: 'custom'})
    assert.deepEqual(await clockMs(p), {w: 2000, b: 2000})
    assert.equal(await clockRunning(p), null)
    await typeOn(p, 'e4', 'e5')
    assert.equal(await clockRunning(p), 'w')
    const a = await clockMs(p)
    await sleep(500)
    const b = await clockMs(p)
    assert.ok(b.w < a.w - 200, `White's clock runs: ${a.w} -> ${b.w}`)
    assert.equal(b.b, a.b)
    await typeOn(p, 'Nf3')
    const c = await clockMs(p)
    assert.ok(c.w > b.w + 500 && c.w <= b.w + 1000, `the 1 s increment: ${b.w} -> ${c.w}`)
    assert.equal(await clockRunning(p), 'b')
    // Black's time runs out; White can mate: White wins.
    await p.waitForSelector('#status[data-ending]', {timeout: 10000})
    assert.match(await status(p), /^Time forfeit \(FIDE Laws 6\.9\): White wins, 1-0$/)
    assert.equal((await clockMs(p)).b, 0)
    assert.match(await pgnText(p), /\[Result "1-0"\][^]*\[TimeControl "2\+1"\]\n\[Termination "time forfeit"\]/)
    // Black's time runs out against a lone king: a draw.
    await newGame({p, time: 'custom', fen: 'k7/p7/8/8/8/8/8/K7 w - - 0 1'})
    await typeOn(p, 'Kb1')
    await p.waitForSelector('#status[data-ending]', {timeout: 10000})
    assert.match(await status(p), /^Time forfeit, but the opponent cannot mate \(FIDE Laws 6\.9\): Draw, 1\/2-1\/2$/)
    assert.match(await pgnText(p), /\[Result "1\/2-1\/2"\]/)
})

// Each ply's first display of the clocks is logged (the move list's
// data-plies changes in the same render as the clocks); a take-back must
// show the times of its ply again.
test('take-back against the robot restores the clocks', async () => {
    const p = await clockPage('?clock=20+1')
    await skillZero(p)
    await newGame({p, opponent: 'robot', color: 'w', time: 'custom'})
    await p.evaluate(() => {
        window.clockLog = []
        const ms = (c) => Number(document.querySelector(`.clock[data-color=${c}]`).dataset.ms)
        new MutationObserver(() => {
            const ply = Number(document.querySelector('#moves').dataset.plies)
            if (!window.clockLog[ply]) window.clockLog[ply] = {w: ms('w'), b: ms('b')}
        }).observe(document.querySelector('#moves'), {attributes: true, attributeFilter: ['data-plies']})
    })
    await typeOn(p, 'e4')
    await waitPlies(2, p)
    await sleep(300)
    await typeOn(p, 'd4')
    await waitPlies(4, p)
    const {log, before, after} = await p.evaluate(() => {
        const ms = (c) => Number(document.querySelector(`.clock[data-color=${c}]`).dataset.ms)
        const was = {w: ms('w'), b: ms('b')}
        document.getElementById('takeback').click() // synchronous: the clocks are redrawn
        return {log: window.clockLog, before: was, after: {w: ms('w'), b: ms('b')}}
    })
    assert.equal(await plies(p), 2)
    assert.deepEqual(after, log[2])
    assert.notDeepEqual(before, log[2])
    assert.equal(await clockRunning(p), 'w')
})

test('sound and level settings survive a reload', async () => {
    await page.select('#level-mode', 'elo')
    await page.$eval('#level', (e) => {
        e.value = '1800'
        e.dispatchEvent(new Event('input', {bubbles: true}))
    })
    if (await page.$eval('#sound', (b) => b.checked)) await page.click('#sound')
    const fresh = await browser.newPage()
    await open(fresh, base)
    assert.equal(await fresh.$eval('#sound', (b) => b.checked), false)
    assert.equal(await fresh.$eval('#level-mode', (s) => s.value), 'elo')
    assert.equal(await fresh.$eval('#level', (s) => s.value), '1800')
    assert.match(await fresh.$eval('#level-text', (s) => s.textContent), /1800 Elo/)
    await fresh.close()
})

// Every Skill Level's label gives the Elo that search/level.c's table
// maps to that strength, and the sliders' ranges are the engine's options'.
test("the level labels follow search/level.c's table, the ranges the engine's options", async () => {
    const table = engineEloTable()
    const skill = uciRange('Skill Level')
    await page.select('#level-mode', 'skill')
    assert.deepEqual(await page.$eval('#level', (e) => [e.min, e.max]), skill)
    assert.equal(await page.$eval('#level-mode option[value=skill]', (o) => o.textContent),
        `Skill Level (${skill[0]}-${skill[1]})`)
    const [[e0, s0], [e1, s1]] = table
    for (let s = Number(skill[0]); s < Number(skill[1]); s++) {
        let elo = e0 - ((s0 - s) * (e1 - e0)) / (s1 - s0)
        for (let i = 1; i < table.length && s > s0; i++)
            if (s <= table[i][1]) {
                const [ea, sa] = table[i - 1], [eb, sb] = table[i]
                elo = ea + ((s - sa) / (sb - sa)) * (eb - ea)
                break
            }
        await setLevel(s)
        const text = await page.$eval('#level-text', (e) => e.textContent)
        if (elo < e0) assert.match(text, new RegExp(`^below ${e0} Elo`), `Skill Level ${s}`)
        else assert.match(text, new RegExp(`^about ${Math.round(elo)} Elo`), `Skill Level ${s}`)
    }
    await page.select('#level-mode', 'elo')
    assert.deepEqual(await page.$eval('#level', (e) => [e.min, e.max]), uciRange('UCI_Elo'))
    await page.select('#level-mode', 'skill')
})

// Full strength is described by what was measured (README.md, Strength),
// at Skill Level 20 and at every UCI_Elo that plays at full strength.
test('full strength is described by its measured strength', async () => {
    const table = engineEloTable()
    await page.select('#level-mode', 'skill')
    await setLevel(20)
    const full = await page.$eval('#level-text', (e) => e.textContent)
    assert.match(full, /^full strength: about 2800 on Stockfish's UCI_Elo scale/)
    assert.doesNotMatch(full, /2400 Elo or more/)
    await page.select('#level-mode', 'elo')
    for (const elo of [table[table.length - 1][0], 2800]) {
        await setLevel(elo)
        assert.equal(await page.$eval('#level-text', (e) => e.textContent), full)
    }
    await page.select('#level-mode', 'skill')
})

// A reload (here: a second page of the same origin) offers the game in
// progress, and resumes its moves, opponent, level and clocks.
test('a game in progress is kept over a reload and resumed', async () => {
    const p = await clockPage('?clock=20+1')
    await skillZero(p)
    await newGame({p, opponent: 'robot', color: 'w', time: 'custom'})
    await typeOn(p, 'e4')
    await waitPlies(2, p)
    const moves = await moveTexts(p)
    const ms = await clockMs(p)
    await setLevel(7, p) // the slider is for the next game
    const q = await clockPage('?clock=20+1')
    await q.waitForSelector('#resume:not([hidden])', {timeout: 5000})
    await q.click('#resume-yes')
    await waitPlies(2, q)
    assert.deepEqual(await moveTexts(q), moves)
    assert.equal(await status(q), 'Your move')
    assert.match(await pgnText(q), /\[White "Player"\]\n\[Black "Rokade \(Skill Level 0\)"\]/)
    const back = await clockMs(q)
    assert.ok(Math.abs(back.w - ms.w) < 1500 && back.b === ms.b, `${JSON.stringify(ms)} -> ${JSON.stringify(back)}`)
    assert.equal(await clockRunning(q), 'w')
    await typeOn(q, 'd4')
    await waitPlies(4, q)
    // The clocks' history came back too: a take-back shows ply 2's times.
    await q.click('#takeback')
    await waitPlies(2, q)
    assert.equal((await clockMs(q)).b, ms.b)
    // Declined, the offer is gone for good.
    const r = await clockPage('?clock=20+1')
    await r.waitForSelector('#resume:not([hidden])', {timeout: 5000})
    await r.click('#resume-no')
    assert.equal(await r.$eval('#resume', (e) => e.hidden), true)
    assert.equal(await plies(r), 0)
    const s = await clockPage('?clock=20+1')
    assert.equal(await s.$eval('#resume', (e) => e.hidden), true)
})

test('single-threaded build without the isolation headers, and the robot answers', async () => {
    const plain = await serve(true)
    const p = await browser.newPage()
    await open(p, plain)
    assert.equal(await p.$eval('body', (b) => b.dataset.engine), 'single')
    await p.select('#opponent', 'robot')
    await p.select('#color', 'w')
    await p.click('#newgame')
    await p.$eval('#move-input', (e) => (e.value = 'd4'))
    await p.click('#move-form button')
    await p.waitForFunction(() => document.querySelector('#moves').dataset.plies === '2', {timeout: 30000})
    await p.close()
})

test('no errors in the console', () => {
    assert.deepEqual(problems, [])
})
