// How `npm start`, the benchmark and the end-to-end tests run the production server: `node <these> dist/server.js`.
//   --enable-source-maps     stack traces in logs point at server/*.ts, not the bundle
//   --max-semi-space-size=64 a young generation large enough that a request's short-lived objects die there:
//                            with V8's default (16 MB) they were promoted under load and old-space collections
//                            paused the event loop for 10–25 ms, which was the p99 of the chat path at 500 req/s
//                            (measured with `npm run bench`; costs ~70 MB of resident memory).
export const SERVER_NODE_ARGS = ['--enable-source-maps', '--max-semi-space-size=64'];

// And with this environment (the caller's own environment wins):
//   MALLOC_ARENA_MAX=2       glibc gives every thread that allocates (the main thread, the embedded database's
//                            thread, libuv's and V8's helpers) an arena of its own, up to 8 per core, and keeps
//                            their freed memory: with the embedded database, 2 arenas left the server ~80 MB
//                            smaller after load (612/665 → 552/560 MB RSS in A/B runs) at no measurable CPU cost.
//   MALLOC_MMAP_THRESHOLD_=32768  blocks of 32 KiB or more get a mapping of their own, unmapped when freed. Most
//                            of them are V8's compiler memory (PGlite's WASM above all: ~100 MB at its peak, at
//                            start), freed at once but kept resident by glibc behind the heap's live blocks:
//                            malloc_trim(0), called from a debugger in a loaded server, gave back 113 MB. Embedded
//                            database: ~480 → ~375 MB at start, the main heap ([heap] in smaps) 100 → 2 MB after
//                            load (with 131072 it still held 63 MB); ~0.5 mmap/munmap calls more per chat request
//                            (strace at 500 req/s). Setting it also stops glibc from raising it by itself.
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '32768' };
