/* Rokade in the browser: the board, the game flow against the robot or a
 * friend, the clocks, the endings and the controls. The rules are Rokade's
 * (game.js), the robot is Rokade in a worker (engine.js). */
import {Chessboard, COLOR, INPUT_EVENT_TYPE} from './vendor/cm-chessboard/src/Chessboard.js'
import {Markers, MARKER_TYPE} from './vendor/cm-chessboard/src/extensions/markers/Markers.js'
import {PromotionDialog, PROMOTION_DIALOG_RESULT_TYPE} from './vendor/cm-chessboard/src/extensions/promotion-dialog/PromotionDialog.js'
import {Game, LEVELS, loadRules, START_FEN} from './game.js'
import {Engine} from './engine.js'
import {Clock, TIME_CONTROLS, customControl} from './clock.js'
import {sounds} from './sound.js'
import {gamePgn} from './pgn.js'
import {parseReview, NAG_SYMBOL, NAG_NAME} from './review.js'
import {LANGUAGES, localSan, ENDINGS} from './i18n.js'
import {chess960Fen, randomChess960} from './chess960.js'
import {describeLevel, levelRange} from './levels.js'
import {loadGame, loadSettings, saveGame, saveSettings} from './settings.js'

const $ = (id) => document.getElementById(id)
const other = (c) => (c === 'w' ? 'b' : 'w')
const COLOR_NAME = {w: 'White', b: 'Black'}
const ENDS_AT_ONCE = ['checkmate', 'stalemate', 'dead', 'fivefold', 'seventyFive']
const CLAIMS = ['threefold', 'fifty']

const settings = loadSettings()
let board, engine, game, clock = null
let clockHistory = [] // with a clock: the times {w, b} at each ply, [0] the start
let human = 'w' // the human's colour against the robot
let opponent = 'robot' // of the game in progress
let level = null // the robot's level in the game in progress: {mode: 'skill' or 'elo', value}
let resumable = null // a saved game in progress offered to resume, until taken or declined
let over = null // {kind, result} once the game has ended
let token = 0 // bumped to forget the robot's search in flight
let robotEval = null // the robot's last score, its own view: {score, mate}
let drawing = 0 // bumped by each position the board is asked to draw
let confirming = null // the action that waits for the confirmation's "Yes"
let reviewed = null // the ended game's review: {moves, players, pgn} (review.js)
let reviewing = false // a review runs in the worker
let shownPly = null // the reviewed move whose position the board shows, or null
const REVIEW_NODES = 150000 // a position; about a minute for a 40-move game in the browser

/* ---- settings form ---------------------------------------------------- */

function showLevel() {
    const elo = settings.levelMode === 'elo'
    const input = $('level')
    const [min, max] = levelRange(settings.levelMode)
    input.min = min
    input.max = max
    input.step = elo ? 50 : 1
    input.value = elo ? settings.elo : settings.skill
    $('level-value').value = input.value
    $('level-text').textContent = describeLevel(settings.levelMode, Number(input.value)).text
}

