// How `npm start`, the benchmark and the end-to-end tests run the production server: `node <these> dist/server.js`.
//   --enable-source-maps     stack traces in logs point at server/*.ts, not the bundle
//   --max-semi-space-size=64 a young generation large enough that a request's short-lived objects die there:
//                            with V8's default (16 MB) they were promoted under load and old-space collections
//                            paused the event loop for 10–25 ms, which was the p99 of the chat path at 500 req/s
//                            (measured with `npm run bench`; costs ~70 MB of resident memory).
export const SERVER_NODE_ARGS = ['--enable-source-maps', '--max-semi-space-size=64'];
