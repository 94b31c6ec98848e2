#include "cli.h"

int cmd_fold(int argc, char **argv)
{
	(void)argc; (void)argv;
	return CLI_USAGE;
}
