// Typed doors to libcurl's variadic functions, which Swift cannot call: one per argument type Courier passes.
#ifndef COURIER_CURL_H
#define COURIER_CURL_H

#include <curl/curl.h>
#include <stddef.h>

typedef size_t (*courier_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);
typedef int (*courier_curl_progress_callback)(
    void *context, curl_off_t download_total, curl_off_t downloaded, curl_off_t upload_total, curl_off_t uploaded);

CURLcode courier_curl_set_long(CURL *handle, CURLoption option, long value);
CURLcode courier_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode courier_curl_set_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode courier_curl_set_data_callback(CURL *handle, CURLoption option, courier_curl_data_callback callback);
CURLcode courier_curl_set_progress_callback(CURL *handle, courier_curl_progress_callback callback);
CURLcode courier_curl_set_seek_callback(CURL *handle, curl_seek_callback callback);
/// Copies `length` bytes at `bytes` into the handle (`CURL_BLOB_COPY`): certificates and keys.
CURLcode courier_curl_set_blob(CURL *handle, CURLoption option, const void *bytes, size_t length);

CURLcode courier_curl_info_long(CURL *handle, CURLINFO info, long *value);
CURLcode courier_curl_info_offset(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode courier_curl_info_string(CURL *handle, CURLINFO info, const char **value);

CURLMcode courier_curl_multi_set_long(CURLM *multi, CURLMoption option, long value);

/// A cookie jar for several easy handles: a share handle guarded by a mutex of its own, since easy handles join it
/// on one thread and run on another.
typedef struct courier_curl_cookie_jar courier_curl_cookie_jar;
/// A new, empty jar, or `NULL` when libcurl cannot make one.
courier_curl_cookie_jar *courier_curl_cookie_jar_make(void);
/// The share handle to give easy handles (`CURLOPT_SHARE`).
CURLSH *courier_curl_cookie_jar_share(courier_curl_cookie_jar *jar);
/// Frees the jar; every easy handle that joined it must have been cleaned up first.
void courier_curl_cookie_jar_free(courier_curl_cookie_jar *jar);

/// Names the calling thread as `top -H` and `/proc` show it: the first 15 bytes of `name`.
void courier_name_this_thread(const char *name);

#endif
