import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readBlockBoc as blockRecordFromBoc } from '../../src/chain/block-reading.ts';
import type { BlockRecord } from '../../src/chain/chain-source.ts';
import { indexBlock } from '../../src/indexer/index-block.ts';
import { blocksInTimeRange } from '../../src/store/read/blocks.ts';
import { jettonHistory, type JettonOperation } from '../../src/store/read/jettons.ts';
import { historyRowsOf } from '../../src/indexer/jetton-operations.ts';
import { presentJettonHistory } from '../../src/present/jetton-history.ts';
import { isCurrentOperationText } from '../../src/present/stored/jetton-operation-text.ts';
import { toJsonBody } from '../../src/json/json.ts';
import { Migrator, sql, type Kysely } from 'kysely';
import { migrationProvider } from '../../src/store/migrations/index.ts';
import { fillHistoryTexts } from '../../src/indexer/history-texts.ts';
import { findTrace, traceStatus } from '../../src/store/read/traces.ts';
import { accountInterfaces } from '../../src/store/read/accounts.ts';
import {
    accountTransactionHashes, blockTransactions as storedBlockTransactions, decodeStoredTransaction, mentionedAccounts, storedTransactions, traceTransactions,
} from '../../src/store/read/transactions.ts';
import type { IndexDb } from '../../src/store/schema.ts';
import type { BlockId } from '../../src/ton/block-id.ts';
import { walletsByPublicKeys } from '../../src/store/read/wallets.ts';
import type { Store } from '../../src/store/store.ts';
import { formatBlockId } from '../../src/ton/block-id.ts';
import { mainnetSkip, readBlockBoc, readSummary } from '../helpers/fixtures.ts';
import { storeBackends } from '../helpers/stores.ts';

/**
 * The store's read side hands out decoded objects: JSON columns as arrays and objects, int64
 * columns as exact bigints (values here are past 2^53, where a double would round them), flags as
 * booleans, transaction BOCs parsed. Real mainnet blocks for blocks and transactions; rows written
 * by hand for what those blocks do not have.
 */

const addr = (byte: string, workchain = 0) => `${workchain}:${byte.repeat(32)}`;
const hash = (byte: string) => byte.repeat(32);

const ALICE = addr('a1');
const BOB = addr('b0');
const MASTER = addr('c1');
const UNINDEXED_MASTER = addr('c2');
const KEY = 'ee'.repeat(32);
const OTHER_KEY = 'dd'.repeat(32);
const V5 = addr('11');
const V4 = addr('22');
const ELSEWHERE = addr('33');

const TOP_LT = 2n ** 63n - 5n;
const TIED_LT = 2n ** 63n - 9n;
const HUGE_AMOUNT = 2n ** 70n + 1n;
const BIG_BALANCE = 2n ** 62n + 7n;
const MAX_LT = 2n ** 63n - 1n;

async function insertAccount(store: Store, address: string, interfaces: string[], extra: { balance?: bigint; lastTxLt?: bigint; getMethods?: string[] } = {}) {
    await store.db.insertInto('account_states').values({
        address, status: 'active', balance: extra.balance ?? 1n, code_hash: null, data_hash: null, code: null, data: null,
        last_tx_lt: extra.lastTxLt ?? 1n, last_tx_hash: hash('00'), last_utime: 1_700_000_000, interfaces: JSON.stringify(interfaces),
        get_methods: JSON.stringify(extra.getMethods ?? []),
    }).execute();
}

async function insertJettonRows(store: Store) {
    await insertAccount(store, BOB, ['wallet_v4r2']);
    await store.db.insertInto('jetton_masters').values({
        address: MASTER, total_supply: HUGE_AMOUNT.toString(), mintable: 1, admin: null, content: Buffer.alloc(0), wallet_code_hash: null,
        metadata: JSON.stringify({ symbol: 'BIG', decimals: '6' }), metadata_uri: null, metadata_status: 'ok', last_tx_lt: 1n,
    }).execute();
    const operation = { utime: 1_700_000_000, source_wallet: null, destination_wallet: null, trace_id: hash('70'), success: 1, awaiting_message: null };
    const operations = [
        {
            ...operation, transaction_hash: hash('71'), lt: TOP_LT, operation: 'transfer', master: MASTER, amount: HUGE_AMOUNT.toString(),
            source: ALICE, destination: BOB, query_id: (2n ** 64n - 1n).toString(), payload: JSON.stringify({ text: 'hi' }),
        },
        {
            ...operation, transaction_hash: hash('72'), lt: TIED_LT, operation: 'mint', master: UNINDEXED_MASTER, amount: '5',
            source: null, destination: ALICE, query_id: '0', payload: null,
        },
        {
            ...operation, transaction_hash: hash('73'), lt: TIED_LT, operation: 'burn', master: MASTER, amount: '7',
            source: ALICE, destination: null, query_id: '1', payload: null,
        },
    ] as const;
    await store.db.insertInto('jetton_operations').values([...operations]).execute();
    await insertJettonHistory(store);
}

