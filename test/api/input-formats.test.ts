import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Address, beginCell, Cell } from '@ton/core';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.ts';
import { createOpenapiAjv, OPENAPI_SCHEMA_ID, openapiDocument } from '../../src/api/openapi/document.ts';
import { parseBlockId } from '../../src/ton/block-id.ts';
import { parseAccountId, parseBocInput, parseHash, parsePublicKey } from '../../src/ton/input.ts';
import { storeBackends } from '../helpers/stores.ts';
import type { HttpResult } from '../helpers/http.ts';
import { assertError, call } from './api-call.ts';

/**
 * The document's request identifiers (account ids, hashes, block ids, bags of cells, public keys)
 * and the server's parsers (src/ton/input.ts, block-id.ts) must give the same verdict on a value,
 * so clients and generated SDKs know the real rules. Where they cannot agree, the difference is
 * listed with its reason: a pattern cannot check a checksum, a numeric range or a bag of cells'
 * structure (the document is looser, the parser says no), and the document does not invite
 * whitespace or junk the parser happens to skip (the document is stricter; the server validates
 * against the document first, so over HTTP such a value is a 400 too).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface InputCase {
    /** `components/schemas` name of the identifier's schema. */
    schema: string;
    /** The server's parser of this identifier; throws on a value it refuses. */
    parse: (value: string) => unknown;
    accepted: string[];
    rejected: string[];
    /** [value, reason]: the parser would take it, the document refuses it on purpose. */
    documentStricter: Array<[string, string]>;
    /** [value, reason]: the document lets it through, the parser refuses it (a rule beyond a pattern). */
    documentLooser: Array<[string, string]>;
}

const HEX = '83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const RAW = `0:${HEX}`;
const FRIENDLY = Address.parseRaw(RAW).toString();
const HASH = '9c953c51e6cb6388e5ccd6690b94d11326f5a254dfb69fc566a674a527de810f';
const SHARD = '8000000000000000';

/** A raw address whose standard-base64 friendly form has `+` or `/` (and its base64url form `-` or `_`). */
function addressWithSymbols(): Address {
    for (let i = 0; i < 256; i++) {
        const address = new Address(0, Buffer.alloc(32, i));
        if (/[+/]/.test(address.toString({ urlSafe: false }))) return address;
    }
    throw new Error('no address with + or / in its base64 form');
}
const SYMBOLS = addressWithSymbols();

/** A friendly address with one character changed, so its CRC16 no longer matches. */
function brokenChecksum(friendly: string): string {
    const at = 20;
    return friendly.slice(0, at) + (friendly[at] === 'A' ? 'B' : 'A') + friendly.slice(at + 1);
}

const SMALL_CELL = beginCell().storeUint(0xdeadbeef, 32).storeRef(beginCell().storeStringTail('hi').endCell()).endCell();
const BOC = SMALL_CELL.toBoc();
/** A cell whose bag of cells in base64 has `+` or `/`, to check both base64 alphabets. */
function bocWithSymbols(): Buffer {
    for (let i = 0; i < 256; i++) {
        const boc = beginCell().storeUint(i, 8).storeUint(0xfbff, 16).endCell().toBoc();
        if (/[+/]/.test(boc.toString('base64'))) return boc;
    }
    throw new Error('no BOC with + or / in its base64 form');
}
const SYMBOL_BOC = bocWithSymbols();
/**
 * Two one-byte cells, both roots: magic, flags (size 1), offset size 1, 2 cells, 2 roots, 0 absent,
 * 6 bytes of cells, root list 0 1, then each cell (no refs, one whole byte of data).
 */
const TWO_ROOTS = Buffer.from('b5ee9c72' + '01' + '01' + '02' + '02' + '00' + '06' + '0001' + '000201' + '000202', 'hex');

