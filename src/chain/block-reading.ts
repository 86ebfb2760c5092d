import { type Cell, loadAccount, type ShardAccount } from '@ton/core';
import type { AccountStateReader, AccountStateRecord, BlockRecord } from './chain-source.ts';
import { parseBlockCell, readBlockRoot, type ParsedBlock } from '../ton/block/block-file.ts';
import { loadBlock } from '../ton/block/block.ts';
import { accountStatesAfterBlock, type AccountStateAfterBlock } from '../ton/block/block-state.ts';
import { transactionEndBalances } from '../ton/block/account-balances.ts';
import { byLtThenAccount, hasCells, parseTransactionCell, type ParsedTransaction } from '../ton/transaction.ts';
import { formatBlockId } from '../ton/block-id.ts';
import { listTemplate, storedListTemplate, storedTemplate, transactionTextTemplate, type TextTemplate } from '../present/stored/transaction-template.ts';
import { sha256 } from '../ton/sha256.ts';
import { Lru } from '../lru.ts';
import { writeBoc } from '../ton/boc/boc-writer.ts';
import { encodeLibraryField } from '../ton/libraries.ts';
import { extraCurrencyAmounts } from '../ton/extra-currencies.ts';

/**
 * The one way a block reaches the indexer, whatever its source: a `block#11ef55aa` BOC read by the
 * block parser, with the state of every account it changed taken from its state update and the
 * balance after each transaction. Where the update prunes part of an account (its unchanged code,
 * data, libraries or extra currencies), the source's account-state reader completes it; the state
 * it gives must hash as the account in the block. Without a reader such states keep what the block shows.
 * `texts`: whether to make each transaction's stored text (`--transaction-texts`).
 */
export async function readBlockBoc(boc: Buffer, reader?: AccountStateReader, root: Cell = readBlockRoot(boc), texts = true): Promise<BlockRecord> {
    // The block's cells are walked once; the three readings share it.
    const block = loadBlock(root.beginParse());
    const states = accountStatesAfterBlock(root, block);
    const parsedBlock = parseBlockCell(root, sha256(boc).toString('hex'), block);
    // Each transaction is decoded once: for its balance movement here and for the indexer.
    const parsed = new Map<Cell, ParsedTransaction>();
    for (const t of parsedBlock.transactions) parsed.set(t.cell, parseTransactionCell(t.cell, parsedBlock.id.workchain));
    const endBalances = transactionEndBalances(root, block, cell => parsed.get(cell));
    const record = blockRecordFromParts(parsedBlock, states, endBalances, parsed);
    if (texts) addTransactionTexts(record);
    record.accountStates = await Promise.all(states.map(async (state, i) => {
        // The block's own ShardAccount entry gives the last transaction; the reader only completes the Account cell.
        const shard = { lastTransactionHash: BigInt(`0x${state.lastTransHash}`), lastTransactionLt: state.lastTransLt };
        if (state.complete) return accountStateRecord(state.account, { account: state.decoded ?? loadAccountCell(state.accountCell), ...shard });
        if (!reader) return record.accountStates![i];
        const account = await reader.accountCellAt(record.id, state.account, state.accountCell);
        if (!account) throw new Error(`the source has no state of ${state.account} at block ${record.id.workchain}:${record.id.seqno}, which the block's update prunes in part`);
        if (account.level() !== 0 || !account.hash().equals(state.accountCell.hash(0))) {
            throw new Error(`the source's state of ${state.account} at block ${record.id.workchain}:${record.id.seqno} is not the account the block has`);
        }
        return accountStateRecord(state.account, { account: loadAccountCell(account), ...shard });
    }));
    return record;
}

/**
 * Each transaction's text as the API will show it, made here where its cells are at hand (in a
 * reading thread when there are some), so that reading a block's list needs no decoding; and the
 * list's text as one piece when every transaction has one. A transaction whose text cannot be made
 * is still indexed, and presented from its BOC when read; the record names it (`renderFailures`) for
 * the writer to log and count.
 */
