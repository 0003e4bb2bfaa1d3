// Whether this process is shutting down, for GET /api/ready (a load balancer stops sending it new requests).
// On globalThis: the custom server and Next's bundle are two copies of this module in one process.
const KEY = Symbol.for('switchboard.shuttingDown');
type GlobalWithFlag = typeof globalThis & { [KEY]?: boolean };

export function markShuttingDown(): void {
  (globalThis as GlobalWithFlag)[KEY] = true;
}

export function isShuttingDown(): boolean {
  return (globalThis as GlobalWithFlag)[KEY] === true;
}

/** Tests: back to serving. */
export function resetShuttingDown(): void {
  delete (globalThis as GlobalWithFlag)[KEY];
}
