import type { Insertable, Transaction as DbTransaction } from 'kysely';
import type { BlockRecord, TransactionRecord } from '../chain/chain-source.ts';
import { formatBlockId } from '../ton/block-id.ts';
import { byLtThenAccount, hasCells, parseTransactionCell, type ParsedTransaction, type TransactionSummary } from '../ton/transaction.ts';
import type { AccountStatesTable, IndexDatabase, MessagesTable, TransactionsTable } from '../store/schema.ts';
import { BulkInsert } from '../store/bulk-insert.ts';
import type { Store } from '../store/store.ts';
import { readInChunks } from '../store/chunks.ts';
import { linkTraces } from './trace-linker.ts';
import { interfacesOf, type AccountInspector, type InspectedAccount } from './inspect-accounts.ts';
import { deriveJettonOperations, writeJettonOperations, type JettonWalletInfo } from './jetton-operations.ts';
import { writeContractRows } from './contract-rows.ts';
import { writeMultisigMembers, writePoolStakers } from './participant-rows.ts';
import { readBoc } from '../ton/boc/boc-reader.ts';
import { encodeExtraBalance } from '../ton/extra-currencies.ts';
import { writePublicLibraries } from './library-rows.ts';
import { currentStates } from './current-states.ts';
import { writeMultisigOrders } from './multisig-orders.ts';
import { bumpGeneration } from './index-generation.ts';

export interface IndexedBlockSummary {
    inserted: boolean;
    transactions: number;
}

type Trx = DbTransaction<IndexDatabase>;

/**
 * Writes one block and everything derived from it (transactions, messages, traces, account
 * states, the source cursor) in one database transaction: after a crash the block is either
 * fully indexed or not at all. A block already in the index is skipped, so re-delivery is harmless.
 */
export interface IndexContext {
    /** Runs get-methods to learn what the block's accounts are; without it only code hashes are known. */
    inspector?: AccountInspector;
}

export async function indexBlock(
    store: Store,
    block: BlockRecord,
    cursor?: { source: string; cursor: string },
    context: IndexContext = {},
): Promise<IndexedBlockSummary> {
    const records = new Map<string, TransactionRecord>();
    const parsed = block.transactions.map(record => {
        const tx = record.summary ?? decode(record);
        records.set(tx.hash, record);
        return tx;
    }).sort(byLtThenAccount);
    // A summary from a reading thread has no cells: the few transactions whose message bodies are read again are decoded here.
    const withCells = (tx: TransactionSummary): ParsedTransaction => hasCells(tx) ? tx : decode(records.get(tx.hash)!);
    function decode(record: TransactionRecord): ParsedTransaction {
        return parseTransactionCell(record.cell ?? readBoc(record.boc)[0], block.id.workchain);
    }
    // Reading what the accounts are runs get-methods: done before the write transaction.
    const inspected = context.inspector && block.accountStates ? await context.inspector.inspect(store.db, block.accountStates) : new Map<string, InspectedAccount>();
    const jettonWallets = await knownJettonWallets(store, parsed, inspected);

    return store.db.transaction().execute(async trx => {
        const existing = await trx.selectFrom('blocks').select('seqno')
            .where('workchain', '=', block.id.workchain).where('shard', '=', block.id.shard).where('seqno', '=', block.id.seqno)
            .executeTakeFirst();
        if (!existing) {
            await insertBlockRow(trx, block);
            await bumpGeneration(trx);
            const traceIds = await linkTraces(trx, parsed);
            await insertTransactions(trx, block, parsed, traceIds, records);
            if (block.listText) await insertListText(trx, block);
            await upsertMessages(trx, parsed);
            await upsertAccountStates(trx, block, parsed, inspected);
            await writeContractRows(trx, block, inspected);
            // Rows derived from a state are rewritten only from the accounts' newest states.
            const current = await currentStates(trx, block.accountStates ?? []);
            await writeMultisigMembers(trx, current, inspected);
            await writePoolStakers(trx, current, inspected);
            await writePublicLibraries(trx, current);
            await writeMultisigOrders(trx, current, inspected, parsed);
            await writeJettonOperations(trx, deriveJettonOperations(parsed, withCells, traceIds, address => jettonWallets.get(address)));
            if (block.config) await saveChainConfig(trx, block);
        }
        if (cursor) await saveCursor(trx, cursor.source, cursor.cursor);
        return { inserted: !existing, transactions: existing ? 0 : parsed.length };
    });
}

