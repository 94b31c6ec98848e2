/* callgrind-utils.h - everything of libcallgrind-utils.
 *
 * Layers: parse.h (Callgrind text -> model) -> model.h (plain data) ->
 * output.h and transform.h; cct.h for the exact stacks beside a profile
 * (parser, model and outputs).  buf.h and arena.h are the memory helpers
 * shared by all of them.
 */
#ifndef CALLGRIND_UTILS_H
#define CALLGRIND_UTILS_H

#include <callgrind-utils/arena.h>
#include <callgrind-utils/buf.h>
#include <callgrind-utils/cct.h>
#include <callgrind-utils/error.h>
#include <callgrind-utils/model.h>
#include <callgrind-utils/parse.h>
#include <callgrind-utils/output.h>
#include <callgrind-utils/source.h>
#include <callgrind-utils/transform.h>

#define CGU_VERSION_STRING "0.1.0"

#endif