function bindSettings() {
    const custom = customControl(location.search)
    if (custom) $('time').append(new Option(`${custom} (custom)`, 'custom'))
    // A custom control saved on an earlier visit is gone without its parameter.
    if (!TIME_CONTROLS[settings.time]) settings.time = 'none'
    for (const [code, lang] of Object.entries(LANGUAGES))
        $('lang').append(new Option(`${lang.name} (${lang.letters.split('').join(' ')})`, code))
    $('opponent').value = settings.opponent
    $('color').value = settings.color
    $('level-mode').options[0].textContent = `Skill Level (0-${LEVELS.full})`
    $('level-mode').value = settings.levelMode
    $('time').value = settings.time
    $('chess960').checked = settings.chess960
    $('lang').value = settings.lang
    $('sound').checked = sounds.enabled = settings.sound
    $('evalbar-on').checked = settings.evalBar
    showLevel()
    const changed = () => {
        const barWasOn = settings.evalBar
        settings.opponent = $('opponent').value
        settings.color = $('color').value
        settings.levelMode = $('level-mode').value
        settings.time = $('time').value
        settings.chess960 = $('chess960').checked
        settings.lang = $('lang').value
        settings.sound = sounds.enabled = $('sound').checked
        settings.evalBar = $('evalbar-on').checked
        saveSettings(settings)
        showLevel()
        renderMoves()
        renderEval()
        if (settings.evalBar && !barWasOn && game && humanToMove()) analyse()
    }
    $('settings').addEventListener('change', changed)
    $('level').addEventListener('input', () => {
        settings[settings.levelMode === 'elo' ? 'elo' : 'skill'] = Number($('level').value)
        saveSettings(settings)
        showLevel()
    })
    $('settings').addEventListener('submit', (e) => {
        e.preventDefault()
        answerResume(false)
        newGame()
    })
}

/* ---- the game --------------------------------------------------------- */

const robotPlays = (color) => opponent === 'robot' && color !== human
const humanToMove = () => !over && !robotPlays(game.turn)

function newGame() {
    token++
    if (clock) clock.stop()
    let fen = $('fen').value.trim()
    if (!fen) fen = settings.chess960 ? chess960Fen(randomChess960()) : START_FEN
    try {
        game = new Game(fen, settings.chess960)
    } catch (e) {
        setStatus(`That start position is refused: ${e.message}`)
        return
    }
    reviewed = null
    shownPly = null
    opponent = settings.opponent
    human = settings.color === 'random' ? (Math.random() < 0.5 ? 'w' : 'b') : settings.color
    if (opponent === 'friend') human = 'w'
    level = {mode: settings.levelMode, value: settings.levelMode === 'elo' ? settings.elo : settings.skill}
    startEngineGame(settings.chess960)
    clock = TIME_CONTROLS[settings.time] ? new Clock(settings.time, renderClocks, flagFall) : null
    clockHistory = clock ? [{...clock.ms}] : []
    board.setOrientation(human === 'w' ? COLOR.white : COLOR.black)
    showPosition(false)
    $('pgn-box').open = false
    afterMove()
}

/* Draws the game's position on the board. #board's data-settled is 'no'
 * until the board has drawn it (and any animation ended): a click in the
 * meantime can be lost, so the browser test waits for 'yes'. */
function showPosition(animated) {
    const el = $('board')
    const mine = ++drawing
    el.dataset.settled = 'no'
    board.setPosition(game.fen, animated).then(() => {
        if (mine === drawing) el.dataset.settled = 'yes'
    })
}

/* Plays a legal move (UCI) of the side to move. */
function playMove(uci) {
    const mover = game.turn
    // The player's move in the new game declines a kept one.
    if (resumable && !robotPlays(mover)) answerResume(false)
    const san = game.play(uci)
    if (!san) return false
    sounds.play(san.includes('+') || san.includes('#') ? 'check' : san.includes('x') ? 'capture' : 'move')
    if (clock) {
        clock.switch(mover)
        clockHistory.push({...clock.ms})
    }
    showPosition(true)
    afterMove()
    return true
}

/* After a move (or a new game, or a take-back): endings, the display, and
 * the robot's turn. */
function afterMove() {
    if (!over && ENDS_AT_ONCE.includes(game.state)) end(game.state)
    render()
    if (!over && robotPlays(game.turn)) robotMove()
    else if (!over && settings.evalBar) analyse()
}

function levelOptions() {
    const elo = level.mode === 'elo'
    engine.setOption('UCI_LimitStrength', elo)
    if (elo) engine.setOption('UCI_Elo', level.value)
    else engine.setOption('Skill Level', level.value)
}

