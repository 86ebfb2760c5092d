import type { FastifyInstance } from 'fastify';
import { parseAccountId, parseBocInput } from '../../ton/input.ts';
import { parseBlockId } from '../../ton/block-id.ts';
import { formatRawAddress } from '../../ton/address.ts';
import { blocksInTimeRange } from '../../store/read/blocks.ts';
import { accountTransactionHashes, blockListText, blockTransactions, storedTransactions } from '../../store/read/transactions.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { presentReducedBlock } from '../../present/blocks.ts';
import { TransactionTexts } from '../answers/transaction-texts.ts';
import { ByteText } from '../../json/byte-text.ts';
import { RawJson } from '../../json/json.ts';
import { MessageRejectedError, type ApiServices } from '../services.ts';
import { exactInt } from '../validation.ts';
import { operation } from './route.ts';

const MAX_BLOCK_SPAN_SECONDS = 600n;
const TRANSACTION_TEXTS_BYTES = 64 * 1024 * 1024;

export function blockchainRoutes(services: ApiServices) {
    const { db } = services.store;
    const transactionTexts = new TransactionTexts(TRANSACTION_TEXTS_BYTES, accounts => accountInterfaces(db, accounts), () => services.store.generation(), services.extraCurrencies);
    const readTransactions = (hashes: string[]) => storedTransactions(db, hashes);
    return async (app: FastifyInstance) => {
        operation(app, 'getReducedBlockchainBlocks', async request => {
            const from = exactInt(request.query.from, "query parameter 'from'");
            const to = exactInt(request.query.to, "query parameter 'to'");
            if (from > to) throw badRequest(`'from' (${from}) must be less than or equal to 'to' (${to})`);
            if (to - from > MAX_BLOCK_SPAN_SECONDS) throw badRequest(`the range from..to spans ${to - from} s; at most ${MAX_BLOCK_SPAN_SECONDS} s (10 minutes) is allowed`);
            return { blocks: (await blocksInTimeRange(db, from, to)).map(presentReducedBlock) };
        });

        operation(app, 'getBlockchainAccountTransactions', async request => {
            const account = formatRawAddress(parseAccountId(request.params.account_id));
            const beforeLt = request.query.before_lt !== undefined ? exactInt(request.query.before_lt, "query parameter 'before_lt'") : undefined;
            const limit = Number(request.query.limit ?? 100);
            return { transactions: await transactionTexts.present(await accountTransactionHashes(db, account, beforeLt, limit), readTransactions) };
        });

        operation(app, 'getBlockchainBlockTransactions', async request => {
            const id = parseBlockId(request.params.block_id);
            // The whole answer written once: a list is up to megabytes, and copying it into an object's text again cost ~5 %.
            const body = new ByteText().string('{"transactions":');
            const stored = await blockListText(services.store, id);
            if (!(stored && await transactionTexts.appendListText(body, stored))) {
                const rows = await blockTransactions(db, id);
                if (!rows) throw notFound(`block ${request.params.block_id} is not in the index`);
                await transactionTexts.appendList(body, rows);
            }
            return new RawJson(body.string('}').toBuffer());
        });

        operation(app, 'sendBlockchainMessage', async request => {
            const sink = services.messages;
            if (!sink) throw new ApiError(503, 'this instance has no live chain to send messages to (started with --source none)');
            const message = parseBocInput(String(request.body.boc), 'boc');
            try {
                const sent = await sink.sendExternalMessage(message);
                return { message_hash: sent.messageHash, trace_id: sent.traceId };
            } catch (error) {
                if (error instanceof MessageRejectedError || error instanceof Error && error.name === 'InputFormatError') throw badRequest(error.message);
                throw error;
            }
        });
    };
}
