import { jettonPreview } from '../../ton/jetton/jetton-preview.ts';
import type { JettonHistoryPage } from '../../store/read/jettons.ts';
import { AccountDirectory } from './account-address.ts';
import { RawJson } from '../json.ts';

/** AccountJettonsHistory (spec 2.10): operations newest first, `next_from` the `before_lt` of the next page. */
export function presentJettonHistory(page: JettonHistoryPage) {
    const accounts = new AccountDirectory(page.interfaces);
    return {
        operations: page.operations.map(op => ({
            operation: op.operation,
            utime: op.utime,
            lt: op.lt,
            transaction_hash: op.transactionHash,
            source: op.source !== null ? accounts.accountAddress(op.source) : undefined,
            destination: op.destination !== null ? accounts.accountAddress(op.destination) : undefined,
            amount: op.amount.toString(),
            jetton: jettonPreview(op.master, page.jettons.get(op.master)),
            trace_id: op.traceId,
            query_id: op.queryId.toString(),
            payload: op.payloadJson !== null ? new RawJson(op.payloadJson) : undefined,
        })),
        next_from: page.nextFrom,
    };
}
