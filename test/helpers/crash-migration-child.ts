/**
 * A child process for the crash-safety test: opens the index of the data directory given as its
 * argument exactly as the service does (`openStore`), and kills itself with SIGKILL in the middle
 * of the schema migration — right before the first DDL statement after `create table "blocks"`.
 * Exits with code 3 if the migration ran to its end without reaching that point.
 */
import Database from 'better-sqlite3';
import { openStore } from '../../src/store/store.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: crash-migration-child.ts DATA_DIR');

const prepare = Database.prototype.prepare;
let blocksCreated = false;
Database.prototype.prepare = function (this: Database.Database, source: string) {
    if (blocksCreated && /^\s*create\s/i.test(source)) process.kill(process.pid, 'SIGKILL');
    if (/^\s*create table "blocks"/i.test(source)) blocksCreated = true;
    return prepare.call(this, source);
} as typeof prepare;

await openStore({ dataDir });
process.stderr.write('the migration finished without being interrupted\n');
process.exit(3);
