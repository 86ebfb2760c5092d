import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Address, comment, internal, SendMode, type Cell, type Transaction } from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import type { BlockRecord } from '../../src/chain/chain-source.ts';
import type { BlockIdExt } from '../../src/ton/block-id.ts';
import { uninitializedAccount } from '../../src/chain/devnet/genesis.ts';
import { keyPairFromSeed, signerFor } from '../../src/chain/devnet/keys.ts';
import { TvmChain, type ExecutedTransaction } from '../../src/chain/devnet/tvm-chain.ts';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import type { Store } from '../../src/store/store.ts';
import { parseTransactionCell } from '../../src/ton/transaction.ts';
import { storeBackends } from '../helpers/stores.ts';

const GRAM = 1_000_000_000n;
const UTIME = 1_751_461_310;

function seed(label: string): Buffer {
    return createHash('sha256').update(label).digest();
}

/** One transaction the real TVM executed, as the indexer will see it. */
interface Executed {
    name: string;
    hash: string;
    lt: bigint;
    account: string;
    workchain: number;
    tx: Transaction;
    cell: Cell;
}

/**
 * A cascade executed by the sandbox's TVM, started by one external message:
 *   root      alice (v4r2, deployed by this message) sends two internal messages:
 *   bob       a non-bounceable transfer with a text comment to bob (uninit, keeps the coins),
 *   nobody    a bounceable transfer to an address nobody lives at, which fails and bounces,
 *   bounce    alice receiving the bounced message.
 */
interface Cascade {
    root: Executed;
    bob: Executed;
    nobody: Executed;
    bounce: Executed;
    all: Executed[];
}

function describeExecuted(names: string[], executed: ExecutedTransaction[]): Executed[] {
    assert.equal(executed.length, names.length, `expected ${names.join(', ')}; the TVM executed ${executed.length} transactions`);
    return executed.map((tx, i) => ({
        name: names[i],
        hash: tx.cell.hash().toString('hex'),
        lt: tx.parsed.lt,
        account: tx.account,
        workchain: tx.workchain,
        tx: tx.parsed,
        cell: tx.cell,
    }));
}

async function fund(chain: TvmChain, wallet: DevnetWallet, balance: bigint): Promise<void> {
    chain.setShardAccount(wallet.address, uninitializedAccount(wallet, balance, UTIME));
}

async function runCascade(chain: TvmChain): Promise<Cascade> {
    const alice = new DevnetWallet('wallet_v4r2', keyPairFromSeed(seed('trace-linker alice')));
    const bob = new DevnetWallet('wallet_v3r2', keyPairFromSeed(seed('trace-linker bob')));
    const nobody = new Address(0, seed('trace-linker: nobody lives here'));
    await fund(chain, alice, 100n * GRAM);
    const message = await alice.transfer(0, UTIME + 60, [
        internal({ to: bob.address, value: 2n * GRAM, bounce: false, body: comment('hello bob, from alice') }),
        internal({ to: nobody, value: GRAM, bounce: true, body: comment('this one bounces: nobody lives here') }),
    ]);
    await chain.sendMessage(message);
    const all = describeExecuted(['root', 'bob', 'nobody', 'bounce'], chain.drainTransactions());
    const [root, bobTx, nobodyTx, bounce] = all;
    // Sanity: the TVM did what the cascade says.
    assert.equal(root.tx.inMessage?.info.type, 'external-in');
    assert.equal(root.account, alice.address.toRawString());
    assert.equal(bobTx.account, bob.address.toRawString());
    assert.equal(nobodyTx.account, nobody.toRawString());
    assert.equal(bounce.account, alice.address.toRawString());
    const bounced = bounce.tx.inMessage?.info;
    assert.ok(bounced?.type === 'internal' && bounced.bounced, 'alice receives a bounced message');
    assert.deepEqual(root.tx.outMessages.values().map(m => m.info.dest?.toString()), [bob.address.toString(), nobody.toString()]);
    return { root, bob: bobTx, nobody: nobodyTx, bounce, all };
}

/**
 * A cascade that crosses the masterchain and back in one go, as the devnet executes it: a
 * masterchain wallet sends a bounceable transfer to a basechain address nobody lives at; the
 * bounce comes back to the masterchain. The devnet puts the basechain transaction in its shard
 * block and the two masterchain ones in its masterchain block, and commits the shard block first.
 */
