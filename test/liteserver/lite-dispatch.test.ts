import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { Codecs, Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { TLReadBuffer, TLWriteBuffer } from 'ton-tl';
import { createLiteDispatcher, type LiteDispatcherOptions } from '../../src/liteserver/lite-dispatch.ts';
import { LiteServerError } from '../../src/liteserver/lite-errors.ts';
import { LITE_FUNCTIONS, type LiteMethodName } from '../../src/liteserver/lite-functions.ts';
import { decodeBlockTransactionsExt, type ListBlockTransactionsArgs } from '../../src/liteserver/tl/block-transactions.ts';
import { FIXED_BLOCK, FIXED_METHODS, FIXED_NOW } from './fixtures.ts';
import { encodeCall, LITE_QUERY_PREFIX, liteError, liteQuery, waitPrefix } from './lite-query-bytes.ts';

const getTimeCall = encodeCall(Functions.liteServer_getTime, { kind: 'liteServer.getTime' });
const currentTime = (answer: Buffer) => Codecs.liteServer_CurrentTime.decode(new TLReadBuffer(answer)).now;

function dispatcher(overrides: Partial<LiteDispatcherOptions> = {}) {
    return createLiteDispatcher({ methods: FIXED_METHODS, waitForMasterchainSeqno: async () => true, ...overrides });
}

describe('lite function table', () => {
    test("constructor ids match ton-lite-client's Functions", () => {
        // ton-lite-client computes getValidatorStats' id from the line without its explicit #091a58bc.
        const notInClient = new Set<LiteMethodName>(['listBlockTransactionsExt', 'getValidatorStats']);
        for (const fn of Object.values(LITE_FUNCTIONS)) {
            if (notInClient.has(fn.name)) continue;
            let written: number | undefined;
            const capture = { writeInt32: (value: number) => { written = value; throw new Error('captured'); } } as unknown as TLWriteBuffer;
            const clientFunction = (Functions as Record<string, { encodeRequest(req: unknown, w: TLWriteBuffer): void }>)[`liteServer_${fn.name}`];
            assert.throws(() => clientFunction.encodeRequest({}, capture), /captured/);
            assert.equal(fn.id, written, fn.name);
        }
    });

    test('ids ton-lite-client lacks or gets differently match lite_api.tl', () => {
        const line = (text: string) => crc32(text) | 0;
        assert.equal(
            LITE_FUNCTIONS.listBlockTransactionsExt.id,
            line('liteServer.listBlockTransactionsExt id:tonNode.blockIdExt mode:# count:# after:mode.7?liteServer.transactionId3 reverse_order:mode.6?true want_proof:mode.5?true = liteServer.BlockTransactionsExt'),
        );
        assert.equal(LITE_FUNCTIONS.getValidatorStats.id, 0x091a58bc);
    });
});

describe('lite dispatcher', () => {
    test('liteServer.query and a bare liteServer.queryPrefix both reach the method', async () => {
        const handle = dispatcher();
        assert.equal(currentTime(await handle(liteQuery(getTimeCall))), FIXED_NOW);
        assert.equal(currentTime(await handle(Buffer.concat([LITE_QUERY_PREFIX, getTimeCall]))), FIXED_NOW);
        assert.equal(currentTime(await handle(Buffer.concat([LITE_QUERY_PREFIX, waitPrefix(1, 100), getTimeCall]))), FIXED_NOW);
    });

    test('undecodable queries answer 621', async () => {
        const handle = dispatcher();
        for (const query of [Buffer.alloc(0), Buffer.from('garbage!'), getTimeCall, liteQuery(Buffer.alloc(2)), Buffer.concat([liteQuery(getTimeCall), Buffer.alloc(4)])]) {
            assert.equal(liteError(await handle(query))?.code, 621, query.toString('hex'));
        }
    });

    test('unknown, unsupported and unserved functions say which', async () => {
        const handle = dispatcher();
        assert.deepEqual(liteError(await handle(liteQuery(Buffer.from('01020304', 'hex')))), { kind: 'liteServer.error', code: 621, message: 'unknown query' });
        const lookupWithProof = Buffer.alloc(4);
        lookupWithProof.writeInt32LE(0x9c045ff8 | 0);
        assert.equal(liteError(await handle(liteQuery(lookupWithProof)))?.message, 'not served: liteServer.lookupBlockWithProof');
        const getBlock = encodeCall(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: FIXED_BLOCK });
        assert.deepEqual(liteError(await handle(liteQuery(getBlock))), { kind: 'liteServer.error', code: 621, message: 'not served: liteServer.getBlock' });
    });

    test('arguments must be consumed exactly', async () => {
        const handle = dispatcher({ methods: { getBlock: async () => assert.fail('must not be called') } });
        const getBlock = encodeCall(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: FIXED_BLOCK });
        for (const call of [getBlock.subarray(0, getBlock.length - 1), Buffer.concat([getBlock, Buffer.alloc(4)])]) {
            const error = liteError(await handle(liteQuery(call)));
            assert.equal(error?.code, 621);
            assert.match(error!.message, /^cannot parse liteServer.getBlock/);
        }
        const sendMessage = encodeCall(Functions.liteServer_sendMessage, { kind: 'liteServer.sendMessage', body: Buffer.alloc(100) });
        assert.equal(liteError(await handle(liteQuery(sendMessage.subarray(0, 40))))?.code, 621, 'truncated bytes field');
    });

    test('a negative long argument is decoded correctly and the query bytes are left untouched', async () => {
        let shard: string | undefined;
        const handle = dispatcher({ methods: { getBlock: async (args) => { shard = args.id.shard; throw new LiteServerError(651, 'not ready'); } } });
        const query = liteQuery(encodeCall(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id: FIXED_BLOCK }));
        const copy = Buffer.from(query);
        assert.deepEqual(liteError(await handle(query)), { kind: 'liteServer.error', code: 651, message: 'not ready' });
        assert.equal(shard, '-9223372036854775808');
        assert.deepEqual(query, copy);
    });

    test('method failures become errors: plain Error 602 with its message, malformed result 601; both reported', async () => {
        const reported: string[] = [];
        const handle = dispatcher({
            onError: (_err, method) => reported.push(method),
            methods: {
                getTime: async () => { throw new Error('boom'); },
                getVersion: async () => ({ kind: 'liteServer.version', mode: 0, version: 1, capabilities: 'not a number', now: 0 }),
            },
        });
        assert.deepEqual(liteError(await handle(liteQuery(getTimeCall))), { kind: 'liteServer.error', code: 602, message: 'boom' });
        const getVersion = encodeCall(Functions.liteServer_getVersion, { kind: 'liteServer.getVersion' });
        assert.deepEqual(liteError(await handle(liteQuery(getVersion))), { kind: 'liteServer.error', code: 601, message: 'internal error' });
        assert.deepEqual(reported, ['getTime', 'getVersion']);
    });

    test('a result with a flagged field missing is caught before it reaches the client', async () => {
        const handle = dispatcher({
            methods: {
                runSmcMethod: async (args) => ({
                    kind: 'liteServer.runMethodResult', mode: 4, id: args.id, shardblk: args.id,
                    shardProof: null, proof: null, stateProof: null, initC7: null, libExtras: null, exitCode: 0,
                    result: null, // mode bit 2 promises a result
                }),
            },
        });
        const call = encodeCall(Functions.liteServer_runSmcMethod, {
            kind: 'liteServer.runSmcMethod', mode: 4, id: FIXED_BLOCK, account: { kind: 'liteServer.accountId', workchain: 0, id: Buffer.alloc(32) },
            methodId: '85143', params: Buffer.alloc(0),
        });
        assert.equal(liteError(await handle(liteQuery(call)))?.code, 601);
    });

    test('waitMasterchainSeqno: timeout capped at 10 s, hook timeout → 652, hook errors keep their code', async () => {
        const asked: number[] = [];
        let reached = true;
        const handle = dispatcher({
            waitForMasterchainSeqno: async (seqno, timeoutMs) => {
                asked.push(timeoutMs);
                if (seqno === 999) throw new LiteServerError(651, 'seqno too far ahead');
                return reached;
            },
        });
        await handle(liteQuery(Buffer.concat([waitPrefix(1, 60_000), getTimeCall])));
        await handle(liteQuery(Buffer.concat([waitPrefix(1, -5), getTimeCall])));
        assert.deepEqual(asked, [10_000, 0]);
        reached = false;
        assert.deepEqual(liteError(await handle(liteQuery(Buffer.concat([waitPrefix(1, 10), getTimeCall])))), { kind: 'liteServer.error', code: 652, message: 'timeout' });
        assert.equal(liteError(await handle(liteQuery(Buffer.concat([waitPrefix(999, 10), getTimeCall]))))?.code, 651);
    });

    test('a hook that never settles is cut off at the capped timeout', async () => {
        const handle = dispatcher({ waitForMasterchainSeqno: () => new Promise(() => {}) });
        const started = Date.now();
        assert.equal(liteError(await handle(liteQuery(Buffer.concat([waitPrefix(5, 50), getTimeCall]))))?.code, 652);
        assert.ok(Date.now() - started < 1000);
    });

    test("listBlockTransactions accepts TL's zero-byte `true` flags and ton-lite-client's Bool words alike", async () => {
        const seen: ListBlockTransactionsArgs[] = [];
        const handle = dispatcher({
            methods: {
                listBlockTransactions: async (args) => {
                    seen.push(args);
                    return { kind: 'liteServer.blockTransactions', id: args.id, reqCount: args.count, incomplete: false, ids: [], proof: Buffer.alloc(0) };
                },
            },
        });
        const after = { kind: 'liteServer.transactionId3' as const, account: Buffer.alloc(32, 7), lt: '123' };
        const clientSpelling = encodeCall(Functions.liteServer_listBlockTransactions, {
            kind: 'liteServer.listBlockTransactions', id: FIXED_BLOCK, mode: 7 | 32 | 64 | 128, count: 10, after, reverseOrder: true, wantProof: true,
        });
        const tlSpelling = clientSpelling.subarray(0, clientSpelling.length - 8);
        for (const call of [clientSpelling, tlSpelling]) {
            const answer = await handle(liteQuery(call));
            assert.equal(liteError(answer), undefined);
            assert.equal(Codecs.liteServer_BlockTransactions.decode(new TLReadBuffer(answer)).reqCount, 10);
        }
        assert.deepEqual(seen[0], seen[1]);
        assert.deepEqual(seen[0], { id: FIXED_BLOCK, mode: 7 | 32 | 64 | 128, count: 10, after, reverseOrder: true, wantProof: true });
    });

    test('listBlockTransactionsExt is served with its own answer type', async () => {
        const block: tonNode_blockIdExt = { ...FIXED_BLOCK, workchain: 0 };
        const handle = dispatcher({
            methods: {
                listBlockTransactionsExt: async (args) => ({
                    kind: 'liteServer.blockTransactionsExt', id: args.id, reqCount: args.count, incomplete: true, transactions: Buffer.from('boc'), proof: Buffer.alloc(0),
                }),
            },
        });
        const call = encodeCall(Functions.liteServer_listBlockTransactions, {
            kind: 'liteServer.listBlockTransactions', id: block, mode: 7, count: 5, after: null, reverseOrder: null, wantProof: null,
        });
        call.writeInt32LE(LITE_FUNCTIONS.listBlockTransactionsExt.id, 0);
        const answer = decodeBlockTransactionsExt(new TLReadBuffer(await handle(liteQuery(call))));
        assert.deepEqual(answer, { kind: 'liteServer.blockTransactionsExt', id: block, reqCount: 5, incomplete: true, transactions: Buffer.from('boc'), proof: Buffer.alloc(0) });
    });
});
