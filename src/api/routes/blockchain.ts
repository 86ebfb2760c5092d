import type { FastifyInstance } from 'fastify';
import { parseAccountId, parseBocInput } from '../../ton/input.ts';
import { parseBlockId } from '../../ton/block-id.ts';
import { formatRawAddress } from '../../ton/address.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import type { Answers } from '../answers/answers.ts';
import { MessageRejectedError, type ApiServices } from '../services.ts';
import { exactInt } from '../validation.ts';
import { operation } from './route.ts';

const MAX_BLOCK_SPAN_SECONDS = 600n;

export function blockchainRoutes(services: ApiServices, { blockchain }: Answers) {
    return async (app: FastifyInstance) => {
        operation(app, 'getReducedBlockchainBlocks', async request => {
            const from = exactInt(request.query.from, "query parameter 'from'");
            const to = exactInt(request.query.to, "query parameter 'to'");
            if (from > to) throw badRequest(`'from' (${from}) must be less than or equal to 'to' (${to})`);
            if (to - from > MAX_BLOCK_SPAN_SECONDS) throw badRequest(`the range from..to spans ${to - from} s; at most ${MAX_BLOCK_SPAN_SECONDS} s (10 minutes) is allowed`);
            return blockchain.reducedBlocks(from, to);
        });

        operation(app, 'getBlockchainAccountTransactions', async request => {
            const account = formatRawAddress(parseAccountId(request.params.account_id));
            const beforeLt = request.query.before_lt !== undefined ? exactInt(request.query.before_lt, "query parameter 'before_lt'") : undefined;
            const limit = Number(request.query.limit ?? 100);
            return blockchain.accountTransactions(account, beforeLt, limit);
        });

        operation(app, 'getBlockchainBlockTransactions', async request => {
            const answer = await blockchain.blockTransactions(parseBlockId(request.params.block_id));
            if (!answer) throw notFound(`block ${request.params.block_id} is not in the index`);
            return answer;
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