async function robotMove() {
    const my = ++token
    const side = game.turn
    const robot = describeLevel(level.mode, level.value)
    // The robot claims a draw it may claim when it is not better.
    if (CLAIMS.includes(game.state) && robotEval && robotEval.mate === null && robotEval.score <= 0) {
        end(game.state)
        render()
        return
    }
    engine.stop() // the evaluation bar's analysis, if running
    levelOptions()
    const started = performance.now()
    const args = clock ? clock.goArgs() : `movetime ${robot.strength >= LEVELS.full ? 1500 : 700}`
    render()
    const res = await engine.go(game.uciPosition(), side, args)
    if (my !== token || over) return
    if (res.score) robotEval = res.score
    // A natural pause at the low levels (short with a clock).
    const pause = (LEVELS.full - robot.strength) * (clock ? 15 : 60)
    const wait = Math.max(0, pause - (performance.now() - started))
    if (wait) await new Promise((r) => setTimeout(r, wait))
    if (my !== token || over) return
    if (!playMove(res.move)) setStatus(`Rokade's move ${res.move} was refused`)
}

/* The evaluation bar's short analysis of a player's turn (against the
 * robot or a friend), at full strength: the robot's level is set again
 * before its own move. */
function analyse() {
    engine.stop()
    engine.setOption('UCI_LimitStrength', false)
    engine.setOption('Skill Level', LEVELS.full)
    engine.go(game.uciPosition(), game.turn, 'movetime 800')
}

/* `color`'s time has run out: it loses, unless the opponent cannot mate
 * by any series of legal moves (FIDE 6.9): then a draw. */
function flagFall(color) {
    const wins = game.canMate(other(color))
    end(wins ? 'flag' : 'flagNoMate', wins ? other(color) : null)
    render()
}

/* Ends the game; `winner` is 'w', 'b' or null (a draw), and for a checkmate
 * the side not to move. */
function end(kind, winner = null) {
    if (kind === 'checkmate') winner = other(game.turn)
    const result = winner === 'w' ? '1-0' : winner === 'b' ? '0-1' : '1/2-1/2'
    over = {kind, result, winner}
    token++
    engine.stop()
    if (clock) clock.stop()
    sounds.play('end')
}

/* ---- the game in progress, kept over a reload ------------------------- */

const levelName = (lv) => (lv.mode === 'elo' ? `Elo ${lv.value}` : `Skill Level ${lv.value}`)

/* Saves the game in progress (after each move, and when the page is hidden
 * or left), or forgets it once it has ended or has no move; not while a
 * saved one is offered to resume. The clocks stand while the page is away. */
function keepGame() {
    if (resumable || !game) return
    if (over || !game.moves.length) return saveGame(null)
    saveGame({
        startFen: game.startFen, chess960: game.chess960, moves: game.moves.map((m) => m.uci),
        opponent, human, level,
        clock: clock ? {control: clock.control, spec: TIME_CONTROLS[clock.control], ms: {...clock.ms}, history: clockHistory} : null,
    })
}

function offerResume(saved) {
    const n = Math.ceil(saved.moves.length / 2)
    const who = saved.opponent === 'robot'
        ? `against Rokade (${levelName(saved.level)}), you with ${COLOR_NAME[saved.human]}`
        : 'between two players at this screen'
    const tc = saved.clock ? `, ${saved.clock.spec[0]}+${saved.clock.spec[1]} clock` : ''
    $('resume-text').textContent = `A game in progress was kept: ${who}, ${n} move${n === 1 ? '' : 's'}${tc}.`
    $('resume').hidden = false
    resumable = saved
}

/* Takes up the saved game (yes) or forgets it. */
function answerResume(yes) {
    const saved = resumable
    resumable = null
    $('resume').hidden = true
    if (!saved) return
    if (!yes) return saveGame(null)
    try {
        resumeGame(saved)
    } catch (e) {
        setStatus(`The kept game could not be resumed: ${e.message}`)
        saveGame(null)
        newGame()
    }
}

