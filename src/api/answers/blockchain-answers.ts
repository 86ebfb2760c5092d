import type { BlockId } from '../../ton/block-id.ts';
import type { ExtraCurrencyCatalog } from '../../ton/extra-currencies.ts';
import type { Store } from '../../store/store.ts';
import { blocksInTimeRange } from '../../store/read/blocks.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import { accountTransactionHashes, blockListText, blockTransactions, storedTransactions } from '../../store/read/transactions.ts';
import { ByteText } from '../../json/byte-text.ts';
import { RawJson } from '../../json/json.ts';
import { presentReducedBlock } from '../../present/blocks.ts';
import { TransactionTexts } from './transaction-texts.ts';

const TRANSACTION_TEXTS_BYTES = 64 * 1024 * 1024;

/** Blocks and transactions (spec 2.11–2.13): the texts of transactions kept by hash across requests. */
export class BlockchainAnswers {
    private readonly texts: TransactionTexts;

    constructor(private readonly store: Store, currencies?: ExtraCurrencyCatalog) {
        this.texts = new TransactionTexts(TRANSACTION_TEXTS_BYTES, accounts => accountInterfaces(store.db, accounts), () => store.generation(), currencies);
    }

    async reducedBlocks(from: bigint, to: bigint) {
        return { blocks: (await blocksInTimeRange(this.store.db, from, to)).map(presentReducedBlock) };
    }

    /** An account's transactions, newest first, strictly below `beforeLt` when given. */
    async accountTransactions(account: string, beforeLt: bigint | undefined, limit: number) {
        const { db } = this.store;
        const hashes = await accountTransactionHashes(db, account, beforeLt, limit);
        return { transactions: await this.texts.present(hashes, wanted => storedTransactions(db, wanted)) };
    }

    /**
     * A block's transactions as one answer, or undefined when the block is not indexed: its list as
     * stored at ingest, else put together from its transactions (stored texts filled in, or decoded).
     */
    async blockTransactions(id: BlockId): Promise<RawJson | undefined> {
        // The whole answer written once: a list is up to megabytes, and copying it into an object's text again cost ~5 %.
        const body = new ByteText().string('{"transactions":');
        const stored = await blockListText(this.store, id);
        if (!(stored && await this.texts.appendListText(body, stored))) {
            const rows = await blockTransactions(this.store.db, id);
            if (!rows) return undefined;
            await this.texts.appendList(body, rows);
        }
        return new RawJson(body.string('}').toBuffer());
    }
}