/** The history rows the indexer writes for the operations insertJettonRows wrote. */
async function insertJettonHistory(store: Store) {
    const operations = await store.db.selectFrom('jetton_operations').selectAll().execute();
    await store.db.insertInto('jetton_history').values(operations.flatMap(historyRowsOf)).execute();
}

async function insertWalletRows(store: Store) {
    await insertAccount(store, V5, ['wallet_v5r1'], { balance: BIG_BALANCE, lastTxLt: MAX_LT, getMethods: ['seqno', 'get_public_key'] });
    await insertAccount(store, V4, ['wallet_v4r2']);
    await insertAccount(store, ELSEWHERE, ['wallet_v3r2']);
    const wallet = { seqno: 1n, wallet_id: 698983191n, last_tx_lt: 1n };
    await store.db.insertInto('wallets').values([
        { ...wallet, address: V5, public_key: KEY, signature_allowed: 0, plugins: JSON.stringify([addr('e5')]) },
        { ...wallet, address: V4, public_key: KEY, signature_allowed: null, plugins: '[]' },
        { ...wallet, address: ELSEWHERE, public_key: OTHER_KEY, signature_allowed: null, plugins: '[]' },
    ]).execute();
    const jettonWallet = { master: MASTER, last_tx_lt: 1n };
    await store.db.insertInto('jetton_wallets').values([
        { ...jettonWallet, address: addr('f1'), owner: V5, balance: '10', verified: 1 },
        { ...jettonWallet, address: addr('f2'), owner: V5, balance: '0', verified: 1 },
        { ...jettonWallet, address: addr('f3'), owner: V5, balance: '10', verified: 0 },
    ]).execute();
    await store.db.insertInto('nft_items').values([
        { address: addr('f4'), collection: null, item_index: '0', owner: V5, content: Buffer.alloc(0), last_tx_lt: 1n },
        { address: addr('f5'), collection: null, item_index: '1', owner: V5, content: Buffer.alloc(0), last_tx_lt: 1n },
    ]).execute();
    await store.db.insertInto('multisig_members').values([
        { multisig: addr('f6'), member: V5, kind: 'address' },
        { multisig: addr('f7'), member: KEY, kind: 'public_key' },
    ]).execute();
    await store.db.insertInto('pool_stakers').values({ pool: addr('f8'), staker: V5, amount: '1', pending_deposit: null }).execute();
}

