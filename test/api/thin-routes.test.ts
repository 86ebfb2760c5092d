import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

/**
 * Handlers parse input, call the store's read side or a service, and hand what they get to a
 * presenter: decoding rows and JSON columns is the store's work, mapping failures to statuses the
 * error hook's. These read the sources, so a handler that starts doing either fails here.
 */

const SRC = new URL('../../src/', import.meta.url);

/** The TypeScript sources of a folder of src/ (`api/routes`), and of its sub-folders with `deep`. */
function sources(folder: string, deep = false): Array<{ name: string; text: string }> {
    const dir = fileURLToPath(new URL(`${folder}/`, SRC));
    return readdirSync(dir, { recursive: deep, encoding: 'utf8' }).filter(name => name.endsWith('.ts'))
        .map(name => ({ name: `${folder}/${name}`, text: readFileSync(`${dir}${name}`, 'utf8') }));
}

function assertNone(files: Array<{ name: string; text: string }>, forbidden: Record<string, RegExp>): void {
    const found = files.flatMap(({ name, text }) => Object.entries(forbidden).filter(([, pattern]) => pattern.test(text)).map(([what]) => `${name}: ${what}`));
    assert.deepEqual(found, []);
}

const ROW_WORK = {
    'JSON.parse of a column': /JSON\.parse\(/,
    'toNumber of a row field': /\btoNumber\(/,
    'a query built here': /\.(selectFrom|insertInto|updateTable|deleteFrom)\(|\bsql`/,
    'the table types': /from '[./]*store\/schema\.ts'/,
    'Kysely itself': /from 'kysely'/,
};

describe('thin handlers', () => {
    it('routes neither decode rows nor build queries', () => {
        const routes = sources('api/routes');
        assert.ok(routes.length >= 6, `found ${routes.map(r => r.name)}`);
        assertNone(routes, ROW_WORK);
    });

    it('presenters take decoded objects and read nothing', () => {
        assertNone(sources('present'), {
            ...ROW_WORK,
            'a database handle': /\bIndexDb\b|\bdb\./,
            'a read function (types only)': /^import \{[^}]*\} from '[./]*store\/read\//m,
        });
        // The texts made at ingest read back their own format (the holes' JSON), and nothing else.
        assertNone(sources('present/stored'), { 'a database handle': /\bIndexDb\b|\bdb\./, 'a query built here': ROW_WORK['a query built here'] });
    });

    it('routes leave statuses of emulation and risk failures to the error hook', () => {
        assertNone(sources('api/routes'), {
            'emulation failures': /\bEmulationFailure\b/,
            'risk errors': /from '[./]*risk\/errors\.ts'/,
            'rates': /\bresolveCurrency\b|\bRatesError\b/,
        });
    });

    it('routes ask the read side: they read no store and keep no cache', () => {
        assertNone(sources('api/routes'), {
            'a store read': /from '[./]*store\//,
            'a cache of their own': /new (Lru|BoundedMap|JsonTextCache|GenerationCache|TransactionTexts)\b/,
            'a presenter of the index': /from '[./]*present\/(?!emulated-trace|account-address)/,
        });
    });
});

describe('layers', () => {
    const UPWARD_API = /from '(\.\.\/)+api\//;

    it('nothing below the API imports it', () => {
        const below = ['chain', 'indexer', 'store', 'ton', 'config', 'observability', 'present', 'json', 'emulation', 'actions', 'risk', 'rewards', 'liteserver', 'net'];
        assertNone(below.flatMap(folder => sources(folder, true)), { 'an import of api/': UPWARD_API });
    });

    it('JSON writing knows no TON and no other layer', () => {
        assertNone(sources('json', true), { 'a project import outside json/': /from '\.\.\// });
    });

    it('the store returns stored texts raw: it imports no presenter', () => {
        assertNone(sources('store', true), { 'a presenter': /from '[./]*present\// });
    });
});