/* What a new game and a resumed one both start with: no dialog, no result,
 * no evaluation shown, and the engine told of a new game. */
function startEngineGame(chess960) {
    closeConfirm()
    over = null
    robotEval = null
    evalShown = null
    engine.stop()
    engine.send('ucinewgame')
    engine.setOption('UCI_Chess960', chess960)
}

function resumeGame(saved) {
    token++
    if (clock) clock.stop()
    const g = new Game(saved.startFen, saved.chess960)
    for (const uci of saved.moves) if (!g.play(uci)) throw new Error(`the move ${uci} is not legal`)
    game = g
    opponent = saved.opponent === 'friend' ? 'friend' : 'robot'
    human = saved.human === 'b' ? 'b' : 'w'
    level = saved.level && saved.level.mode === 'elo' ? {mode: 'elo', value: Number(saved.level.value)}
        : {mode: 'skill', value: Number(saved.level && saved.level.value) || 0}
    startEngineGame(game.chess960)
    clock = null
    clockHistory = []
    if (saved.clock) {
        const {control, spec, ms, history} = saved.clock
        const times = (t) => t && t.w >= 0 && t.b >= 0
        if (!Array.isArray(spec) || !times(ms) || !Array.isArray(history)
            || history.length !== game.moves.length + 1 || !history.every(times))
            throw new Error('its clocks cannot be read')
        // A custom control (?clock=) comes back without its parameter too.
        if (!TIME_CONTROLS[control]) TIME_CONTROLS[control] = spec
        clock = new Clock(control, renderClocks, flagFall)
        clockHistory = history
        clock.restore(ms, game.turn)
    }
    board.setOrientation(human === 'w' ? COLOR.white : COLOR.black)
    showPosition(false)
    afterMove()
}

/* Asks before an action that ends the game (a misclick must not): shows
 * `question` with a "Yes" labelled `yes`; the action runs on "Yes" if the
 * game has not ended in the meantime. */
function ask(question, yes, action) {
    confirming = action
    $('confirm-text').textContent = question
    $('confirm-yes').textContent = yes
    $('confirm').hidden = false
    $('confirm-no').focus()
}

function closeConfirm() {
    confirming = null
    $('confirm').hidden = true
}

/* ---- display ---------------------------------------------------------- */

function setStatus(text) {
    $('status').textContent = text
}

function kingSquare(color) {
    const rows = game.fen.split(' ')[0].split('/')
    const k = color === 'w' ? 'K' : 'k'
    for (let r = 0; r < 8; r++) {
        let file = 0
        for (const ch of rows[r]) {
            if (/\d/.test(ch)) file += Number(ch)
            else if (ch === k) return 'abcdefgh'[file] + (8 - r)
            else file++
        }
    }
    return null
}

function render() {
    // While a reviewed move is shown, the board keeps its position and marks.
    if (shownPly === null) {
        board.removeMarkers(MARKER_TYPE.square)
        board.removeMarkers(MARKER_TYPE.circleDanger)
        board.removeMarkers(MARKER_TYPE.circlePrimary)
        const last = game.moves[game.moves.length - 1]
        if (last) {
            board.addMarker(MARKER_TYPE.square, last.uci.slice(0, 2))
            board.addMarker(MARKER_TYPE.square, last.uci.slice(2, 4))
        }
        if (game.check) board.addMarker(MARKER_TYPE.circleDanger, kingSquare(game.turn))
    }
    if (over) {
        closeConfirm()
        const [text, article] = ENDINGS[over.kind]
        const who = over.winner ? `${COLOR_NAME[over.winner]} wins` : 'Draw'
        setStatus(`${text} (FIDE Laws ${article}): ${who}, ${over.result}`)
        $('status').dataset.ending = over.kind
    } else {
        delete $('status').dataset.ending
        const mover = COLOR_NAME[game.turn]
        const thinking = robotPlays(game.turn) ? 'Rokade is thinking' : opponent === 'robot' ? 'Your move' : `${mover} to move`
        setStatus(`${thinking}${game.check ? ', check' : ''}${CLAIMS.includes(game.state) ? ' (a draw may be claimed)' : ''}`)
    }
    $('claim').disabled = !(humanToMove() && CLAIMS.includes(game.state))
    for (const id of ['draw', 'resign']) $(id).disabled = !!over
    $('takeback').disabled = game.moves.length === 0 || reviewing
    $('review').hidden = !over
    $('review').disabled = !over || !game.moves.length || reviewing || !!reviewed
    renderReview()
    $('draw').textContent = opponent === 'robot' ? 'Offer draw' : 'Agree a draw'
    renderMoves()
    renderClocks()
    renderEval()
    $('pgn').value = reviewed ? reviewed.pgn : gamePgn(game, pgnInfo())
    keepGame()
}

