import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { storeUnavailable } from '../../src/store/unavailable.ts';

const coded = (code: string, message = `failure ${code}`) => Object.assign(new Error(message), { code });

describe('index database unavailability', () => {
    it('knows a database that is away: refused, shut down, starting up, a dropped connection', () => {
        for (const error of [
            coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
            coded('57P01', 'terminating connection due to administrator command'),
            coded('57P03', 'the database system is starting up'),
            coded('08006', 'connection failure'),
            new Error('Connection terminated unexpectedly'),
            new Error('Client has encountered a connection error and is not queryable'),
            new Error('timeout exceeded when trying to connect'),
            Object.assign(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], ''), { code: 'ECONNREFUSED' }),
            new AggregateError([coded('ECONNREFUSED')], 'all attempts failed'),
            new Error('wrapped', { cause: coded('ECONNRESET') }),
        ]) {
            const problem = storeUnavailable(error);
            assert.equal(problem?.kind, 'unreachable', error.message);
            assert.doesNotMatch(problem!.message, /127\.0\.0\.1|5432/, 'the public message names no host');
        }
    });

    it('knows a full disk on SQLite and PostgreSQL', () => {
        for (const error of [coded('SQLITE_FULL', 'database or disk is full'), coded('53100', 'could not extend file'), coded('ENOSPC')]) {
            assert.equal(storeUnavailable(error)?.kind, 'full', error.message);
        }
        assert.match(storeUnavailable(coded('SQLITE_FULL', 'database or disk is full'))!.detail, /SQLITE_FULL: database or disk is full/);
    });

    it('leaves every other error alone (those are bugs or bad queries, not an outage)', () => {
        for (const error of [coded('42601', 'syntax error'), coded('23505', 'duplicate key'), coded('SQLITE_CONSTRAINT_UNIQUE'), new Error('boom'), new TypeError('x is undefined'), null, undefined, 'text']) {
            assert.equal(storeUnavailable(error), null, String(error));
        }
    });
});
