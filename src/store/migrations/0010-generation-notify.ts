import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

/**
 * PostgreSQL: every change of the index generation is announced on the channel
 * `index_generation` (payload: the new generation), delivered when the block's transaction
 * commits, so API processes know it without asking (postgres/generation-listener.ts). A trigger
 * rather than a statement of the indexer's, so that whatever moves the generation announces it.
 * SQLite has no such channel: its readers ask (a read of one row in the same process).
 */
export function generationNotify(dialect: StoreDialect): Migration {
    return {
        async up(db: Kysely<any>) {
            if (dialect !== 'postgres') return;
            await sql`CREATE FUNCTION announce_index_generation() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_notify('index_generation', NEW.generation::text);
                    RETURN NEW;
                END $$`.execute(db);
            await sql`CREATE TRIGGER index_generation_announced AFTER UPDATE ON index_generation
                FOR EACH ROW EXECUTE FUNCTION announce_index_generation()`.execute(db);
        },
    };
}
