// A process that logs through the production destination (blocks for sonic-boom) and ends, for logger.test.ts:
// `exit` ends it with process.exit(0), anything else lets the event loop run empty (beforeExit, then exit).
import { createLogger } from '@/server/observability/logger';

const logger = createLogger({});
for (let i = 0; i < 5; i++) logger.info({ i }, 'line');
if (process.argv[2] === 'exit') process.exit(0);