function renderMoves() {
    if (!game) return
    const list = $('moves')
    list.replaceChildren()
    const blackFirst = game.startFen.split(' ')[1] === 'b'
    const start = Number(game.startFen.split(' ')[5]) || 1
    list.start = start
    list.dataset.plies = game.moves.length
    let li = null
    game.moves.forEach((m, i) => {
        const ply = i + (blackFirst ? 1 : 0)
        if (ply % 2 === 0 || !li) {
            li = document.createElement('li')
            list.append(li)
            if (ply % 2 === 1) li.append(Object.assign(document.createElement('span'), {textContent: '…'}))
        }
        const span = Object.assign(document.createElement('span'), {textContent: localSan(m.san, settings.lang)})
        const r = reviewed && reviewed.moves[i]
        if (r) {
            span.dataset.ply = i
            span.tabIndex = 0
            span.setAttribute('role', 'button')
            span.classList.toggle('shown', shownPly === i)
            if (r.nag) {
                span.classList.add(`nag${r.nag.slice(1)}`)
                span.dataset.nag = NAG_SYMBOL[r.nag]
                span.append(Object.assign(document.createElement('b'), {textContent: NAG_SYMBOL[r.nag]}))
                span.title = `${NAG_NAME[r.nag]}: ${r.comment}`
            } else span.title = r.comment || ''
        }
        li.append(span)
    })
    list.dataset.reviewed = reviewed ? 'yes' : 'no'
    if (shownPly === null) list.scrollTop = list.scrollHeight
}

/* ---- the review of an ended game (engine/review.h in the worker) ------- */

function startReview() {
    if (!over || reviewing || reviewed || !game.moves.length) return
    reviewing = true
    token++
    engine.stop()
    render()
    setStatus('Reviewing the game…')
    const pgn = gamePgn(game, pgnInfo())
    engine.review(pgn, REVIEW_NODES, (done, total) => setStatus(`Reviewing the game: position ${done} of ${total}`))
        .then((annotated) => {
            const r = parseReview(annotated)
            if (r.moves.length !== game.moves.length) throw new Error('the review does not match the game')
            reviewed = {...r, pgn: annotated}
            reviewing = false
            render()
            setStatus('Review done: click a move to see it and the better move')
        })
        .catch((e) => {
            reviewing = false
            render()
            setStatus(`The review failed: ${e.message}`)
        })
}

function renderReview() {
    const box = $('review-box')
    box.hidden = !reviewed
    if (!reviewed) return
    $('review-summary').replaceChildren(...reviewed.players.map((t) => Object.assign(document.createElement('li'), {textContent: t})))
    const r = shownPly !== null ? reviewed.moves[shownPly] : null
    $('review-move').textContent = r ? `${localSan(r.san, settings.lang)}${r.nag ? NAG_SYMBOL[r.nag] : ''} (${r.eval ?? ''}) ${r.comment}` : ''
    $('review-end').hidden = shownPly === null
}

