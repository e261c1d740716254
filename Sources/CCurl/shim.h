#ifndef CCurl_SHIM_H
#define CCurl_SHIM_H

#include <curl/curl.h>
#include <sys/epoll.h>

/* Swift cannot call C variadic functions: typed wrappers for the setopt/getinfo calls Baton makes. */

static inline CURLcode baton_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode baton_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode baton_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode baton_curl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode baton_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode baton_curl_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode baton_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode baton_curl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}

static inline CURLMcode baton_curl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
}

static inline CURLMcode baton_curl_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
}

/* CURL_SOCKET_TIMEOUT is a macro of a macro: the socket argument that tells curl_multi_socket_action a timer fired. */
static const curl_socket_t baton_curl_socket_timeout = CURL_SOCKET_TIMEOUT;

/* The result code of a finished transfer (CURLMsg keeps it in a union). */
static inline CURLcode baton_curl_message_result(const CURLMsg *message) { return message->data.result; }

#endif
