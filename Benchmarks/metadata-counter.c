// Counts the Swift runtime's lookups of generic type metadata and of witness tables: loaded with LD_PRELOAD into a
// run of one variant, it prints the totals when the process exits. Generic code that runs unspecialized (a library's
// code for an app's endpoint type) asks the runtime for each generic type it touches, on every call; the difference
// between two counts of operations is a steady figure where timings on a shared machine are not. A floor: the
// runtime's calls within its own library do not go through the dynamic linker and are not counted. Built with the
// Swift toolchain's clang, which knows the runtime's calling convention:
//   clang -O2 -shared -fPIC -o metadata-counter.so Benchmarks/metadata-counter.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>

typedef struct {
    const void *value;
    size_t state;
} MetadataResponse;

static atomic_long genericLookups;
static atomic_long witnessTableLookups;

__attribute__((swiftcall)) MetadataResponse swift_getGenericMetadata(
    size_t request, const void *const *arguments, const void *description) {
    static __attribute__((swiftcall)) MetadataResponse (*next)(size_t, const void *const *, const void *);
    if (!next) next = dlsym(RTLD_NEXT, "swift_getGenericMetadata");
    atomic_fetch_add_explicit(&genericLookups, 1, memory_order_relaxed);
    return next(request, arguments, description);
}

const void *swift_getWitnessTable(const void *conformance, const void *type, const void *const *instantiationArgs) {
    static const void *(*next)(const void *, const void *, const void *const *);
    if (!next) next = dlsym(RTLD_NEXT, "swift_getWitnessTable");
    atomic_fetch_add_explicit(&witnessTableLookups, 1, memory_order_relaxed);
    return next(conformance, type, instantiationArgs);
}

__attribute__((destructor)) static void report(void) {
    fprintf(stderr, "generic metadata lookups: %ld, witness table lookups: %ld\n", atomic_load(&genericLookups),
            atomic_load(&witnessTableLookups));
}