/* Shows the position before reviewed move `ply`, the move played (squares)
 * and the engine's better move (circles). */
function showReviewedMove(ply) {
    const r = reviewed && reviewed.moves[ply]
    if (!r) return
    const {fen, legal} = game.at(ply)
    const better = r.best && legal.find((m) => m.san === r.best)
    shownPly = ply
    const el = $('board')
    const mine = ++drawing
    el.dataset.settled = 'no'
    board.setPosition(fen, false).then(() => {
        if (mine === drawing) el.dataset.settled = 'yes'
    })
    board.removeMarkers(MARKER_TYPE.square)
    board.removeMarkers(MARKER_TYPE.circleDanger)
    board.removeMarkers(MARKER_TYPE.circlePrimary)
    const played = game.moves[ply].uci
    board.addMarker(MARKER_TYPE.square, played.slice(0, 2))
    board.addMarker(MARKER_TYPE.square, played.slice(2, 4))
    if (better && r.nag) {
        board.addMarker(MARKER_TYPE.circlePrimary, better.from)
        board.addMarker(MARKER_TYPE.circlePrimary, better.to)
    }
    el.dataset.better = better && r.nag ? better.uci : ''
    renderMoves()
    renderReview()
}

function showGameEnd() {
    shownPly = null
    $('board').dataset.better = ''
    showPosition(false)
    render()
}

function renderClocks() {
    $('clock-top').hidden = $('clock-bottom').hidden = !clock
    if (!clock) return
    const bottom = board.getOrientation() === COLOR.white ? 'w' : 'b'
    for (const [id, c] of [['clock-bottom', bottom], ['clock-top', other(bottom)]]) {
        $(id).textContent = `${COLOR_NAME[c]} ${Clock.format(clock.ms[c])}`
        Object.assign($(id).dataset, {color: c, ms: Math.round(clock.ms[c])}) // for the test
        $(id).classList.toggle('running', clock.running === c)
    }
}

let evalShown = null // the last search's {position, pv, white, text} worth showing

/* A search's line (UCI moves from `position`, the engine's position
 * argument) from the position on the board: the whole line, or its rest
 * when its first move has been played since (the robot's move); null when
 * the line does not lead through the board's position. */
function lineFromBoard(position, pv) {
    const now = game.uciPosition()
    if (position === now) return pv
    if (pv.length && `${position}${position.includes(' moves ') ? ' ' : ' moves '}${pv[0]}` === now)
        return pv.slice(1)
    return null
}

/* A score in White's view for the bar (centipawns, ±10000 for a mate) and
 * as text: +0.3, -16.3, M3 (White mates in 3), -M3 (Black does). */
function whiteScore(info, side) {
    const sign = side === 'w' ? 1 : -1
    if (info.mate !== null) {
        const mate = sign * info.mate
        return {white: Math.sign(mate) * 10000, text: `${mate < 0 ? '-' : ''}M${Math.abs(mate)}`}
    }
    const white = sign * info.score
    const pawns = Math.round(white / 10) / 10
    return {white, text: pawns > 0 ? `+${pawns.toFixed(1)}` : pawns < 0 ? pawns.toFixed(1) : '0.0'}
}

function onInfo(info, side, position) {
    // A mate 0 (no move) comes only from an ended game; a search of another
    // position (one stopped, or from before a take-back) is not shown.
    if (!game || info.mate === 0 || !lineFromBoard(position, info.pv)) return
    evalShown = {position, pv: info.pv, ...whiteScore(info, side)}
    renderEval()
}

function renderEval() {
    $('evalbar').hidden = !settings.evalBar
    const line = settings.evalBar && game && evalShown ? lineFromBoard(evalShown.position, evalShown.pv) : null
    $('evalinfo').hidden = !line
    const white = line ? evalShown.white : 0
    $('evalbar').querySelector('.evalfill').style.height = `${50 + 50 * Math.tanh(white / 400)}%`
    $('evalbar').title = line ? `${evalShown.text} (White's view)` : ''
    if (!line) return
    $('evalscore').textContent = evalShown.text
    const sans = game.sanLine(line.slice(0, 8)).map((s) => localSan(s, settings.lang))
    $('bestline').textContent = sans.length ? `Best line: ${sans.join(' ')}` : ''
}

