#include "cli.h"

int cmd_summary(int argc, char **argv)
{
	(void)argc; (void)argv;
	return CLI_USAGE;
}