async function runMasterchainCascade(chain: TvmChain): Promise<Cascade> {
    const carol = new DevnetWallet('wallet_v4r2', keyPairFromSeed(seed('trace-linker carol')), -1);
    const nobody = new Address(0, seed('trace-linker: nobody lives here either'));
    await fund(chain, carol, 100n * GRAM);
    const message = await carol.transfer(0, UTIME + 60, [
        internal({ to: nobody, value: 3n * GRAM, bounce: true, body: comment('to the basechain and back') }),
    ]);
    await chain.sendMessage(message);
    const all = describeExecuted(['root', 'nobody', 'bounce'], chain.drainTransactions());
    const [root, nobodyTx, bounce] = all;
    assert.equal(root.workchain, -1);
    assert.equal(nobodyTx.workchain, 0);
    assert.equal(bounce.workchain, -1);
    return { root, bob: nobodyTx, nobody: nobodyTx, bounce, all };
}

/**
 * A four-transaction cascade that goes masterchain → basechain → masterchain → basechain:
 *   root     carol (a masterchain v4r2 wallet) sends dave's signed internal request, with dave's StateInit,
 *   dave     dave (a basechain v5r1 wallet) deploys, checks the signature and sends a bounceable transfer
 *            to a masterchain address nobody lives at,
 *   nobody   which fails and bounces,
 *   bounce   dave receiving the bounce.
 * With the devnet's block layout (shard block [dave, bounce] committed before master block [root,
 * nobody]) the master block holds both the parent of an orphan trace and a child of it.
 */
async function runSignedInternalCascade(chain: TvmChain): Promise<Cascade> {
    const carol = new DevnetWallet('wallet_v4r2', keyPairFromSeed(seed('trace-linker carol, again')), -1);
    const daveKeys = keyPairFromSeed(seed('trace-linker dave'));
    const dave = new DevnetWallet('wallet_v5r1', daveKeys);
    const nobody = new Address(-1, seed('trace-linker: nobody lives on the masterchain'));
    await fund(chain, carol, 100n * GRAM);
    const sign = signerFor(daveKeys);
    const request = await (dave.contract as WalletContractV5R1).createTransfer({
        seqno: 0,
        timeout: UTIME + 60,
        authType: 'internal',
        signer: async (cell: Cell) => sign(cell.hash()),
        sendMode: SendMode.PAY_GAS_SEPARATELY,
        messages: [internal({ to: nobody, value: GRAM, bounce: true, body: comment('dave, on carol\'s behalf: this one bounces') })],
    });
    const message = await carol.transfer(0, UTIME + 60, [
        internal({ to: dave.address, value: 5n * GRAM, bounce: true, init: dave.init, body: request }),
    ]);
    await chain.sendMessage(message);
    const all = describeExecuted(['root', 'dave', 'nobody', 'bounce'], chain.drainTransactions());
    const [root, daveTx, nobodyTx, bounce] = all;
    assert.deepEqual(all.map(t => t.account), [carol.address.toRawString(), dave.address.toRawString(), nobody.toRawString(), dave.address.toRawString()]);
    assert.equal(chain.shardAccount(dave.address).account?.storage.state?.type, 'active', 'dave deployed by the request');
    const bounced = bounce.tx.inMessage?.info;
    assert.ok(bounced?.type === 'internal' && bounced.bounced, 'dave receives a bounced message');
    return { root, bob: daveTx, nobody: nobodyTx, bounce, all };
}

/** Seals block records by hand from executed transactions, chained like the devnet's. */
class Blocks {
    private last = new Map<number, BlockIdExt>();

    make(workchain: number, txs: Executed[], masterRef?: BlockIdExt, shardBlocks: BlockIdExt[] = []): BlockRecord {
        const sorted = [...txs].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
        const parent = this.last.get(workchain);
        const seqno = (parent?.seqno ?? 0) + 1;
        const hash = createHash('sha256').update(`${workchain}:${seqno}:${sorted.map(t => t.hash).join()}`).digest('hex');
        const block: BlockRecord = {
            id: { workchain, shard: '8000000000000000', seqno, rootHash: hash, fileHash: hash },
            utime: UTIME,
            startLt: sorted[0].lt - 1n,
            endLt: sorted[sorted.length - 1].lt + 1n,
            isKeyBlock: false,
            parents: parent ? [parent] : [],
            masterRef,
            shardBlocks,
            transactions: sorted.map(t => ({ boc: t.cell.toBoc(), cell: t.cell })),
            accountStates: [],
        };
        this.last.set(workchain, block.id);
        return block;
    }
}

