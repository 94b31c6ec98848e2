/* cli-util.c - helpers shared by the command handlers. */
#include "cli.h"
