import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

/**
 * Handlers parse input, call the store's read side or a service, and hand what they get to a
 * presenter: decoding rows and JSON columns is the store's work, mapping failures to statuses the
 * error hook's. These read the sources, so a handler that starts doing either fails here.
 */

const API = new URL('../../src/api/', import.meta.url);

function sources(folder: string): Array<{ name: string; text: string }> {
    const dir = fileURLToPath(new URL(`${folder}/`, API));
    return readdirSync(dir).filter(name => name.endsWith('.ts')).map(name => ({ name: `${folder}/${name}`, text: readFileSync(`${dir}${name}`, 'utf8') }));
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
        const routes = sources('routes');
        assert.ok(routes.length >= 6, `found ${routes.map(r => r.name)}`);
        assertNone(routes, ROW_WORK);
    });

    it('presenters take decoded objects and read nothing', () => {
        assertNone(sources('present'), {
            ...ROW_WORK,
            'a database handle': /\bIndexDb\b|\bdb\./,
            'a read function (types only)': /^import \{[^}]*\} from '[./]*store\/read\//m,
        });
    });

    it('routes leave statuses of emulation and risk failures to the error hook', () => {
        assertNone(sources('routes'), {
            'emulation failures': /\bEmulationFailure\b/,
            'risk errors': /from '[./]*risk\/errors\.ts'/,
            'rates': /\bresolveCurrency\b|\bRatesError\b/,
        });
    });
});
