/* The UCI front end: the command loop and every command handler. */
#ifndef ROKADE_UCI_H
#define ROKADE_UCI_H

#include <stdbool.h>

#include "../movegen/platform/platform.h"
#include "version.h"

/* Prints one whole line to stdout (thread-safe, flushed). */
void uci_print(const char *fmt, ...) PLAT_PRINTF(1, 2);
/* Sends uci_print's lines (without the newline) to out instead of stdout;
 * the browser's worker (engine/web/) sets it. Called under the output lock. */
void uci_set_output(void (*out)(const char *line));

void uci_init(void);
/* Handles one input line; returns false after `quit`. */
bool uci_command(const char *line);
/* Runs one command given on the command line; returns the exit status (2
 * when datagen fails: its one-line error goes to stderr). */
int uci_shell_command(const char *line);
/* Reads stdin until end of input or `quit`. */
void uci_loop(void);
/* Ends like end of input: waits for a finite search, stops an endless one. */
void uci_finish(void);
void uci_shutdown(void);

/* The current game position (the one `position` set); for tests and fuzzing. */
struct Position;
const struct Position *uci_position(void);

#endif
