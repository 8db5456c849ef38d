#include "CGpgme.h"

#include "CLoader.h"

#include <gpgme.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define FUNCTIONS(X) X(gpgme_check_version) X(gpgme_engine_check_version) X(gpgme_new) X(gpgme_release) \
    X(gpgme_set_protocol) X(gpgme_set_armor) X(gpgme_set_pinentry_mode) X(gpgme_signers_add) X(gpgme_get_key) \
    X(gpgme_op_keylist_start) X(gpgme_op_keylist_next) X(gpgme_op_keylist_end) X(gpgme_key_unref) \
    X(gpgme_data_new_from_fd) X(gpgme_data_release) X(gpgme_op_sign) X(gpgme_op_sign_result) \
    X(gpgme_op_encrypt_ext) X(gpgme_op_encrypt_sign_ext) X(gpgme_hash_algo_name) X(gpgme_strerror)

static struct {
    FUNCTIONS(SHARE_TABLE_FIELD)
} table;

/* GPGME's own start (it must run before any other call), and gpg there to run. */
static int start(char *error, size_t size) {
    (table.gpgme_check_version)(NULL);  /* the function, not the header's macro of the same name */
    gpgme_error_t failure = table.gpgme_engine_check_version(GPGME_PROTOCOL_OpenPGP);
    if (failure) {
        snprintf(error, size, "gpg cannot be run (%s): apt install gnupg", table.gpgme_strerror(failure));
        return -1;
    }
    return 0;
}

static struct share_library library = {
    .sonames = {"libgpgme.so.11"},
    .symbols = (const struct share_symbol[]){FUNCTIONS(SHARE_TABLE_SYMBOL) {NULL, NULL}},
    .missing = "GPGME is not installed (Debian: apt install libgpgme11)",
    .initialize = start,
};

static void say(char *error, size_t size, const char *what, gpgme_error_t failure) {
    if (error && size) snprintf(error, size, "%s: %s", what, table.gpgme_strerror(failure));
}

/* A context for OpenPGP with armored output, asking for passphrases
   through gpg-agent only when may_ask. */
static gpgme_ctx_t context(int may_ask, char *error, size_t size) {
    gpgme_ctx_t ctx = NULL;
    gpgme_error_t failure = table.gpgme_new(&ctx);
    if (!failure) failure = table.gpgme_set_protocol(ctx, GPGME_PROTOCOL_OpenPGP);
    if (!failure) failure = table.gpgme_set_pinentry_mode(ctx, may_ask ? GPGME_PINENTRY_MODE_DEFAULT : GPGME_PINENTRY_MODE_CANCEL);
    if (failure) {
        say(error, size, "GPGME could not start", failure);
        if (ctx) table.gpgme_release(ctx);
        return NULL;
    }
    table.gpgme_set_armor(ctx, 1);
    return ctx;
}

static int usable(gpgme_key_t key, int secret) {
    if (key->revoked || key->expired || key->disabled || key->invalid) return 0;
    return secret ? key->secret && key->can_sign : key->can_encrypt;
}

int share_pgp_find_key(const char *pattern, int secret, char *fingerprint, size_t fingerprint_size,
                       char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    gpgme_ctx_t ctx = context(0, error, error_size);
    if (!ctx) return -1;
    int found = 0;
    gpgme_error_t failure = table.gpgme_op_keylist_start(ctx, pattern, secret);
    gpgme_key_t key = NULL;
    while (!failure && !(failure = table.gpgme_op_keylist_next(ctx, &key))) {
        if (!found && usable(key, secret) && key->fpr && strlen(key->fpr) < fingerprint_size) {
            strcpy(fingerprint, key->fpr);
            found = 1;
        }
        table.gpgme_key_unref(key);
    }
    table.gpgme_op_keylist_end(ctx);
    table.gpgme_release(ctx);
    if (gpgme_err_code(failure) != GPG_ERR_EOF) {
        say(error, error_size, "gpg could not list the keys", failure);
        return -1;
    }
    return found;
}

