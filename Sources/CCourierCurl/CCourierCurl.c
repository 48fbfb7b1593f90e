#define _GNU_SOURCE
#include "CCourierCurl.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

CURLcode courier_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode courier_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode courier_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode courier_curl_set_data_callback(CURL *handle, CURLoption option, courier_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

CURLcode courier_curl_set_progress_callback(CURL *handle, courier_curl_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

CURLcode courier_curl_set_seek_callback(CURL *handle, curl_seek_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}

CURLcode courier_curl_set_blob(CURL *handle, CURLoption option, const void *bytes, size_t length) {
    struct curl_blob blob = {(void *)bytes, length, CURL_BLOB_COPY};
    return curl_easy_setopt(handle, option, &blob);
}

CURLcode courier_curl_info_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode courier_curl_info_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode courier_curl_info_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode courier_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

struct courier_curl_cookie_jar {
    CURLSH *share;
    pthread_mutex_t mutex;
};

/// One mutex for both kinds of data this share locks (its cookies and its own state): libcurl 7.88 never takes one of
/// these while holding the other. Sharing more (DNS, connections, the public suffix list) would call for a mutex per
/// kind, since libcurl may then hold two at once.
static void courier_jar_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *jar) {
    (void)handle;
    (void)data;
    (void)access;
    pthread_mutex_lock(&((courier_curl_cookie_jar *)jar)->mutex);
}

static void courier_jar_unlock(CURL *handle, curl_lock_data data, void *jar) {
    (void)handle;
    (void)data;
    pthread_mutex_unlock(&((courier_curl_cookie_jar *)jar)->mutex);
}

courier_curl_cookie_jar *courier_curl_cookie_jar_make(void) {
    courier_curl_cookie_jar *jar = malloc(sizeof(courier_curl_cookie_jar));
    if (jar == NULL) return NULL;
    if (pthread_mutex_init(&jar->mutex, NULL) != 0) {
        free(jar);
        return NULL;
    }
    jar->share = curl_share_init();
    if (jar->share == NULL || curl_share_setopt(jar->share, CURLSHOPT_LOCKFUNC, courier_jar_lock) != CURLSHE_OK
        || curl_share_setopt(jar->share, CURLSHOPT_UNLOCKFUNC, courier_jar_unlock) != CURLSHE_OK
        || curl_share_setopt(jar->share, CURLSHOPT_USERDATA, jar) != CURLSHE_OK
        || curl_share_setopt(jar->share, CURLSHOPT_SHARE, CURL_LOCK_DATA_COOKIE) != CURLSHE_OK) {
        if (jar->share != NULL) curl_share_cleanup(jar->share);
        pthread_mutex_destroy(&jar->mutex);
        free(jar);
        return NULL;
    }
    return jar;
}

CURLSH *courier_curl_cookie_jar_share(courier_curl_cookie_jar *jar) { return jar->share; }

void courier_curl_cookie_jar_free(courier_curl_cookie_jar *jar) {
    curl_share_cleanup(jar->share);
    pthread_mutex_destroy(&jar->mutex);
    free(jar);
}

void courier_name_this_thread(const char *name) {
    char kept[16];
    snprintf(kept, sizeof kept, "%s", name);
    pthread_setname_np(pthread_self(), kept);
}
