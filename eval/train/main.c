/* rokade-train, the network's trainer: its program is cli.c (train_main), its
 * computing part train.c. */
#include "train.h"

int main(int argc, char **argv) { return train_main(argc, argv); }
