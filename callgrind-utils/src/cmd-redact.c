#include "cli.h"

int cmd_redact(int argc, char **argv)
{
	(void)argc; (void)argv;
	return CLI_USAGE;
}
