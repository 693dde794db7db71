/* Rokade: command line entry. Each argument is run as a UCI command and the
 * program exits ("./rokade bench", "./rokade 'position startpos' 'go depth 9'");
 * a shell command with separate words ("./rokade perft 6 FEN...") is joined
 * into one line first. Without arguments the UCI loop reads stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../movegen/platform/platform.h"
#include "uci.h"

static bool is_shell_command(const char *s)
{
    static const char *const Cmds[] = {"perft",   "perftsuite", "bench", "datagen",
                                       "genfens", "review",     NULL};
    for (int i = 0; Cmds[i]; i++)
        if (!strcmp(s, Cmds[i]))
            return true;
    return false;
}

int main(int argc, char **argv)
{
    int status = 0;
    uci_init();
    if (argc > 1 && is_shell_command(argv[1])) {
        size_t len = 1;
        for (int i = 1; i < argc; i++)
            len += strlen(argv[i]) + 1;
        char *line = malloc(len);
        if (!line)
            return 1;
        line[0] = '\0';
        for (int i = 1; i < argc; i++) {
            strcat(line, argv[i]);
            if (i + 1 < argc)
                strcat(line, " ");
        }
        status = uci_shell_command(line);
        free(line);
    } else if (argc > 1) {
        for (int i = 1; i < argc; i++)
            if (!uci_command(argv[i]))
                break;
        uci_finish();
    } else {
        if (plat_stdin_is_terminal())
            uci_print("Rokade %s, a UCI chess engine. Type 'help' for the commands.",
                      ROKADE_VERSION);
        uci_loop();
    }
    uci_shutdown();
    return status;
}
