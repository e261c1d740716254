#ifndef COpenSSL_SHIM_H
#define COpenSSL_SHIM_H

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <openssl/err.h>
#include <openssl/core_names.h>

/// The GCM control codes are macros aliasing other macros; these give Swift one stable spelling.
static inline int baton_evp_gcm_set_ivlen(EVP_CIPHER_CTX *ctx, int length) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, length, NULL);
}
static inline int baton_evp_gcm_get_tag(EVP_CIPHER_CTX *ctx, int length, unsigned char *tag) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, length, tag);
}
static inline int baton_evp_gcm_set_tag(EVP_CIPHER_CTX *ctx, int length, unsigned char *tag) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, length, tag);
}

/// EVP_MAC_init with the digest named by `digest` (OSSL_PARAM arrays are built from macros Swift cannot import).
static inline int baton_hmac_init(EVP_MAC_CTX *ctx, const unsigned char *key, size_t key_length, const char *digest) {
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest, 0),
        OSSL_PARAM_construct_end(),
    };
    return EVP_MAC_init(ctx, key, key_length, params);
}

#endif
