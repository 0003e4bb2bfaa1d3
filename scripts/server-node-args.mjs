// How `npm start`, the benchmark and the end-to-end tests run the production server: `node <these> dist/server.js`.
//   (not --enable-source-maps: Node would parse and keep the source map of every module it loads, Next's runtime
//   and chunks too: ~35 MB of heap, ~20–30 MB of RSS in the embedded server, held for the life of the process;
//   and Next replaces Error.prepareStackTrace with an unmapped one, so logged stacks were not mapped by it. The
//   logger maps a stack's frames when it logs one: server/observability/source-mapped-stack.ts.)
//   --max-semi-space-size=64 (PostgreSQL only) a young generation large enough that a request's short-lived objects
//                            die there: with V8's default (16 MB) they were promoted under load and old-space
//                            collections paused the event loop for 10–25 ms, which was the p99 of the chat path at
//                            500 req/s (measured with `npm run bench`; costs ~70 MB of resident memory).
//                            Not on the embedded database (DATABASE_URL unset): there the database thread's work
//                            is the latency, not the collector, and V8 keeps a grown young generation committed
//                            for the life of the process. In the bench's embedded phases (2026-11-28, the same
//                            build and machine) the server's RSS at rest after the load phases was 431 MB with
//                            the 64 MB semi-spaces and 349 MB with V8's default, at the same latencies.
//   --heap-growing-percent=100 the old generation may grow to twice what the last full collection
//                            left before the next one. V8 chose its smallest factor (~1.1) for this server: with
//                            ~75 MB live, a full collection every ~3 s at 500 req/s, each with incremental steps of
//                            up to 16–28 ms and a final pause of 15–19 ms on the event loop — the p99. Same build and
//                            machine, 500 req/s, ABAB (2026-11-28): 17 full collections in 15 s and a p99 of 148 /
//                            118 ms with V8's choice, 5 (the idle collections only) and 24 / 12 ms with this flag.
//                            The memory it lets grow under load goes back when the server falls idle
//                            (server/http/idle-collection.ts). Embedded database too: the bench's embedded phases
//                            ABAB (2026-11-28, quick runs, same build and machine), added p99 at 1,000 req/s +143 /
//                            +335 ms without, +56 / +52 ms with; at 500 req/s +170 / +188 against +109 / +136 ms; RSS
//                            at rest 333 / 325 against 343 / 320 MB; CPU per request the same.
/** The server's node flags for this environment (the database is chosen by DATABASE_URL, as the server does). */
export function serverNodeArgs(env = process.env) {
  return env.DATABASE_URL ? ['--max-semi-space-size=64', '--heap-growing-percent=100'] : ['--heap-growing-percent=100'];
}

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
