#ifndef TESTUTIL_H
#define TESTUTIL_H
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <callgrind-utils/callgrind-utils.h>
#endif
