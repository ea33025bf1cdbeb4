// OpenSSL's libcrypto: the SHA-256 that ties a chunk file to its done record (VRenderScale's
// ChunkHash). Its digests use the CPU's SHA instructions where there are some.
#ifndef VRENDER_CCRYPTO_SHIM_H
#define VRENDER_CCRYPTO_SHIM_H
#include <openssl/evp.h>
#endif
