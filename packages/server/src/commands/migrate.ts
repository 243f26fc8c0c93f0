import { Command } from 'commander';
import { loadConfig } from '../config/config.js';
import { migrateToLatest, openDatabase } from '../storage/database.js';

/** `scrub-server migrate`: for deployments that migrate before rolling out, rather than at start. */
export function migrateCommand(): Command {
  return new Command('migrate')
    .description('Bring the database schema up to date and exit')
    .action(async () => {
      const config = loadConfig();
      const database = await openDatabase(config.database);
      try {
        const applied = await migrateToLatest(database.db);
        process.stdout.write(
          applied.length ? `Applied: ${applied.join(', ')}\n` : 'The database is up to date.\n',
        );
      } finally {
        await database.close();
      }
    });
}
