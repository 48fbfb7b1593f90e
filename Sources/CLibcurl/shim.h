// libcurl's API, as the system installs it (libcurl4-openssl-dev on Debian and Ubuntu).
#include <curl/curl.h>
