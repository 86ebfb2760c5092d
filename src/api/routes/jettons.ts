import type { FastifyInstance } from 'fastify';
import { formatRawAddress } from '../../ton/address.ts';
import { parseAccountId } from '../../ton/input.ts';
import { accountInterfaces } from '../../store/read/accounts.ts';
import { jettonHistory, jettonMasters } from '../../store/read/jettons.ts';
import { toNumber } from '../../store/schema.ts';
import { AccountDirectory } from '../present/account-address.ts';
import { jettonPreview, type JettonMetadata } from '../../ton/jetton/jetton-preview.ts';
import type { ApiServices } from '../services.ts';
import { exactInt } from '../validation.ts';
import { operation } from './route.ts';

export function jettonRoutes(services: ApiServices) {
    const { db } = services.store;
    return async (app: FastifyInstance) => {
        operation(app, 'getAccountJettonsHistory', async request => {
            const account = formatRawAddress(parseAccountId(request.params.account_id));
            const beforeLt = request.query.before_lt !== undefined ? exactInt(request.query.before_lt, "query parameter 'before_lt'") : undefined;
            const { operations, nextFrom } = await jettonHistory(db, account, beforeLt, Number(request.query.limit));
            const masters = new Map((await jettonMasters(db, operations.map(op => op.master)))
                .map(m => [m.address, JSON.parse(m.metadata) as JettonMetadata]));
            const parties = operations.flatMap(op => [op.source, op.destination]).filter((a): a is string => a !== null);
            const accounts = new AccountDirectory(await accountInterfaces(db, parties));
            return {
                operations: operations.map(op => ({
                    operation: op.operation,
                    utime: toNumber(op.utime),
                    lt: op.lt,
                    transaction_hash: op.transaction_hash,
                    source: op.source ? accounts.accountAddress(op.source) : undefined,
                    destination: op.destination ? accounts.accountAddress(op.destination) : undefined,
                    amount: op.amount,
                    jetton: jettonPreview(op.master, masters.get(op.master)),
                    trace_id: op.trace_id,
                    query_id: op.query_id,
                    payload: op.payload !== null ? JSON.parse(op.payload) as unknown : undefined,
                })),
                next_from: nextFrom,
            };
        });
    };
}
