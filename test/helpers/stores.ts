import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type Store } from '../../src/store/store.ts';

export interface StoreBackend {
    name: string;
    /** A fresh, empty, migrated index. */
    open(): Promise<Store & { dispose(): Promise<void> }>;
}

export function tempDir(prefix = 'native-explorer-'): { path: string; remove(): void } {
    const path = mkdtempSync(join(tmpdir(), prefix));
    return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

const sqlite: StoreBackend = {
    name: 'sqlite',
    async open() {
        const dir = tempDir();
        const store = await openStore({ dataDir: dir.path });
        return Object.assign(store, {
            async dispose() {
                await store.close();
                dir.remove();
            },
        });
    },
};

/** A new, empty database on the PostgreSQL server of `serverUrl` (e.g. TEST_PG_URL); `drop` removes it. */
export async function createTestDatabase(serverUrl: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const name = `ne_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const target = new URL(serverUrl);
    target.pathname = `/${name}`;
    return {
        name,
        url: target.toString(),
        async drop() {
            const cleanup = new pg.Client({ connectionString: serverUrl });
            await cleanup.connect();
            await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await cleanup.end();
        },
    };
}

/** A new database on the server of TEST_PG_URL for every store, dropped afterwards. */
function postgres(url: string): StoreBackend {
    return {
        name: 'postgres',
        async open() {
            const database = await createTestDatabase(url);
            const store = await openStore({ url: database.url, dataDir: tmpdir() });
            return Object.assign(store, {
                async dispose() {
                    await store.close();
                    await database.drop();
                },
            });
        },
    };
}

/** SQLite always; PostgreSQL too when TEST_PG_URL is set (and then it must work). */
export function storeBackends(): StoreBackend[] {
    const url = process.env.TEST_PG_URL;
    return url ? [sqlite, postgres(url)] : [sqlite];
}