/** Keeps the config of the newest key block (blocks may arrive out of order). */
async function saveChainConfig(trx: Trx, block: BlockRecord): Promise<void> {
    const current = await trx.selectFrom('chain_config').select('block_seqno').where('id', '=', 1).executeTakeFirst();
    if (current && BigInt(current.block_seqno) > BigInt(block.id.seqno)) return;
    const row = { block_workchain: block.id.workchain, block_seqno: block.id.seqno, utime: block.utime, config: block.config! };
    await trx.insertInto('chain_config').values({ id: 1, ...row })
        .onConflict(oc => oc.column('id').doUpdateSet(row))
        .execute();
}

async function insertBlockRow(trx: Trx, block: BlockRecord): Promise<void> {
    await trx.insertInto('blocks').values({
        workchain: block.id.workchain,
        shard: block.id.shard,
        seqno: block.id.seqno,
        root_hash: block.id.rootHash,
        file_hash: block.id.fileHash,
        utime: block.utime,
        start_lt: block.startLt,
        end_lt: block.endLt,
        is_key_block: block.isKeyBlock ? 1 : 0,
        parents: JSON.stringify(block.parents.map(formatBlockId)),
        master_ref: block.masterRef ? formatBlockId(block.masterRef) : null,
        shard_blocks: JSON.stringify(block.shardBlocks.map(formatBlockId)),
        tx_count: block.transactions.length,
    }).execute();
}

async function insertTransactions(trx: Trx, block: BlockRecord, parsed: TransactionSummary[], traceIds: Map<string, string>, records: Map<string, TransactionRecord>): Promise<void> {
    const rows = parsed.map(tx => {
        const record = records.get(tx.hash)!;
        return {
            hash: tx.hash,
            account: tx.account,
            lt: tx.lt,
            utime: tx.utime,
            workchain: block.id.workchain,
            shard: block.id.shard,
            seqno: block.id.seqno,
            trace_id: traceIds.get(tx.hash)!,
            in_msg_hash: tx.inMsg?.hash ?? null,
            success: tx.success ? 1 : 0,
            end_balance: record.endBalance ?? null,
            boc: record.boc,
            text: record.text?.text ?? null,
            text_holes: record.text?.holes ?? null,
        };
    });
    await TRANSACTIONS_INSERT.run(trx, rows);
}

async function insertListText(trx: Trx, block: BlockRecord): Promise<void> {
    const { workchain, shard, seqno } = block.id;
    await trx.insertInto('block_texts').values({ workchain, shard, seqno, text: block.listText!.text, holes: block.listText!.holes }).execute();
}

const TRANSACTIONS_INSERT = new BulkInsert<Insertable<TransactionsTable>>((db, rows) => db.insertInto('transactions').values(rows)
    .onConflict(oc => oc.column('hash').doNothing()));

async function upsertMessages(trx: Trx, parsed: TransactionSummary[]): Promise<void> {
    const rows = new Map<string, Insertable<MessagesTable>>();
    const put = (m: NonNullable<TransactionSummary['inMsg']>, link: { tx_in_hash?: string; tx_out_hash?: string }) => {
        const row = rows.get(m.hash) ?? {
            hash: m.hash, msg_type: m.msgType, source: m.source, destination: m.destination, created_lt: m.createdLt,
            value: m.value, op_code: m.opCode, tx_in_hash: null, tx_out_hash: null,
        };
        rows.set(m.hash, { ...row, ...link });
    };
    for (const tx of parsed) {
        if (tx.inMsg) put(tx.inMsg, { tx_in_hash: tx.hash });
        for (const out of tx.outMsgs) put(out, { tx_out_hash: tx.hash });
    }
    await MESSAGES_UPSERT.run(trx, [...rows.values()]);
}

