/* Rokade's version: the one place that the program (`id name Rokade
 * 1.0`), `make` and `make release` (the binaries' names) read it. A version
 * is cut by changing it here in a commit of its own, then `make release`
 * (README.md, "Download or build"). */
#ifndef ROKADE_VERSION_H
#define ROKADE_VERSION_H

#define ROKADE_VERSION "1.0"

#endif