const CASES: InputCase[] = [
    {
        schema: 'AccountIdInput',
        parse: value => parseAccountId(value),
        accepted: [
            RAW,
            `0:${HEX.toUpperCase()}`,
            `-1:${'3'.repeat(64)}`,
            '0:1',
            `00:${HEX}`,
            `127:${HEX}`,
            `-128:${HEX}`,
            FRIENDLY,
            Address.parseRaw(RAW).toString({ bounceable: false }),
            Address.parseRaw(RAW).toString({ testOnly: true }),
            SYMBOLS.toString({ urlSafe: false }),
            SYMBOLS.toString({ urlSafe: true }),
        ],
        rejected: [
            '', 'nope', 'not-an-address', 'alice.ton', `0:${HEX}0`, '0:', `:${HEX}`, '0:xyz', `0x${HEX}`, HEX,
            `12345678901:${HEX}`, `0 :${HEX}`, FRIENDLY.slice(1), `${FRIENDLY}A`, `${FRIENDLY.slice(0, 47)}!`,
        ],
        documentStricter: [
            [` ${RAW}`, 'the parser trims surrounding whitespace; the document does not invite it'],
            [`${FRIENDLY}\n`, 'the parser trims surrounding whitespace; the document does not invite it'],
        ],
        documentLooser: [
            [`128:${HEX}`, 'the workchain is a signed 8-bit integer (addr_std): a range the pattern leaves to the description'],
            [`-129:${HEX}`, 'the workchain is a signed 8-bit integer (addr_std): a range the pattern leaves to the description'],
            [`2147483647:${HEX}`, 'the workchain is a signed 8-bit integer (addr_std): a range the pattern leaves to the description'],
            [brokenChecksum(FRIENDLY), "a user-friendly address's CRC16 cannot be checked by a pattern"],
            ['A'.repeat(48), "a user-friendly address's tag byte cannot be checked by a pattern"],
        ],
    },
    {
        schema: 'HashInput',
        parse: value => parseHash(value),
        accepted: [
            HASH,
            HASH.toUpperCase(),
            `0x${HASH}`,
            `0X${HASH}`,
            Buffer.from(HASH, 'hex').toString('base64url'),
            Buffer.from(HASH, 'hex').toString('base64'),
            Buffer.from('fb'.repeat(32), 'hex').toString('base64').replace(/=$/, ''),
            Buffer.from('fb'.repeat(32), 'hex').toString('base64url'),
        ],
        rejected: [
            '', '00', 'zzz', '0x', HASH.slice(0, 63), `${HASH}0`, `${HASH.slice(0, 63)}g`, `0x${HASH.slice(2)}`, `0x${HASH}0`,
            Buffer.alloc(31).toString('base64url'), `${Buffer.from(HASH, 'hex').toString('base64url')}A`,
            `${Buffer.from(HASH, 'hex').toString('base64url')}==`, `(0,${SHARD},1)`,
        ],
        documentStricter: [
            [`${HASH} `, 'the parser trims surrounding whitespace; the document does not invite it'],
        ],
        documentLooser: [],
    },
    {
        schema: 'BlockIdInput',
        parse: value => parseBlockId(value),
        accepted: [
            `(0,${SHARD},4234234)`,
            `(-1,${SHARD},17734191)`,
            '(0,C000000000000000,1)',
            '(0,0d83400000000000,4168600)',
            `(0,${SHARD},0)`,
            `(0,${SHARD},4294967295)`,
            `(5,${SHARD},1)`,
            `(-1234567890,${SHARD},1)`,
        ],
        rejected: [
            '', 'garbage', '(0,800000,1)', `(0,${SHARD})`, `0,${SHARD},1`, `(0,${SHARD},-1)`, `(0,${SHARD},99999999999)`,
            `(x,${SHARD},1)`, `(0, ${SHARD}, 1)`, `[0,${SHARD},1]`, `(0,0x${SHARD},1)`, `(0,${SHARD},1,${HASH})`, `(+1,${SHARD},1)`,
        ],
        documentStricter: [
            [` (0,${SHARD},1)`, 'the parser trims surrounding whitespace; the document does not invite it'],
        ],
        documentLooser: [
            [`(0,${SHARD},4294967296)`, 'the seqno is a uint32: a range the pattern leaves to the description'],
            [`(0,${SHARD},9999999999)`, 'the seqno is a uint32: a range the pattern leaves to the description'],
        ],
    },
    {
        schema: 'BocInput',
        parse: value => parseBocInput(value),
        accepted: [
            BOC.toString('base64'),
            BOC.toString('base64').replace(/=+$/, ''),
            BOC.toString('base64url'),
            BOC.toString('hex'),
            BOC.toString('hex').toUpperCase(),
            SYMBOL_BOC.toString('base64'),
            SYMBOL_BOC.toString('base64url'),
            Cell.EMPTY.toBoc({ idx: false, crc32: false }).toString('base64'),
            SMALL_CELL.toBoc({ idx: true, crc32: true }).toString('hex'),
        ],
        rejected: [
            '', 'not a boc', '00', 'AAAA', `0x${BOC.toString('hex')}`, BOC.toString('hex').slice(1),
            Buffer.from('hello world, this is not a bag of cells').toString('base64'),
        ],
        documentStricter: [
            [`${BOC.toString('base64').slice(0, 8)}\n${BOC.toString('base64').slice(8)}`, "Node's base64 decoder skips line breaks; the document asks for base64 without whitespace"],
            [`${BOC.toString('base64').slice(0, 8)}!${BOC.toString('base64').slice(8)}`, "Node's base64 decoder skips characters outside the alphabet; the document does not accept junk"],
            [` ${BOC.toString('hex')}`, 'the parser trims surrounding whitespace; the document does not invite it'],
        ],
        documentLooser: [
            ['b5ee9c72', "a bag of cells' structure (header, cell data, roots) is beyond a pattern"],
            ['te6cc', "a bag of cells' structure (header, cell data, roots) is beyond a pattern"],
            [BOC.toString('hex').slice(0, 40), "a bag of cells' structure (header, cell data, roots) is beyond a pattern"],
            [TWO_ROOTS.toString('hex'), 'the parser wants exactly one root cell; a pattern cannot count them'],
        ],
    },
    {
        schema: 'PublicKeyInput',
        parse: value => parsePublicKey(value),
        accepted: [HASH, HASH.toUpperCase(), '0'.repeat(64)],
        rejected: ['', 'zz', HASH.slice(2), `${HASH}00`, `0x${HASH}`, ` ${HASH}`, Buffer.from(HASH, 'hex').toString('base64url')],
        documentStricter: [],
        documentLooser: [],
    },
];

