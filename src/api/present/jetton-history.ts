import { jettonPreview } from '../../ton/jetton/jetton-preview.ts';
import type { JettonHistoryPage } from '../../store/read/jettons.ts';
import { AccountDirectory } from './account-address.ts';
import { RawJson, toJson } from '../json.ts';

/** AccountJettonsHistory (spec 2.10): operations newest first, `next_from` the `before_lt` of the next page. */
export function presentJettonHistory(page: JettonHistoryPage) {
    const accounts = new AccountDirectory(page.interfaces);
    // A page's operations mostly share a jetton or two: each preview is written once.
    const previews = new Map<string, RawJson>();
    const previewOf = (master: string) => {
        let preview = previews.get(master);
        if (!preview) previews.set(master, preview = new RawJson(toJson(jettonPreview(master, page.jettons.get(master)))));
        return preview;
    };
    return {
        operations: page.operations.map(op => ({
            operation: op.operation,
            utime: op.utime,
            lt: op.lt,
            transaction_hash: op.transactionHash,
            source: op.source !== null ? accounts.accountAddress(op.source) : undefined,
            destination: op.destination !== null ? accounts.accountAddress(op.destination) : undefined,
            amount: op.amount.toString(),
            jetton: previewOf(op.master),
            trace_id: op.traceId,
            query_id: op.queryId.toString(),
            payload: op.payloadJson !== null ? new RawJson(op.payloadJson) : undefined,
        })),
        next_from: page.nextFrom,
    };
}
