/* The engine's browser entry: the Web Worker (engine-worker.js) calls
 * web_init once and web_command for every UCI line, the same uci_command the
 * native program runs. Printed lines go to the worker's Module.onLine; in the
 * threads build a search thread's lines are handed to the worker's own
 * thread (asynchronously, so a search never waits for the page). */
#include <emscripten.h>
#include <stdlib.h>
#include <string.h>

#include "../uci.h"

#ifdef __EMSCRIPTEN_PTHREADS__
#include <emscripten/threading.h>
#endif

/* Called from JavaScript only. */
void web_init(void);
int web_command(const char *line);

EM_JS(void, web_emit, (const char *line), { Module.onLine(UTF8ToString(line)); });

#ifdef __EMSCRIPTEN_PTHREADS__
static void emit_and_free(char *line)
{
    web_emit(line);
    free(line);
}
#endif

static void web_output(const char *line)
{
#ifdef __EMSCRIPTEN_PTHREADS__
    if (!emscripten_is_main_runtime_thread()) {
        char *copy = strdup(line);
        if (copy)
            emscripten_async_run_in_main_runtime_thread(EM_FUNC_SIG_VI, emit_and_free, copy);
        return;
    }
#endif
    web_emit(line);
}

EMSCRIPTEN_KEEPALIVE void web_init(void)
{
    uci_set_output(web_output);
    uci_init();
}

/* Returns 0 after `quit`. */
EMSCRIPTEN_KEEPALIVE int web_command(const char *line) { return uci_command(line); }
