/* uuid.h - random (version 4) UUIDs for traces and clocks. */
#ifndef TRAX_UUID_H
#define TRAX_UUID_H

#include <stdint.h>

void trax_uuid_generate(uint8_t out[16]);
/* Formats a uuid as 36 characters plus NUL. */
void trax_uuid_format(const uint8_t uuid[16], char out[37]);
/* A new random uuid, formatted. */
void trax_uuid_string(char out[37]);

#endif /* TRAX_UUID_H */