interface TraceRow {
    trace_id: string;
    tx_count: number;
    pending: number;
    orphan: number;
    start_lt: bigint;
    end_lt: bigint;
}

async function traces(store: Store): Promise<TraceRow[]> {
    const rows = await store.db.selectFrom('traces').select(['trace_id', 'tx_count', 'pending', 'orphan', 'start_lt', 'end_lt']).orderBy('start_lt').execute();
    return rows.map(r => ({ ...r, tx_count: Number(r.tx_count), pending: Number(r.pending), orphan: Number(r.orphan) }));
}

async function traceIdsOf(store: Store): Promise<Map<string, string>> {
    const rows = await store.db.selectFrom('transactions').select(['hash', 'trace_id']).execute();
    return new Map(rows.map(r => [r.hash, r.trace_id]));
}

/** The state every ordering must end in: one trace, rooted at the external-in transaction. */
async function assertOneCompleteTrace(store: Store, cascade: Cascade): Promise<void> {
    const rows = await traces(store);
    assert.deepEqual(rows, [{
        trace_id: cascade.root.hash,
        tx_count: cascade.all.length,
        pending: 0,
        orphan: 0,
        start_lt: cascade.root.lt,
        end_lt: cascade.all[cascade.all.length - 1].lt,
    }]);
    const ids = await traceIdsOf(store);
    assert.equal(ids.size, cascade.all.length);
    for (const t of cascade.all) assert.equal(ids.get(t.hash), cascade.root.hash, `trace of the ${t.name} transaction`);
    const counted = await store.db.selectFrom('transactions').select('hash').where('trace_id', '=', cascade.root.hash).execute();
    assert.equal(counted.length, rows[0].tx_count, 'tx_count equals the transactions carrying the trace id');
}

/** Every message row names the transaction that sent it and the one that received it. */
async function assertMessagesLinked(store: Store, cascade: Cascade): Promise<void> {
    const expected = new Map<string, { tx_in_hash: string | null; tx_out_hash: string | null; msg_type: string }>();
    const indexed = new Set((await store.db.selectFrom('transactions').select('hash').execute()).map(r => r.hash));
    for (const t of cascade.all.filter(t => indexed.has(t.hash))) {
        const parsed = parseTransactionCell(t.cell, t.workchain);
        const inMsg = parsed.inMsg!;
        const entry = expected.get(inMsg.hash) ?? { tx_in_hash: null, tx_out_hash: null, msg_type: inMsg.msgType };
        expected.set(inMsg.hash, { ...entry, tx_in_hash: t.hash });
        for (const out of parsed.outMsgs) {
            const e = expected.get(out.hash) ?? { tx_in_hash: null, tx_out_hash: null, msg_type: out.msgType };
            expected.set(out.hash, { ...e, tx_out_hash: t.hash });
        }
    }
    const rows = await store.db.selectFrom('messages').select(['hash', 'msg_type', 'tx_in_hash', 'tx_out_hash']).execute();
    assert.deepEqual(
        new Map(rows.map(r => [r.hash, { tx_in_hash: r.tx_in_hash, tx_out_hash: r.tx_out_hash, msg_type: r.msg_type }])),
        expected,
    );
    // Both ways: a transaction's in_msg_hash is the message whose tx_in_hash is that transaction.
    const txs = await store.db.selectFrom('transactions').select(['hash', 'in_msg_hash']).execute();
    for (const tx of txs) {
        const received = rows.filter(r => r.tx_in_hash === tx.hash).map(r => r.hash);
        assert.deepEqual(received, [tx.in_msg_hash]);
    }
}

function permutations<T>(items: T[]): T[][] {
    if (items.length <= 1) return [items];
    return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map(rest => [item, ...rest]));
}