for (const backend of storeBackends()) {
    describe(`store reads (${backend.name})`, { skip: mainnetSkip }, () => {
        let store: Store & { dispose(): Promise<void> };
        const records = new Map<string, BlockRecord>();

        before(async () => {
            store = await backend.open();
            for (const name of ['block-4', 'block-5', 'block-6']) {
                const record = await blockRecordFromBoc(readBlockBoc(name));
                records.set(name, record);
                await indexBlock(store, record);
            }
            await insertJettonRows(store);
            await insertWalletRows(store);
        });

        after(async () => {
            await store?.dispose();
        });

        test('blocks come with their ids and counts as numbers and the parent and shard block lists as arrays', async () => {
            const record = records.get('block-5')!;
            const blocks = await blocksInTimeRange(store.db, BigInt(record.utime), BigInt(record.utime));
            assert.deepEqual(blocks, [{
                id: { workchain: -1, shard: '8000000000000000', seqno: 17734191 },
                utime: 1642757054,
                masterRef: null,
                txCount: 6,
                shardBlocks: record.shardBlocks.map(formatBlockId),
                parents: record.parents.map(formatBlockId),
            }]);
            assert.ok(blocks[0].shardBlocks.length > 0 && blocks[0].parents.length > 0);

            const shard = records.get('block-6')!;
            const [shardBlock] = await blocksInTimeRange(store.db, BigInt(shard.utime), BigInt(shard.utime));
            assert.equal(shardBlock.masterRef, shard.masterRef ? formatBlockId(shard.masterRef) : null);
            assert.deepEqual(shardBlock.shardBlocks, []);
        });

        test('a block\'s transactions come parsed, by lt then account, with every account they mention; an unknown block is undefined', async () => {
            const summary = readSummary('block-5');
            const id = { workchain: -1, shard: '8000000000000000', seqno: 17734191 };
            const read = await blockTransactions(store.db, id);
            assert.ok(read);
            assert.deepEqual(read.transactions.map(t => [t.parsed.hash, t.parsed.account, t.parsed.lt]), summary.transactions.map(t => [t.hash, t.account, BigInt(t.lt)]));
            for (const item of read.transactions) {
                assert.deepEqual(item.block, id);
                assert.equal((await findTrace(store.db, item.parsed.hash))?.traceId, item.traceId);
            }
            // Block files give the balance after every transaction (chained from the state update).
            for (const t of read.transactions) assert.equal(typeof t.endBalance, 'bigint');
            assert.deepEqual(read.accounts, [...read.accounts].sort());
            for (const t of summary.transactions) assert.ok(read.accounts.includes(t.account));
            for (const [account, interfaces] of read.interfaces) {
                assert.ok(read.accounts.includes(account));
                assert.ok(Array.isArray(interfaces));
            }

            const empty = await blockTransactions(store.db, { workchain: 0, shard: '0d83800000000000', seqno: 4168601 });
            assert.deepEqual(empty?.transactions, [], 'an indexed block without transactions');
            assert.equal(await blockTransactions(store.db, { ...id, seqno: 17734192 }), undefined);
        });

        test('an account\'s transactions page newest first, strictly below before_lt', async () => {
            const elector = addr('33', -1);
            const lts = async (beforeLt: bigint | undefined, limit: number) =>
                (await storedTransactions(store.db, await accountTransactionHashes(store.db, elector, beforeLt, limit))).map(row => decodeStoredTransaction(row).parsed.lt);
            assert.deepEqual(await lts(undefined, 10), [24836995000002n, 24836995000001n]);
            assert.deepEqual(await lts(undefined, 1), [24836995000002n]);
            assert.deepEqual(await lts(24836995000002n, 10), [24836995000001n]);
        });

        test('a trace\'s transactions and how much of it is indexed', async () => {
            const read = await blockTransactions(store.db, { workchain: 0, shard: 'a000000000000000', seqno: 54302208 });
            const traceId = read!.transactions[0].traceId;
            const trace = await traceTransactions(store.db, traceId);
            assert.ok(trace.transactions.some(t => t.parsed.hash === read!.transactions[0].parsed.hash));
            assert.ok(trace.transactions.every(t => t.traceId === traceId));
            const status = await traceStatus(store.db, traceId);
            assert.equal(status.txCount, trace.transactions.length);
            // Found by any of its transactions, or by a message one of them received, with the same status.
            for (const t of trace.transactions) {
                assert.deepEqual(await findTrace(store.db, t.parsed.hash), { traceId, status });
                if (t.parsed.inMsg) assert.deepEqual(await findTrace(store.db, t.parsed.inMsg.hash), { traceId, status });
            }
            assert.equal(await findTrace(store.db, hash('85')), undefined);
            const row = await store.db.selectFrom('traces').selectAll().where('trace_id', '=', traceId).executeTakeFirstOrThrow();
            assert.equal(status.pending, Number(row.pending));
            assert.equal(status.complete, Number(row.pending) === 0 && Number(row.orphan) === 0);

            const bookkeeping = { tx_count: 3, start_lt: 1n, end_lt: 2n, start_utime: 0 };
            await store.db.insertInto('traces').values([
                { ...bookkeeping, trace_id: hash('81'), pending: 0, orphan: 0 },
                { ...bookkeeping, trace_id: hash('82'), pending: 2, orphan: 0 },
                { ...bookkeeping, trace_id: hash('83'), pending: 0, orphan: 1 },
            ]).execute();
            assert.deepEqual(await traceStatus(store.db, hash('81')), { txCount: 3, pending: 0, complete: true });
            assert.deepEqual(await traceStatus(store.db, hash('82')), { txCount: 3, pending: 2, complete: false });
            assert.deepEqual(await traceStatus(store.db, hash('83')), { txCount: 3, pending: 0, complete: false });
            assert.deepEqual(await traceStatus(store.db, hash('84')), { txCount: 0, pending: 0, complete: true });
        });

        test('jetton history: exact lts, amounts and query ids, payloads as the JSON stored, the jettons\' metadata and the parties\' interfaces', async () => {
            const first = await jettonHistory(store.db, ALICE, undefined, 1);
            assert.deepEqual(first.operations, [{
                operation: 'transfer', utime: 1_700_000_000, lt: TOP_LT, transactionHash: hash('71'), traceId: hash('70'), master: MASTER,
                amount: HUGE_AMOUNT, source: ALICE, destination: BOB, queryId: 2n ** 64n - 1n, payloadJson: '{"text":"hi"}',
            }]);
            assert.equal(first.nextFrom, TOP_LT);
            assert.deepEqual([...first.jettons], [[MASTER, { symbol: 'BIG', decimals: '6' }]]);
            assert.deepEqual([...first.interfaces], [[BOB, ['wallet_v4r2']]]);

            // Both operations at the boundary lt come together, even past the limit, so the next page loses none.
            const second = await jettonHistory(store.db, ALICE, first.nextFrom, 1);
            assert.deepEqual((second.operations as JettonOperation[]).map(op => [op.operation, op.lt, op.amount, op.payloadJson]), [['mint', TIED_LT, 5n, null], ['burn', TIED_LT, 7n, null]]);
            assert.equal(second.nextFrom, TIED_LT);
            assert.deepEqual([...second.jettons.keys()], [MASTER], 'a master the index does not hold has no metadata');
            const last = await jettonHistory(store.db, ALICE, second.nextFrom, 1);
            assert.deepEqual([last.operations, last.nextFrom], [[], undefined]);

            // With the texts the indexer stores: the same operations, as texts and what fills their holes.
            const stored = await jettonHistory(store.db, ALICE, undefined, 10, { textUsable: isCurrentOperationText });
            assert.deepEqual(stored.operations.map(op => ['text' in op && isCurrentOperationText(op.holes), op.transactionHash, op.lt, op.source, op.destination, op.master]), [
                [true, hash('71'), TOP_LT, ALICE, BOB, MASTER], [true, hash('72'), TIED_LT, null, ALICE, UNINDEXED_MASTER], [true, hash('73'), TIED_LT, ALICE, null, MASTER],
            ]);
            assert.deepEqual((await jettonHistory(store.db, BOB, undefined, 10, { textUsable: isCurrentOperationText })).operations.map(op => op.transactionHash), [hash('71')]);
        });

        test('jetton history of an index made before 0013: its operations get history rows without texts, shown from their columns', async () => {
            const before = await jettonHistory(store.db, ALICE, undefined, 10, { textUsable: isCurrentOperationText });
            await store.db.schema.dropTable('jetton_history').execute();
            await store.db.schema.createIndex('jetton_operations_source').on('jetton_operations').columns(['source', 'lt']).execute();
            await store.db.schema.createIndex('jetton_operations_destination').on('jetton_operations').columns(['destination', 'lt']).execute();
            await sql`delete from kysely_migration where name in ('0013-jetton-history', '0014-untexted-history', '0016-history-templates')`.execute(store.db);
            const { error, results } = await new Migrator({ db: store.db, provider: migrationProvider(store.dialect), allowUnorderedMigrations: true }).migrateToLatest();
            assert.equal(error, undefined);
            assert.deepEqual(results?.map(r => [r.migrationName, r.status]), [['0013-jetton-history', 'Success'], ['0014-untexted-history', 'Success'], ['0016-history-templates', 'Success']]);
            const rows = await store.db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text']).orderBy('transaction_hash').orderBy('account').execute();
            assert.deepEqual(rows, [
                { account: ALICE, transaction_hash: hash('71'), text: null }, { account: BOB, transaction_hash: hash('71'), text: null },
                { account: ALICE, transaction_hash: hash('72'), text: null }, { account: ALICE, transaction_hash: hash('73'), text: null },
            ].sort((a, b) => (a.transaction_hash === b.transaction_hash ? (a.account < b.account ? -1 : 1) : a.transaction_hash < b.transaction_hash ? -1 : 1)));
            const after = await jettonHistory(store.db, ALICE, undefined, 10, { textUsable: isCurrentOperationText });
            assert.deepEqual(after.operations.map(op => ['text' in op, op.transactionHash]), before.operations.map(op => [false, op.transactionHash]));
            assert.deepEqual(toJsonBody(presentJettonHistory(after)), toJsonBody(presentJettonHistory(before)));

            // The indexer then gives them the texts it writes for new operations, a batch at a time.
            const written = await store.db.selectFrom('jetton_operations').selectAll().execute().then(ops => ops.flatMap(historyRowsOf));
            assert.equal(await fillHistoryTexts(store.db, new AbortController().signal, 1), 3);
            const filled = await store.db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text', 'text_holes']).orderBy('transaction_hash').orderBy('account').execute();
            assert.deepEqual(filled, rows.map(row => {
                const { text, text_holes } = written.find(w => w.account === row.account && w.transaction_hash === row.transaction_hash)!;
                return { ...row, text, text_holes };
            }));
            assert.ok(filled.every(row => isCurrentOperationText(row.text_holes!)));
            const fromTexts = await jettonHistory(store.db, ALICE, undefined, 10, { textUsable: isCurrentOperationText });
            assert.deepEqual(fromTexts.operations.map(op => ['text' in op, op.transactionHash]), before.operations.map(op => [true, op.transactionHash]));
            assert.deepEqual(toJsonBody(presentJettonHistory(fromTexts)), toJsonBody(presentJettonHistory(before)));
            assert.equal(await fillHistoryTexts(store.db, new AbortController().signal), 0, 'nothing is left to fill');
        });

        test('jetton history of an index made by the version before texts were stored as templates: its old texts dropped, shown from the columns, filled again in the new form', async () => {
            const before = await jettonHistory(store.db, ALICE, undefined, 10, { textUsable: isCurrentOperationText });
            const current = await store.db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text', 'text_holes']).orderBy('transaction_hash').orderBy('account').execute();
            assert.ok(current.length > 0 && current.every(row => row.text !== null));
            // The table as that version left it: one text column holding `1:` and the ASCII text with 0x01 for each hole.
            await store.db.schema.dropIndex('jetton_history_untexted').execute();
            await store.db.schema.alterTable('jetton_history').dropColumn('text_holes').execute();
            await store.db.schema.alterTable('jetton_history').dropColumn('text').execute();
            await store.db.schema.alterTable('jetton_history').addColumn('text', 'text').execute();
            await store.db.schema.createIndex('jetton_history_untexted').on('jetton_history').column('transaction_hash').where(sql.ref('text'), 'is', null).execute();
            const legacy = store.db as unknown as Kysely<any>;
            for (const row of current) {
                await legacy.updateTable('jetton_history').set({ text: `1:${row.text!.toString('latin1').replaceAll('\u0000', '\u0001')}` })
                    .where('account', '=', row.account).where('transaction_hash', '=', row.transaction_hash).execute();
            }
            await sql`delete from kysely_migration where name = '0016-history-templates'`.execute(store.db);
            // Unordered: the test before ran 0013 and 0014 again after the later ones.
            const { error, results } = await new Migrator({ db: store.db, provider: migrationProvider(store.dialect), allowUnorderedMigrations: true }).migrateToLatest();
            assert.equal(error, undefined);
            assert.deepEqual(results?.map(r => [r.migrationName, r.status]), [['0016-history-templates', 'Success']]);

            const migrated = await store.db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text', 'text_holes']).orderBy('transaction_hash').orderBy('account').execute();
            assert.deepEqual(migrated, current.map(row => ({ ...row, text: null, text_holes: null })));
            const meanwhile = await jettonHistory(store.db, ALICE, undefined, 10, { textUsable: isCurrentOperationText });
            assert.ok(meanwhile.operations.every(op => !('text' in op)), 'shown from the columns until filled');
            assert.deepEqual(toJsonBody(presentJettonHistory(meanwhile)), toJsonBody(presentJettonHistory(before)));

            assert.equal(await fillHistoryTexts(store.db, new AbortController().signal), new Set(current.map(row => row.transaction_hash)).size);
            assert.deepEqual(await store.db.selectFrom('jetton_history').select(['account', 'transaction_hash', 'text', 'text_holes']).orderBy('transaction_hash').orderBy('account').execute(), current);
            const after = await jettonHistory(store.db, ALICE, undefined, 10, { textUsable: isCurrentOperationText });
            assert.ok(after.operations.every(op => 'text' in op), 'shown from the texts again');
            assert.deepEqual(toJsonBody(presentJettonHistory(after)), toJsonBody(presentJettonHistory(before)));

            // Taken down again (scripts/compare-answers.ts does, for the version before): one text column, every row without a text.
            const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect), allowUnorderedMigrations: true });
            assert.equal((await migrator.migrateTo('0015-protocol-interfaces')).error, undefined);
            // (Columns in another order than the test before's: PostgreSQL refuses a prepared statement whose result type changed.)
            assert.deepEqual(await legacy.selectFrom('jetton_history').select(['transaction_hash', 'account', 'text']).orderBy('transaction_hash').orderBy('account').execute(),
                current.map(row => ({ transaction_hash: row.transaction_hash, account: row.account, text: null })));
            assert.equal((await migrator.migrateToLatest()).error, undefined);
            assert.equal(await fillHistoryTexts(store.db, new AbortController().signal), new Set(current.map(row => row.transaction_hash)).size);
        });

        test('account interfaces: one entry an account however often named, as stored; accounts without a state absent; more than a statement\'s parameters', async () => {
            assert.deepEqual(await accountInterfaces(store.db, []), new Map());
            const found = await accountInterfaces(store.db, [V4, V5, UNINDEXED_MASTER, V4, BOB]);
            assert.deepEqual(new Map([...found].sort()), new Map([[BOB, ['wallet_v4r2']], [V4, ['wallet_v4r2']], [V5, ['wallet_v5r1']]]));
            // SQLite reads in IN lists of 5000, PostgreSQL in one array parameter: 70,000 addresses pass either way.
            const many = Array.from({ length: 70_000 }, (_, i) => `0:${i.toString(16).padStart(64, '0')}`);
            const manyFound = await accountInterfaces(store.db, [...many, ELSEWHERE]);
            assert.deepEqual([...manyFound], [[ELSEWHERE, ['wallet_v3r2']]]);
        });

        test('wallets by public key: decoded lists (the get methods as stored), exact balances and lts, the signature flag and what they hold', async () => {
            const wallets = await walletsByPublicKeys(store.db, [KEY, KEY]);
            assert.deepEqual(wallets, [
                {
                    address: V5, publicKey: KEY, balance: BIG_BALANCE, status: 'active', lastUtime: 1_700_000_000, lastTxLt: MAX_LT,
                    interfaces: ['wallet_v5r1'], getMethodsJson: '["seqno","get_public_key"]', plugins: [addr('e5')], signatureAllowed: false,
                    stats: { jettons: 1, nfts: 2, multisigs: 2, stakingPools: 1 },
                },
                {
                    address: V4, publicKey: KEY, balance: 1n, status: 'active', lastUtime: 1_700_000_000, lastTxLt: 1n,
                    interfaces: ['wallet_v4r2'], getMethodsJson: '[]', plugins: [], signatureAllowed: undefined,
                    stats: { jettons: 0, nfts: 0, multisigs: 1, stakingPools: 0 },
                },
            ]);
            assert.deepEqual(await walletsByPublicKeys(store.db, ['00'.repeat(32)]), []);
        });
    });
}

/**
 * A block's transactions as the block list route reads them: the stored rows by lt, each decoded,
 * with the accounts they mention and those accounts' interfaces.
 */
async function blockTransactions(db: IndexDb, id: BlockId) {
    const rows = await storedBlockTransactions(db, id);
    if (!rows) return undefined;
    const transactions = rows.map(decodeStoredTransaction);
    const accounts = mentionedAccounts(transactions);
    return { transactions, accounts, interfaces: await accountInterfaces(db, accounts) };
}
