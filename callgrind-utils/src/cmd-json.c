#include "cli.h"

int cmd_json(int argc, char **argv)
{
	(void)argc; (void)argv;
	return CLI_USAGE;
}
