#include "cli.h"

int cmd_symbolize(int argc, char **argv)
{
	(void)argc; (void)argv;
	return CLI_USAGE;
}
