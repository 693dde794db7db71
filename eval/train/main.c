/* rokade-train, the network's trainer: everything is in eval/train.c. */
#include "train.h"

int main(int argc, char **argv) { return train_main(argc, argv); }
