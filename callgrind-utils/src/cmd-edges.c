#include "cli.h"

int cmd_edges(int argc, char **argv)
{
	(void)argc; (void)argv;
	return CLI_USAGE;
}