function pgnInfo() {
    const name = (c) => (opponent === 'friend' ? COLOR_NAME[c] : robotPlays(c) ? `Rokade (${levelName(level)})` : 'Player')
    const tc = TIME_CONTROLS[clock ? clock.control : 'none']
    return {
        event: game.chess960 ? 'Casual Chess960 game' : 'Casual game',
        white: name('w'), black: name('b'),
        result: over ? over.result : '*',
        timeControl: tc ? `${tc[0]}+${tc[1]}` : '-',
        termination: over ? (over.kind.startsWith('flag') ? 'time forfeit' : 'normal') : 'unterminated',
    }
}

/* ---- board input -------------------------------------------------------- */

function onBoardInput(event) {
    switch (event.type) {
        case INPUT_EVENT_TYPE.moveInputStarted: {
            if (!humanToMove()) return false
            const moves = game.legal.filter((m) => m.from === event.squareFrom)
            board.addLegalMovesMarkers(moves)
            return moves.length > 0
        }
        case INPUT_EVENT_TYPE.validateMoveInput: {
            board.removeLegalMovesMarkers()
            const moves = game.legal.filter((m) => m.from === event.squareFrom && m.to === event.squareTo)
            if (!moves.length) return false
            if (moves[0].promotion) {
                const color = game.turn === 'w' ? COLOR.white : COLOR.black
                board.showPromotionDialog(event.squareTo, color, (result) => {
                    if (result.type === PROMOTION_DIALOG_RESULT_TYPE.pieceSelected)
                        playMove(event.squareFrom + event.squareTo + result.piece.charAt(1))
                    else showPosition(true)
                })
            } else setTimeout(() => playMove(moves[0].uci))
            return true
        }
        case INPUT_EVENT_TYPE.moveInputCanceled:
            board.removeLegalMovesMarkers()
    }
}

/* A move typed in SAN (English or the chosen letters, with or without + #)
 * or UCI. */
