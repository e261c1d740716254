#ifndef CMicroHTTPD_SHIM_H
#define CMicroHTTPD_SHIM_H

#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>

#endif
