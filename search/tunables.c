/* The tunables as variables and their table, in a `make TUNE=1` build only
 * (tunables.h). */
#include "tunables.h"

#ifdef TUNE
#define TUNABLE_DEFINE(name, value, min, max) int name = (value);
SEARCH_TUNABLES(TUNABLE_DEFINE)
#undef TUNABLE_DEFINE

#define TUNABLE_ENTRY(name, value, min, max) {#name, &name, (value), (min), (max)},
const Tunable Tunables[] = {SEARCH_TUNABLES(TUNABLE_ENTRY)};
#undef TUNABLE_ENTRY
const int TunableCount = (int)(sizeof Tunables / sizeof Tunables[0]);
#else
typedef int TunablesAreConstants; /* nothing to define: they are enum constants */
#endif
