#ifndef CMicroHTTPD_SHIM_H
#define CMicroHTTPD_SHIM_H

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <microhttpd.h>

/* Swift cannot call C variadic functions, so every variadic MHD entry point Baton needs has a typed wrapper here. */

typedef void *(*baton_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

/* Starts an external-poll daemon (the caller runs it with MHD_run) accepting on `listen_fd`, which it then owns
   (closed when it stops, or handed back by MHD_quiesce_daemon); several daemons may accept on duplicates of one
   socket (see baton_listen_socket). `host` is the address the socket is bound to (an IPv6 literal sets
   MHD_USE_IPv6). Returns NULL when MHD cannot start. */
static inline struct MHD_Daemon *baton_mhd_start(
    unsigned int flags, const char *host, int listen_fd,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    baton_mhd_uri_log_callback uri_log, void *uri_log_cls,
    MHD_NotifyConnectionCallback notify_connection, void *notify_connection_cls,
    size_t connection_memory_limit, unsigned int connection_limit, unsigned int connection_timeout_seconds,
    int strict) {
    struct in6_addr v6;
    if (inet_pton(AF_INET6, host, &v6) == 1) flags |= MHD_USE_IPv6;
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, handler_cls,
        MHD_OPTION_LISTEN_SOCKET, listen_fd,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_cls,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_STRICT_FOR_CLIENT, strict,
        MHD_OPTION_END);
}

/* A non-blocking TCP socket listening on `host` (an IPv4 or IPv6 literal) and `port` (0 = ephemeral), for several
   external-poll daemons to accept from (each on a duplicate); -1 when the address does not parse or the socket
   cannot be bound. */
static inline int baton_listen_socket(const char *host, uint16_t port, int backlog) {
    struct sockaddr_storage storage;
    socklen_t length;
    int one = 1;
    memset(&storage, 0, sizeof storage);
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof *v6;
    } else {
        return -1;
    }
    int fd = socket(storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (storage.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0
        || bind(fd, (const struct sockaddr *)&storage, length) != 0 || listen(fd, backlog) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* The port the socket `fd` is bound to, or 0. */
static inline uint16_t baton_socket_port(int fd) {
    struct sockaddr_storage storage;
    socklen_t length = sizeof storage;
    if (getsockname(fd, (struct sockaddr *)&storage, &length) != 0) return 0;
    if (storage.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&storage)->sin_port);
    if (storage.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&storage)->sin6_port);
    return 0;
}

/* The epoll descriptor of a daemon started with MHD_USE_EPOLL and no internal thread, or -1. */
static inline int baton_mhd_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info == NULL ? -1 : info->epoll_fd;
}

/* Milliseconds until an external-poll daemon must run again without I/O (a connection's timeout), or -1. */
static inline long long baton_mhd_timeout_ms(struct MHD_Daemon *daemon) {
    MHD_UNSIGNED_LONG_LONG timeout = 0;
    if (MHD_get_timeout(daemon, &timeout) != MHD_YES) return -1;
    return timeout > (MHD_UNSIGNED_LONG_LONG)INT32_MAX ? INT32_MAX : (long long)timeout;
}

/* Writes the client's address as text into `buffer`; returns 0 on success, -1 otherwise. */
static inline int baton_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return -1;
    const struct sockaddr *address = info->client_addr;
    const void *raw = NULL;
    if (address->sa_family == AF_INET) raw = &((const struct sockaddr_in *)address)->sin_addr;
    else if (address->sa_family == AF_INET6) raw = &((const struct sockaddr_in6 *)address)->sin6_addr;
    else return -1;
    return inet_ntop(address->sa_family, raw, buffer, size) == NULL ? -1 : 0;
}

/* The connection's socket, or -1. */
static inline int baton_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The pointer stored in the connection's socket context by the connection-notification callback, or NULL. */
static inline void *baton_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* Milliseconds since the kernel last received data on the TCP socket `fd` (`tcpi_last_data_recv`), or -1. */
static inline long long baton_tcp_ms_since_data_received(int fd) {
    struct tcp_info info;
    socklen_t size = sizeof info;
    memset(&info, 0, sizeof info);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) != 0) return -1;
    return (long long)info.tcpi_last_data_recv;
}

#endif
