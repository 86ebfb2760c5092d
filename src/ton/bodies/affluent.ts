import type { Cell, Slice } from '@ton/core';
import { expectOp, loadQueryId } from './common.ts';

// Affluent lending and multiply vaults: oracle data collected by a fresh data aggregator.
export const OP_AFFLUENT_PROVIDE_AGGREGATED_DATA = 0xb0c69ffe;

/**
 * provide_aggregated_data#b0c69ffe query_id:uint64 asset_requests:(Maybe ^Cell) pool_requests:(Maybe ^Cell)
 *   vault_requests:(Maybe ^Cell) context:(context_op:uint32 …) (vault → aggregator; the context's fields are not read)
 */
export interface AffluentProvideAggregatedData {
    queryId: bigint;
    assetRequests: Cell | null;
    poolRequests: Cell | null;
    vaultRequests: Cell | null;
    /** what the round is for: deposit_context#f9471134, withdraw_context#cb03bfaf, … */
    contextOp: number;
}

export function loadAffluentProvideAggregatedData(s: Slice): AffluentProvideAggregatedData {
    expectOp(s, OP_AFFLUENT_PROVIDE_AGGREGATED_DATA);
    const queryId = loadQueryId(s);
    const assetRequests = s.loadMaybeRef();
    const poolRequests = s.loadMaybeRef();
    const vaultRequests = s.loadMaybeRef();
    const contextOp = s.loadUint(32);
    return { queryId, assetRequests, poolRequests, vaultRequests, contextOp };
}
