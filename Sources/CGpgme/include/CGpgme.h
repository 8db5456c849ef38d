#ifndef SHARE_CGPGME_H
#define SHARE_CGPGME_H
/* OpenPGP through GPGME (Debian libgpgme11), loaded with dlopen on first
   use: a mail that is neither signed nor encrypted never pays for it.
   Every operation reads from and writes to file descriptors, so a message
   of any size goes through with flat memory; the output is ASCII-armored
   (LF line ends, which the MIME writer makes CRLF). */
#include <stddef.h>

/* The fingerprint of the first usable key that `pattern` names (`<addr>`
   for an exact address, or a fingerprint): not revoked, expired,
   disabled or invalid, and able to sign (secret) or encrypt. Returns 1
   with it in fingerprint, 0 when there is none, -1 with a reason in error. */
int share_pgp_find_key(const char *pattern, int secret, char *fingerprint, size_t fingerprint_size,
                       char *error, size_t error_size);

/* A detached, armored signature by the key `signer` (a fingerprint) of
   what in_fd holds, written to out_fd; micalg gets the hash as RFC 3156
   names it (pgp-sha256). With may_ask 0 gpg-agent must not ask for a
   passphrase: when it would have to, returns -2. Returns 0, or -1 with a
   reason in error. */
int share_pgp_sign(const char *signer, int may_ask, int in_fd, int out_fd, char *micalg, size_t micalg_size,
                   char *error, size_t error_size);

/* What in_fd holds encrypted (armored) to `recipients`, one fingerprint a
   line, where a line `--hidden` hides the key ids of the fingerprints
   after it; signed in the same step by `signer` when it is not NULL.
   may_ask and the returns as for share_pgp_sign. */
int share_pgp_encrypt(const char *recipients, const char *signer, int may_ask, int in_fd, int out_fd,
                      char *error, size_t error_size);
#endif
