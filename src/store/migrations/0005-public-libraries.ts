import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreDialect } from '../schema.ts';

/**
 * The chain's public libraries: cells masterchain accounts publish (StateInit `library` entries
 * marked public), which library cells in any contract's code stand for. One row per library and
 * publisher; a library stays available while any publisher keeps it.
 */
export function publicLibraries(dialect: StoreDialect): Migration {
    const bytes = dialect === 'postgres' ? sql`bytea` : sql`blob`;
    return {
        async up(db: Kysely<any>) {
            await db.schema.createTable('public_libraries')
                /** 64 lowercase hex characters: the hash of the library's root cell. */
                .addColumn('hash', 'text', c => c.notNull())
                /** Raw address of the masterchain account publishing it. */
                .addColumn('publisher', 'text', c => c.notNull())
                /** BOC of the library's root cell. */
                .addColumn('boc', bytes, c => c.notNull())
                .addPrimaryKeyConstraint('public_libraries_pk', ['hash', 'publisher'])
                .execute();
            await db.schema.createIndex('public_libraries_publisher').on('public_libraries').column('publisher').execute();
        },
    };
}
