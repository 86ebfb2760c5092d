import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteFoldStore } from '../../src/chain/devnet/fold-store.ts';
import { tempDir } from '../helpers/stores.ts';

describe('the devnet\'s fold store', () => {
    const dir = tempDir('fold-store-');
    after(() => dir.remove());

    test('keeps each pair until it is taken back once, starts empty over a file left behind, and deletes its file at close', () => {
        const file = join(dir.path, 'devnet', 'folds.sqlite');
        const first = new SqliteFoldStore(file);
        const pairs = Array.from({ length: 50 }, (_, i) => Buffer.alloc(100 + i, i));
        const ids = pairs.map(pair => first.keep(pair));
        assert.equal(new Set(ids).size, 50, 'every pair gets an id of its own');
        assert.equal(first.size, 50);
        assert.deepEqual(first.take(ids[7]), pairs[7]);
        assert.equal(first.take(ids[7]), undefined, 'a pair is taken back once');
        assert.equal(first.size, 49);
        first.close();
        assert.equal(existsSync(file), false, 'the file is deleted at close');

        // A process that died leaves its file with pairs in it: the next start begins with none of them.
        const left = new Database(file);
        left.exec('CREATE TABLE folds (id INTEGER PRIMARY KEY, pair BLOB NOT NULL)');
        left.prepare('INSERT INTO folds (pair) VALUES (?)').run(Buffer.from('stale'));
        left.close();
        const second = new SqliteFoldStore(file);
        assert.equal(second.size, 0);
        assert.equal(second.take(1), undefined);
        second.close();
    });
});
