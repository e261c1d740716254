#ifndef CFUZZER_SHIM_H
#define CFUZZER_SHIM_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver entry point (linked in by -sanitize=fuzzer).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
#endif
