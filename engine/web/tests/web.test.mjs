// The page in headless Chromium (Debian's, driven by puppeteer-core), served
// by serve.py as `make serve` does, and the wasm engine's bench against the
// native one. Run by `make web-test`: ROKADE is the native binary, WEB_OUT
// the built page.
import {test, before, after} from 'node:test'
import assert from 'node:assert/strict'
import {spawn, execFileSync} from 'node:child_process'
import {createRequire} from 'node:module'
import {readFileSync} from 'node:fs'
import path from 'node:path'
import puppeteer from 'puppeteer-core'

const OUT = path.resolve(process.env.WEB_OUT || '../../build/web')
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

async function open(p, url) {
    p.on('console', (m) => m.type() === 'error' && problems.push(`${url}: ${m.text()}`))
    p.on('pageerror', (e) => problems.push(`${url}: ${e && e.message}`))
    await p.goto(`${url}index.html`)
    await p.waitForSelector('body[data-ready=yes]', {timeout: 60000})
}

const plies = () => page.$eval('#moves', (e) => Number(e.dataset.plies))
const status = () => page.$eval('#status', (e) => e.textContent)
const moveTexts = () => page.$$eval('#moves li span', (s) => s.map((x) => x.textContent).filter((t) => t !== '…'))

async function newGame({opponent = 'friend', fen = '', chess960 = false} = {}) {
    await page.select('#opponent', opponent)
    const box = await page.$('#chess960')
    if ((await box.evaluate((b) => b.checked)) !== chess960) await box.click()
    await page.$eval('#fen', (e, v) => (e.value = v), fen)
    await page.click('#newgame')
    await page.waitForFunction(() => document.querySelector('#moves').dataset.plies === '0')
}

async function type(...moves) {
    for (const m of moves) {
        const before = await plies()
        await page.$eval('#move-input', (e, v) => (e.value = v), m)
        await page.click('#move-form button')
        await page.waitForFunction((n) => Number(document.querySelector('#moves').dataset.plies) > n, {}, before)
    }
}

async function clickSquare(sq) {
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
    await page.select('#level-mode', 'skill')
    await page.$eval('#level', (e) => {
        e.value = '0'
        e.dispatchEvent(new Event('input', {bubbles: true}))
    })
    await page.select('#color', 'w')
    await newGame({opponent: 'robot'})
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
    const pgn = await page.$eval('#pgn', (e) => e.value)
    assert.match(pgn, /\[Result "0-1"\]/)
    assert.match(pgn, /\[Date "\d{4}\.\d\d\.\d\d"\]/)
    const moves = pgn.split('\n\n')[1].split(/\s+/).filter((w) => w && !/^\d+\.$/.test(w) && w !== '0-1')
    assert.deepEqual(moves, ['f3', 'e5', 'g4', 'Qh4#'])
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
