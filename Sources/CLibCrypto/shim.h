// OpenSSL's libcrypto, for SHA-256 through its EVP interface: the implementation it picks for
// the processor (the SHA extensions where there are some), about five times faster than
// portable code. Only what DiveStore calls is declared to Swift.
#include <openssl/evp.h>
