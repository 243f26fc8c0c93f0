// The embedded database served over the PostgreSQL wire protocol, for bench/pglite-socket.ts:
// PGlite (the service's own settings) in this process, behind `@electric-sql/pglite-socket` on
// 127.0.0.1 and a free port. Prints `ready <port>` once it listens; stops on SIGTERM.
//
//   node bench/pglite-socket-server.ts [max-connections] [data-dir]   (default 1; in memory)

import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

// The service's own PostgreSQL settings for the embedded database (PGLITE_SETTINGS in src/storage/database.ts).
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

const maxConnections = Number(process.argv[2] ?? 1);
const dataDir = process.argv[3];

const db = await PGlite.create({
  dataDir,
  startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
});
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections });
await server.start();
console.log(`ready ${server.getServerConn().split(':').pop()}`);

process.on('SIGTERM', async () => {
  await server.stop();
  await db.close();
  process.exit(0);
});