const MESSAGES_UPSERT = new BulkInsert<Insertable<MessagesTable>>((db, rows) => db.insertInto('messages').values(rows)
    .onConflict(oc => oc.column('hash').doUpdateSet(eb => ({
        tx_in_hash: eb.fn.coalesce(eb.ref('excluded.tx_in_hash'), eb.ref('messages.tx_in_hash')),
        tx_out_hash: eb.fn.coalesce(eb.ref('excluded.tx_out_hash'), eb.ref('messages.tx_out_hash')),
    }))));

/** Verified jetton wallets among the accounts with transactions: as inspected in this block, else as indexed. */
async function knownJettonWallets(store: Store, parsed: TransactionSummary[], inspected: Map<string, InspectedAccount>): Promise<Map<string, JettonWalletInfo>> {
    const wallets = new Map<string, JettonWalletInfo>();
    const unknown: string[] = [];
    for (const account of new Set(parsed.map(tx => tx.account))) {
        const found = inspected.get(account);
        if (found?.detected.jettonWallet) {
            if (found.verifiedJettonWallet) wallets.set(account, { owner: found.detected.jettonWallet.owner, master: found.detected.jettonWallet.master });
        } else if (!found) unknown.push(account);
    }
    const known = await readInChunks(unknown, 500, chunk => store.db.selectFrom('jetton_wallets').select(['address', 'owner', 'master'])
        .where('address', 'in', chunk).where('verified', '=', 1).execute());
    for (const row of known) wallets.set(row.address, { owner: row.owner, master: row.master });
    return wallets;
}

/** The newest state of every account the block touched; an older state never overwrites a newer one. */
async function upsertAccountStates(trx: Trx, block: BlockRecord, parsed: TransactionSummary[], inspected: Map<string, InspectedAccount>): Promise<void> {
    const utimeByHash = new Map(parsed.map(tx => [tx.hash, tx.utime]));
    const rows = (block.accountStates ?? []).map(state => ({
        address: state.address,
        status: state.status,
        balance: state.balance,
        extra_balance: encodeExtraBalance(state.extraBalance),
        code_hash: state.codeHash ?? null,
        data_hash: state.dataHash ?? null,
        code: state.code ?? null,
        data: state.data ?? null,
        last_tx_lt: state.lastTransLt,
        last_tx_hash: state.lastTransHash,
        last_utime: utimeByHash.get(state.lastTransHash) ?? block.utime,
        interfaces: JSON.stringify(interfacesOf(state, inspected.get(state.address))),
        get_methods: JSON.stringify(inspected.get(state.address)?.detected.getMethods ?? []),
    }));
    await ACCOUNT_STATES_UPSERT.run(trx, rows);
}

const ACCOUNT_STATES_UPSERT = new BulkInsert<Insertable<AccountStatesTable>>((db, rows) => db.insertInto('account_states').values(rows)
    .onConflict(oc => oc.column('address')
        .doUpdateSet(eb => ({
            status: eb.ref('excluded.status'),
            balance: eb.ref('excluded.balance'),
            extra_balance: eb.ref('excluded.extra_balance'),
            code_hash: eb.ref('excluded.code_hash'),
            data_hash: eb.ref('excluded.data_hash'),
            code: eb.ref('excluded.code'),
            data: eb.ref('excluded.data'),
            last_tx_lt: eb.ref('excluded.last_tx_lt'),
            last_tx_hash: eb.ref('excluded.last_tx_hash'),
            last_utime: eb.ref('excluded.last_utime'),
            interfaces: eb.ref('excluded.interfaces'),
            get_methods: eb.ref('excluded.get_methods'),
        }))
        .where(eb => eb('account_states.last_tx_lt', '<=', eb.ref('excluded.last_tx_lt')))));

async function saveCursor(trx: Trx, source: string, cursor: string): Promise<void> {
    await trx.insertInto('source_cursors').values({ source, cursor })
        .onConflict(oc => oc.column('source').doUpdateSet({ cursor }))
        .execute();
}