describe('trace linker on transactions executed by the TVM', () => {
    let cascade: Cascade;
    let masterCascade: Cascade;
    let signedCascade: Cascade;

    before(async () => {
        const chain = await TvmChain.start();
        chain.now = UTIME;
        cascade = await runCascade(chain);
        masterCascade = await runMasterchainCascade(chain);
        signedCascade = await runSignedInternalCascade(chain);
    });

    test('the cascade is what the TVM executed', () => {
        assert.deepEqual(cascade.all.map(t => t.name), ['root', 'bob', 'nobody', 'bounce']);
        for (let i = 1; i < cascade.all.length; i++) assert.ok(cascade.all[i].lt > cascade.all[i - 1].lt, 'executed in lt order');
        assert.equal(new Set(cascade.all.map(t => t.hash)).size, 4);
    });

    for (const backend of storeBackends()) {
        describe(backend.name, () => {
            let store: Store & { dispose(): Promise<void> };
            before(async () => {
                store = await backend.open();
            });
            after(async () => {
                await store.dispose();
            });
            // Each test starts from an empty index.
            const reset = async () => {
                for (const table of ['blocks', 'transactions', 'messages', 'traces', 'account_states', 'source_cursors'] as const) {
                    await store.db.deleteFrom(table).execute();
                }
            };

            test('(a) the whole cascade in one block is one complete trace', async () => {
                await reset();
                const blocks = new Blocks();
                const result = await indexBlock(store, blocks.make(0, cascade.all));
                assert.deepEqual(result, { inserted: true, transactions: 4 });
                await assertOneCompleteTrace(store, cascade);
                await assertMessagesLinked(store, cascade);
            });

            test('(b) children in the next block: pending until they are indexed', async () => {
                await reset();
                const blocks = new Blocks();
                await indexBlock(store, blocks.make(0, [cascade.root]));
                assert.deepEqual((await traces(store)).map(t => ({ id: t.trace_id, txs: t.tx_count, pending: t.pending, orphan: t.orphan })), [
                    { id: cascade.root.hash, txs: 1, pending: 2, orphan: 0 },
                ]);
                await assertMessagesLinked(store, cascade);
                await indexBlock(store, blocks.make(0, [cascade.bob, cascade.nobody, cascade.bounce]));
                await assertOneCompleteTrace(store, cascade);
                await assertMessagesLinked(store, cascade);
            });

            test('(b) one block per generation: pending 2, then 1, then 0', async () => {
                await reset();
                const blocks = new Blocks();
                const pending: number[] = [];
                for (const generation of [[cascade.root], [cascade.bob, cascade.nobody], [cascade.bounce]]) {
                    await indexBlock(store, blocks.make(0, generation));
                    const rows = await traces(store);
                    assert.equal(rows.length, 1);
                    assert.equal(rows[0].trace_id, cascade.root.hash);
                    pending.push(rows[0].pending);
                }
                assert.deepEqual(pending, [2, 1, 0]);
                await assertOneCompleteTrace(store, cascade);
            });

            test('(c) children indexed first form orphan traces, merged when the parent arrives', async () => {
                await reset();
                const blocks = new Blocks();
                const parentBlock = blocks.make(0, [cascade.root]);
                const childrenBlock = blocks.make(0, [cascade.bob, cascade.nobody, cascade.bounce]);
                await indexBlock(store, childrenBlock);
                assert.deepEqual((await traces(store)).map(t => ({ id: t.trace_id, txs: t.tx_count, pending: t.pending, orphan: t.orphan })), [
                    { id: cascade.bob.hash, txs: 1, pending: 0, orphan: 1 },
                    { id: cascade.nobody.hash, txs: 2, pending: 0, orphan: 1 },
                ]);
                const before = await traceIdsOf(store);
                assert.equal(before.get(cascade.bounce.hash), cascade.nobody.hash, 'the bounce joins the trace of its sender');

                await indexBlock(store, parentBlock);
                await assertOneCompleteTrace(store, cascade);
                const orphans = await store.db.selectFrom('traces').select('trace_id').where('trace_id', 'in', [cascade.bob.hash, cascade.nobody.hash]).execute();
                assert.deepEqual(orphans, [], 'the orphan trace rows are gone');
                await assertMessagesLinked(store, cascade);
            });

            test('(c) every order of three one-generation blocks ends in the same single trace', async () => {
                const blocks = new Blocks();
                const generations = [blocks.make(0, [cascade.root]), blocks.make(0, [cascade.bob, cascade.nobody]), blocks.make(0, [cascade.bounce])];
                for (const order of permutations([0, 1, 2])) {
                    await reset();
                    for (const i of order) await indexBlock(store, generations[i]);
                    await assertOneCompleteTrace(store, cascade).catch(error => {
                        throw new Error(`block order ${order.join(',')}: ${(error as Error).message}`);
                    });
                    await assertMessagesLinked(store, cascade);
                }
            });

            test('(d) messages link their sending and receiving transactions both ways', async () => {
                await reset();
                const blocks = new Blocks();
                await indexBlock(store, blocks.make(0, cascade.all));
                const rows = await store.db.selectFrom('messages').selectAll().execute();
                const by = (from: string | null, to: string | null) => rows.filter(r => r.tx_out_hash === from && r.tx_in_hash === to);
                assert.equal(rows.length, 4, 'external-in, two transfers, one bounce');
                const external = by(null, cascade.root.hash);
                assert.equal(external.length, 1);
                assert.equal(external[0].msg_type, 'ext_in_msg');
                const toBob = by(cascade.root.hash, cascade.bob.hash);
                assert.equal(toBob.length, 1);
                assert.equal(toBob[0].value, 2n * GRAM);
                assert.equal(toBob[0].source, cascade.root.account);
                assert.equal(toBob[0].destination, cascade.bob.account);
                assert.equal(Number(toBob[0].op_code), 0, 'a text comment');
                const toNobody = by(cascade.root.hash, cascade.nobody.hash);
                assert.equal(toNobody.length, 1);
                assert.equal(toNobody[0].value, GRAM);
                const back = by(cascade.nobody.hash, cascade.bounce.hash);
                assert.equal(back.length, 1);
                assert.equal(back[0].source, cascade.nobody.account);
                assert.equal(back[0].destination, cascade.root.account);
                assert.equal(Number(back[0].op_code), 0xffffffff, 'a bounced body starts with 0xffffffff');
                assert.ok(back[0].value! > 0n && back[0].value! < GRAM, 'the bounce returns the value less fees');
                for (const t of cascade.all) {
                    const tx = await store.db.selectFrom('transactions').select('in_msg_hash').where('hash', '=', t.hash).executeTakeFirstOrThrow();
                    const inbound = rows.find(r => r.hash === tx.in_msg_hash);
                    assert.equal(inbound?.tx_in_hash, t.hash, `in_msg of ${t.name} points back to it`);
                }
                await assertMessagesLinked(store, cascade);
            });

            test('a masterchain → basechain → masterchain cascade committed as the devnet does (shard block first)', async () => {
                await reset();
                const blocks = new Blocks();
                const shard = blocks.make(0, masterCascade.all.filter(t => t.workchain === 0));
                const master = blocks.make(-1, masterCascade.all.filter(t => t.workchain === -1), undefined, [shard.id]);
                await indexBlock(store, shard);
                await indexBlock(store, master);
                await assertOneCompleteTrace(store, masterCascade);
                await assertMessagesLinked(store, masterCascade);
            });

            test('master block holding both the parent of an orphan trace and a child of it (devnet order)', async () => {
                await reset();
                const blocks = new Blocks();
                const shard = blocks.make(0, signedCascade.all.filter(t => t.workchain === 0));
                const master = blocks.make(-1, signedCascade.all.filter(t => t.workchain === -1), undefined, [shard.id]);
                assert.equal(shard.transactions.length, 2);
                assert.equal(master.transactions.length, 2);
                await indexBlock(store, shard);
                // dave's first transaction and the bounce he receives: two orphans, since their senders are not indexed
                assert.deepEqual((await traces(store)).map(t => ({ id: t.trace_id, txs: t.tx_count, pending: t.pending, orphan: t.orphan })), [
                    { id: signedCascade.bob.hash, txs: 1, pending: 1, orphan: 1 },
                    { id: signedCascade.bounce.hash, txs: 1, pending: 0, orphan: 1 },
                ]);
                await indexBlock(store, master);
                await assertOneCompleteTrace(store, signedCascade);
                await assertMessagesLinked(store, signedCascade);
            });

            test('the signed-internal cascade in one block per transaction, every order', async () => {
                const blocks = new Blocks();
                const single = signedCascade.all.map(t => blocks.make(t.workchain, [t]));
                for (const order of permutations([0, 1, 2, 3])) {
                    await reset();
                    for (const i of order) await indexBlock(store, single[i]);
                    await assertOneCompleteTrace(store, signedCascade).catch(error => {
                        throw new Error(`block order ${order.join(',')}: ${(error as Error).message}`);
                    });
                }
            });

            test('the same cascade with the masterchain block first', async () => {
                await reset();
                const blocks = new Blocks();
                const shard = blocks.make(0, masterCascade.all.filter(t => t.workchain === 0));
                const master = blocks.make(-1, masterCascade.all.filter(t => t.workchain === -1), undefined, [shard.id]);
                await indexBlock(store, master);
                await indexBlock(store, shard);
                await assertOneCompleteTrace(store, masterCascade);
                await assertMessagesLinked(store, masterCascade);
            });
        });
    }
});