const ajv = createOpenapiAjv();
const validatorOf = (schema: string) => ajv.compile({ $ref: `${OPENAPI_SCHEMA_ID}#/components/schemas/${schema}` });

function parserAccepts(parse: (value: string) => unknown, value: string): boolean {
    try {
        parse(value);
        return true;
    } catch (error) {
        assert.equal((error as Error).name, 'InputFormatError', `the parser refuses '${value}' with an InputFormatError`);
        return false;
    }
}

describe('request identifiers: the document and the parsers agree', () => {
    for (const c of CASES) {
        it(`${c.schema}: same verdict from the schema and the server's parser`, () => {
            const valid = validatorOf(c.schema);
            for (const value of c.accepted) {
                assert.equal(valid(value), true, `document accepts ${JSON.stringify(value)}`);
                assert.equal(parserAccepts(c.parse, value), true, `parser accepts ${JSON.stringify(value)}`);
            }
            for (const value of c.rejected) {
                assert.equal(valid(value), false, `document rejects ${JSON.stringify(value)}`);
                assert.equal(parserAccepts(c.parse, value), false, `parser rejects ${JSON.stringify(value)}`);
            }
            // The listed differences must be real, so the list stays honest.
            for (const [value, reason] of c.documentStricter) {
                assert.equal(valid(value), false, `document rejects ${JSON.stringify(value)} (${reason})`);
                assert.equal(parserAccepts(c.parse, value), true, `parser accepts ${JSON.stringify(value)} (${reason})`);
            }
            for (const [value, reason] of c.documentLooser) {
                assert.equal(valid(value), true, `document accepts ${JSON.stringify(value)} (${reason})`);
                assert.equal(parserAccepts(c.parse, value), false, `parser rejects ${JSON.stringify(value)} (${reason})`);
            }
        });
    }

    it('every schema has examples the server accepts, and words for its pattern', () => {
        for (const c of CASES) {
            const schema = openapiDocument.components.schemas[c.schema];
            assert.equal(typeof schema.pattern, 'string', c.schema);
            assert.equal(typeof schema['x-expected'], 'string', `${c.schema} says its form in words`);
            assert.ok(schema.examples?.length > 0, `${c.schema} has examples`);
            for (const example of schema.examples) {
                assert.equal(validatorOf(c.schema)(example), true, `${c.schema} example ${example}`);
                assert.equal(parserAccepts(c.parse, example), true, `${c.schema} example ${example}`);
            }
        }
    });

    it('every request place of an identifier uses its schema', () => {
        const doc: Json = openapiDocument;
        const ref = (name: string) => `#/components/schemas/${name}`;
        assert.equal(doc.components.parameters.AccountId.schema.$ref, ref('AccountIdInput'));
        assert.equal(doc.components.parameters.TraceId.schema.$ref, ref('HashInput'));
        assert.equal(doc.components.parameters.BlockId.schema.$ref, ref('BlockIdInput'));
        const s = doc.components.schemas;
        assert.equal(s.FaucetRequest.properties.address.$ref, ref('AccountIdInput'));
        assert.equal(s.EmulationBocRequest.properties.address_override.$ref, ref('AccountIdInput'));
        assert.equal(s.EmulationAccountParams.properties.address.$ref, ref('AccountIdInput'));
        for (const body of ['BocRequest', 'EmulationBocRequest', 'SendMessageRequest']) assert.equal(s[body].properties.boc.$ref, ref('BocInput'), body);
        assert.equal(s.PublicKeysRequest.properties.public_keys.items.$ref, ref('PublicKeyInput'));
    });
});

