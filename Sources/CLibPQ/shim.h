#ifndef CLibPQ_SHIM_H
#define CLibPQ_SHIM_H

#include <libpq-fe.h>
#include <postgres_ext.h>
#include <sys/epoll.h> /* an event loop waits on a pipelined connection's socket through an epoll set */

/// PG_DIAG_SQLSTATE is a character-literal macro; this gives Swift the five-character SQLSTATE of a result.
static inline const char *baton_pq_sqlstate(const PGresult *result) {
    return PQresultErrorField(result, PG_DIAG_SQLSTATE);
}

#endif