/* Whether failure means gpg-agent would have had to ask for a passphrase. */
static int wanted_passphrase(gpgme_error_t failure) {
    switch (gpgme_err_code(failure)) {
    case GPG_ERR_CANCELED:
    case GPG_ERR_NO_PIN_ENTRY:
    case GPG_ERR_NO_PASSPHRASE:
    case GPG_ERR_BAD_PASSPHRASE:
    case GPG_ERR_FULLY_CANCELED:
        return 1;
    default:
        return 0;
    }
}

/* Adds the secret key `signer` to the context's signers. */
static int add_signer(gpgme_ctx_t ctx, const char *signer, char *error, size_t size) {
    gpgme_key_t key = NULL;
    gpgme_error_t failure = table.gpgme_get_key(ctx, signer, &key, 1);
    if (!failure) failure = table.gpgme_signers_add(ctx, key);
    if (key) table.gpgme_key_unref(key);
    if (failure) {
        char what[160];
        snprintf(what, sizeof what, "the secret key %s cannot sign", signer);
        say(error, size, what, failure);
        return -1;
    }
    return 0;
}

/* Data objects on in_fd and out_fd. */
static int streams(int in_fd, int out_fd, gpgme_data_t *in, gpgme_data_t *out, char *error, size_t size) {
    gpgme_error_t failure = table.gpgme_data_new_from_fd(in, in_fd);
    if (!failure) failure = table.gpgme_data_new_from_fd(out, out_fd);
    if (failure) {
        say(error, size, "GPGME could not read the message", failure);
        if (*in) table.gpgme_data_release(*in);
        return -1;
    }
    return 0;
}

int share_pgp_sign(const char *signer, int may_ask, int in_fd, int out_fd, char *micalg, size_t micalg_size,
                   char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    gpgme_ctx_t ctx = context(may_ask, error, error_size);
    if (!ctx) return -1;
    gpgme_data_t in = NULL, out = NULL;
    int result = -1;
    if (add_signer(ctx, signer, error, error_size) == 0 && streams(in_fd, out_fd, &in, &out, error, error_size) == 0) {
        gpgme_error_t failure = table.gpgme_op_sign(ctx, in, out, GPGME_SIG_MODE_DETACH);
        gpgme_sign_result_t signed_ = failure ? NULL : table.gpgme_op_sign_result(ctx);
        if (failure) {
            result = !may_ask && wanted_passphrase(failure) ? -2 : -1;
            say(error, error_size, "gpg could not sign", failure);
        } else if (!signed_ || !signed_->signatures || signed_->invalid_signers) {
            snprintf(error, error_size, "gpg made no signature with %s", signer);
        } else {
            const char *hash = table.gpgme_hash_algo_name(signed_->signatures->hash_algo);
            snprintf(micalg, micalg_size, "pgp-%s", hash ? hash : "sha256");
            for (char *c = micalg; *c; c++) if (*c >= 'A' && *c <= 'Z') *c += 'a' - 'A';
            result = 0;
        }
        table.gpgme_data_release(in);
        table.gpgme_data_release(out);
    }
    table.gpgme_release(ctx);
    return result;
}

int share_pgp_encrypt(const char *recipients, const char *signer, int may_ask, int in_fd, int out_fd,
                      char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    gpgme_ctx_t ctx = context(may_ask, error, error_size);
    if (!ctx) return -1;
    gpgme_data_t in = NULL, out = NULL;
    int result = -1;
    if ((!signer || add_signer(ctx, signer, error, error_size) == 0) && streams(in_fd, out_fd, &in, &out, error, error_size) == 0) {
        gpgme_error_t failure = signer ? table.gpgme_op_encrypt_sign_ext(ctx, NULL, recipients, 0, in, out)
                                       : table.gpgme_op_encrypt_ext(ctx, NULL, recipients, 0, in, out);
        if (failure) {
            result = !may_ask && wanted_passphrase(failure) ? -2 : -1;
            say(error, error_size, signer ? "gpg could not sign and encrypt" : "gpg could not encrypt", failure);
        } else {
            result = 0;
        }
        table.gpgme_data_release(in);
        table.gpgme_data_release(out);
    }
    table.gpgme_release(ctx);
    return result;
}
