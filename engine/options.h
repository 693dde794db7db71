/* The UCI options. One table (options.c) holds each option's name, type,
 * default, range, description and setter; `uci`, `setoption` and `help` all
 * work from it. */
#ifndef ROKADE_OPTIONS_H
#define ROKADE_OPTIONS_H

#include "engine.h"

/* Gives every option its default through its setter. Call once, after
 * search_init. */
void options_init(Engine *e);
/* The `option name ...` lines of the answer to `uci`. */
void options_print_uci(void);
/* One line per option for `help`: the name and its description. */
void options_print_help(void);
/* `setoption name <name> [value <value>]`: finds the option (the name
 * case-insensitively), reads and clamps the value and applies it. Anything
 * refused or changed is said in an `info string error`. */
void options_set(Engine *e, const char *name, const char *value);

#endif
