import type { Migration, MigrationProvider } from 'kysely';
import type { StoreDialect } from '../store.ts';
import { initialSchema } from './0001-initial.ts';
import { tokensAndWallets } from './0002-tokens-and-wallets.ts';

/** Versioned migrations, applied in name order at start. Never edit a released one; add the next. */
export function migrationProvider(dialect: StoreDialect): MigrationProvider {
    return {
        async getMigrations(): Promise<Record<string, Migration>> {
            return {
                '0001-initial': initialSchema(dialect),
                '0002-tokens-and-wallets': tokensAndWallets(dialect),
            };
        },
    };
}