function typedMove(text) {
    const plain = (s) => s.replace(/[+#!?]/g, '').replace(/^0-0(-0)?$/, (x) => x.replace(/0/g, 'O'))
    const t = plain(text.trim())
    return game.legal.find((m) => m.uci === t.toLowerCase() || plain(m.san) === t
        || plain(localSan(m.san, settings.lang)) === t)
}

/* ---- controls --------------------------------------------------------- */

function bindControls() {
    $('move-form').addEventListener('submit', (e) => {
        e.preventDefault()
        const m = humanToMove() && typedMove($('move-input').value)
        if (m) {
            $('move-input').value = ''
            playMove(m.uci)
        } else setStatus(`"${$('move-input').value}" is not a legal move here`)
    })
    $('takeback').addEventListener('click', () => {
        token++
        engine.stop()
        over = null
        // Against the robot, back to the human's previous turn.
        let plies = 1
        if (opponent === 'robot' && game.turn === human && game.moves.length >= 2) plies = 2
        game.undo(plies)
        // The clocks show again what they showed at that ply; the side to
        // move's runs (at the start, as in a new game, from the first move).
        if (clock) {
            clockHistory.length = game.moves.length + 1
            clock.restore(clockHistory[game.moves.length], game.moves.length ? game.turn : null)
        }
        showPosition(true)
        afterMove()
    })
    $('draw').addEventListener('click', () => {
        if (over) return
        if (opponent === 'friend') return ask('Agree a draw?', 'Yes, a draw', () => end('agreement'))
        ask('Offer Rokade a draw?', 'Yes, offer it', () => {
            if (robotEval && robotEval.mate === null && robotEval.score <= 0) end('agreement')
            else setStatus('Rokade declines the draw')
        })
    })
    $('claim').addEventListener('click', () => {
        if (!humanToMove() || !CLAIMS.includes(game.state)) return
        end(game.state)
        render()
    })
    $('resign').addEventListener('click', () => {
        if (over) return
        // Against the robot the player resigns, between friends the side to move.
        const loser = opponent === 'robot' ? human : game.turn
        const question = opponent === 'robot' ? 'Resign this game?' : `${COLOR_NAME[loser]} resigns?`
        ask(question, 'Yes, resign', () => end('resign', other(loser)))
    })
    $('confirm-yes').addEventListener('click', () => {
        const action = confirming
        closeConfirm()
        if (action && !over) {
            action()
            if (over) render()
        }
    })
    $('confirm-no').addEventListener('click', closeConfirm)
    $('resume-yes').addEventListener('click', () => answerResume(true))
    $('resume-no').addEventListener('click', () => answerResume(false))
    // A reload or a closed tab: the clocks' last times.
    document.addEventListener('visibilitychange', () => document.hidden && keepGame())
    window.addEventListener('pagehide', keepGame)
    $('flip').addEventListener('click', () => {
        board.setOrientation(board.getOrientation() === COLOR.white ? COLOR.black : COLOR.white, true)
        renderClocks()
    })
    $('fullscreen').addEventListener('click', () => {
        if (document.fullscreenElement) document.exitFullscreen()
        else document.documentElement.requestFullscreen().catch(() => setStatus('Full screen is not allowed here'))
    })
    $('review').addEventListener('click', startReview)
    $('review-end').addEventListener('click', showGameEnd)
    $('moves').addEventListener('click', (e) => {
        const span = e.target.closest('span[data-ply]')
        if (span) showReviewedMove(Number(span.dataset.ply))
    })
    $('moves').addEventListener('keydown', (e) => {
        const span = e.target.closest('span[data-ply]')
        if (span && (e.key === 'Enter' || e.key === ' ')) {
            e.preventDefault()
            showReviewedMove(Number(span.dataset.ply))
        }
    })
    $('copy-pgn').addEventListener('click', () => {
        navigator.clipboard.writeText($('pgn').value).then(() => setStatus('PGN copied'),
            () => $('pgn').select())
    })
    $('download-pgn').addEventListener('click', () => {
        const a = document.createElement('a')
        a.href = URL.createObjectURL(new Blob([$('pgn').value], {type: 'application/x-chess-pgn'}))
        a.download = 'rokade-game.pgn'
        a.click()
        URL.revokeObjectURL(a.href)
    })
}

async function start() {
    setStatus('Loading Rokade…')
    engine = new Engine()
    engine.onInfo = onInfo
    const engineReady = engine.init(Math.min(navigator.hardwareConcurrency || 1, 4))
    // The level settings need the engine's scale, from the rules module.
    await loadRules()
    bindSettings()
    await engineReady
    $('engine-kind').textContent = engine.threads ? 'threads build' : 'single-threaded build'
    document.body.dataset.engine = engine.threads ? 'threads' : 'single'
    board = new Chessboard($('board'), {
        position: START_FEN,
        assetsUrl: 'vendor/cm-chessboard/assets/',
        style: {pieces: {file: 'pieces/standard.svg'}, animationDuration: 200},
        extensions: [{class: Markers, props: {autoMarkers: MARKER_TYPE.frame}}, {class: PromotionDialog, props: {language: 'en'}}],
    })
    board.enableMoveInput(onBoardInput)
    bindControls()
    const saved = loadGame()
    try {
        if (saved) offerResume(saved)
    } catch {
        $('resume').hidden = true
        resumable = null
        saveGame(null) // not a game this page saved
    }
    newGame()
    document.body.dataset.ready = 'yes'
}

start()