// ---- over HTTP: the server's verdict, and actionable messages ----

const backend = storeBackends()[0];
let store: Awaited<ReturnType<typeof backend.open>>;
let app: FastifyInstance;
let base: string;

before(async () => {
    store = await backend.open();
    const messages = {
        sendExternalMessage: async (message: Cell) => ({ messageHash: message.hash().toString('hex'), traceId: message.hash().toString('hex') }),
    };
    app = await buildServer({ store, chain: { source: 'test', live: false, head: async () => null }, messages });
    base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/v2`;
});

after(async () => {
    await app?.close();
    await store?.dispose();
});

interface HttpProbe {
    send: (value: string) => Promise<HttpResult>;
    /** Status of a value the server accepts, on an empty index. */
    acceptedStatus: number;
    /** How the 400 message names the place. */
    place: string;
}

const PROBES: Record<string, HttpProbe> = {
    AccountIdInput: {
        send: value => call('getMultisigOrder', `${base}/multisig/order/${encodeURIComponent(value)}`),
        acceptedStatus: 404,
        place: "path parameter 'account_id'",
    },
    HashInput: {
        send: value => call('getTrace', `${base}/traces/${encodeURIComponent(value)}`),
        acceptedStatus: 404,
        place: "path parameter 'trace_id'",
    },
    BlockIdInput: {
        send: value => call('getBlockchainBlockTransactions', `${base}/blockchain/blocks/${encodeURIComponent(value)}/transactions`),
        acceptedStatus: 404,
        place: "path parameter 'block_id'",
    },
    BocInput: {
        send: value => call('sendBlockchainMessage', `${base}/blockchain/message`, { method: 'POST', json: { boc: value } }),
        acceptedStatus: 200,
        place: "request body 'boc'",
    },
    PublicKeyInput: {
        send: value => call('getWalletsByPublicKeyBulk', `${base}/pubkeys/wallets/_bulk`, { method: 'POST', json: { public_keys: [value] } }),
        acceptedStatus: 200,
        place: "request body 'public_keys.0'",
    },
};

/** What a 400 for a value outside the pattern says: the place, the form in words, the value; never the regular expression. */
function assertFormMessage(response: HttpResult, c: InputCase, probe: HttpProbe, value: string): void {
    const expected = openapiDocument.components.schemas[c.schema]['x-expected'] as string;
    assertError(response, 400, probe.place, expected);
    if (value !== '' && value.length <= 80 && !/\s/.test(value)) assert.ok(response.body.error.includes(`'${value}'`), `${response.body.error} quotes the value`);
    assert.doesNotMatch(response.body.error, /must match pattern|\^\(|\[0-9a-fA-F\]|\{64\}/, 'no regular expression in the message');
}

describe('request identifiers over HTTP', () => {
    for (const c of CASES) {
        it(`${c.schema}: accepted values pass, the others are 400s that say the expected form`, async () => {
            const probe = PROBES[c.schema];
            for (const value of c.accepted) {
                // The empty string cannot be a path segment (the router answers its own 404).
                const response = await probe.send(value);
                assert.equal(response.status, probe.acceptedStatus, `${JSON.stringify(value)}: ${response.text}`);
            }
            for (const value of [...c.rejected, ...c.documentStricter.map(([v]) => v)]) {
                if (value === '' && probe.place.startsWith('path')) continue;
                assertFormMessage(await probe.send(value), c, probe, value);
            }
            for (const [value] of c.documentLooser) {
                const response = await probe.send(value);
                assertError(response, 400);
                assert.doesNotMatch(response.body.error, /must match pattern/);
            }
        });
    }

    it('quotes a long value only in part', async () => {
        const long = `te6cc${'A'.repeat(5000)}!`;
        const response = await PROBES.BocInput.send(long);
        assertError(response, 400, "request body 'boc'", '(5006 characters)');
        assert.ok(response.body.error.length < 400, response.body.error);
    });

    it('keeps the other messages: integers, missing fields, wrong types', async () => {
        assertError(await call('getBlockchainAccountTransactions', `${base}/blockchain/accounts/${RAW}/transactions?before_lt=abc`), 400, "query parameter 'before_lt' must be an integer");
        assertError(await PROBES.BocInput.send(42 as unknown as string), 400, "request body 'boc'");
        assertError(await call('sendBlockchainMessage', `${base}/blockchain/message`, { method: 'POST', json: {} }), 400, "request body 'boc' is required");
        assertError(await call('getDevnetMetadata', `${base}/devnet/metadata/${encodeURIComponent('a b')}`), 400, "path parameter 'document' must be a document name", "'a b'");
    });
});
