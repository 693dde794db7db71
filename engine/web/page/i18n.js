/* Piece letters of the move list by language (FIDE Laws, Appendix C) and
 * the names of the game's endings with the article of the Laws. */
export const LANGUAGES = {
    en: {name: 'English', letters: 'KQRBN'},
    nl: {name: 'Nederlands', letters: 'KDTLP'},
    da: {name: 'Dansk', letters: 'KDTLS'},
    af: {name: 'Afrikaans', letters: 'KDTLR'},
}

/* SAN with the language's piece letters (the pieces' and promotions'). */
export function localSan(san, lang) {
    const letters = (LANGUAGES[lang] || LANGUAGES.en).letters
    return san.replace(/[KQRBN]/g, (c) => letters['KQRBN'.indexOf(c)])
}

/* Ending -> [text, article]; `winner` fills in who won. */
export const ENDINGS = {
    checkmate: ['Checkmate', '5.1.1'],
    stalemate: ['Stalemate', '5.2.1'],
    dead: ['Dead position', '5.2.2'],
    fivefold: ['Fivefold repetition', '9.6.1'],
    seventyFive: ['Seventy-five-move rule', '9.6.2'],
    threefold: ['Threefold repetition claimed', '9.2'],
    fifty: ['Fifty-move rule claimed', '9.3'],
    resign: ['Resignation', '5.1.2'],
    agreement: ['Draw by agreement', '5.2.3'],
    flag: ['Time forfeit', '6.9'],
    flagNoMate: ['Time forfeit, but the opponent cannot mate', '6.9'],
}