function addTransactionTexts(record: BlockRecord): void {
    const block = formatBlockId(record.id);
    const listed: Array<{ lt: bigint; account: string; template: TextTemplate; boc: Buffer }> = [];
    for (const t of record.transactions) {
        if (!t.summary || !hasCells(t.summary)) continue;
        let template: TextTemplate | null = null;
        try {
            template = transactionTextTemplate(t.summary, block, t.endBalance ?? null);
        } catch (error) {
            (record.renderFailures ??= []).push(`${t.summary.hash}: ${(error as Error).message}`);
        }
        t.text = template ? storedTemplate(template) : undefined;
        if (template) listed.push({ lt: t.summary.lt, account: t.summary.account, template, boc: t.boc });
    }
    if (listed.length === 0 || listed.length !== record.transactions.length) return;
    // The order the API lists a block's transactions in (store/read/transactions.ts, blockTransactions).
    listed.sort(byLtThenAccount);
    const list = listTemplate(listed);
    if (list) record.listText = storedListTemplate(list);
}

/** `account_none$0 = Account;` or an account. */
function loadAccountCell(cell: Cell): ShardAccount['account'] {
    const slice = cell.beginParse();
    return slice.loadBit() ? loadAccount(slice) : undefined;
}

/**
 * endBalances (transaction hash → balance right after it) comes from transactionEndBalances; without it,
 * only the last transaction of each account gets a balance, the one the state after the block gives.
 */
export function blockRecordFromParts(block: ParsedBlock, states: AccountStateAfterBlock[] = [], endBalances?: Map<string, bigint>, parsed?: Map<Cell, ParsedTransaction>): BlockRecord {
    // The state after the block gives the exact end balance of each account's last transaction in it.
    const finalBalance = new Map(states.map(s => [s.lastTransHash, s.balance]));
    for (const [hash, balance] of endBalances ?? []) {
        const last = finalBalance.get(hash);
        if (last !== undefined && last !== balance) {
            throw new Error(`Transaction ${hash}: balance ${balance} disagrees with the state after the block (${last})`);
        }
        finalBalance.set(hash, balance);
    }
    return {
        id: block.id,
        utime: block.utime,
        startLt: block.startLt,
        endLt: block.endLt,
        isKeyBlock: block.isKeyBlock,
        prevKeyBlockSeqno: block.prevKeyBlockSeqno,
        parents: block.prev,
        masterRef: block.masterRef,
        shardBlocks: block.shardTops.map(({ workchain, shard, seqno, rootHash, fileHash }) => ({ workchain, shard, seqno, rootHash, fileHash })),
        transactions: block.transactions.map(t => ({ boc: writeBoc(t.cell), cell: t.cell, summary: parsed?.get(t.cell), endBalance: finalBalance.get(t.hash) })),
        accountStates: states.map(s => ({
            address: s.account, status: s.status, balance: s.balance, codeHash: s.codeHash, dataHash: s.dataHash,
            lastTransLt: s.lastTransLt, lastTransHash: s.lastTransHash,
        })),
        config: block.config ? writeBoc(block.config) : undefined,
    };
}

/** The record of an account's full state. */
export function accountStateRecord(address: string, shardAccount: ShardAccount): AccountStateRecord {
    const account = shardAccount.account;
    const state = account?.storage.state;
    const code = state?.type === 'active' ? state.state.code ?? undefined : undefined;
    const data = state?.type === 'active' ? state.state.data ?? undefined : undefined;
    const libraries = state?.type === 'active' ? encodeLibraryField(state.state.libraries) : undefined;
    const extra = extraCurrencyAmounts(account?.storage.balance.other);
    return {
        address,
        status: !account ? 'nonexist' : state!.type === 'active' ? 'active' : state!.type === 'frozen' ? 'frozen' : 'uninit',
        balance: account?.storage.balance.coins ?? 0n,
        extraBalance: extra.size > 0 ? extra : undefined,
        codeHash: code?.hash().toString('hex'),
        dataHash: data?.hash().toString('hex'),
        // Our writer copies the bytes of cells read from a BOC (the config contract's data is the whole
        // config, every block). Equal cells are written once by hash: a state completed from known cells
        // may hold one cell as two objects, and the stored BOC must not depend on how it was read.
        code: code ? stateBoc(code) : undefined,
        data: data ? stateBoc(data) : undefined,
        libraries,
        lastTransLt: shardAccount.lastTransactionLt,
        lastTransHash: shardAccount.lastTransactionHash.toString(16).padStart(64, '0'),
    };
}

/** BOCs of code and data cells written lately, by hash: most blocks leave the config, the elector and most code as they were. */
const recentStateBocs = new Lru<string, Buffer>(512);

function stateBoc(cell: Cell): Buffer {
    const key = cell.hash().toString('latin1');
    let boc = recentStateBocs.get(key);
    if (!boc) {
        boc = writeBoc(cell, { dedupeByHash: true });
        recentStateBocs.set(key, boc);
    }
    return boc;
}
