#include "CCourierCurl.h"

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
