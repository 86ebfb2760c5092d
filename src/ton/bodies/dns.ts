import type { Cell, Slice } from '@ton/core';
import { expectOp, fail, loadQueryId } from './common.ts';

// TEP-81 DNS items (.ton domains).
export const OP_CHANGE_DNS_RECORD = 0x4eb1f0f9;

/**
 * change_dns_record#4eb1f0f9 query_id:uint64 key:uint256 value:^Cell   (sets the record)
 * change_dns_record#4eb1f0f9 query_id:uint64 key:uint256               (deletes it)
 * The items look for a ref, not a Maybe bit. Key 0 without a value (a record nobody holds) only
 * extends the domain: a renewal.
 */
export interface ChangeDnsRecord {
    queryId: bigint;
    key: bigint;
    value: Cell | null;
}

export function loadChangeDnsRecord(s: Slice): ChangeDnsRecord {
    expectOp(s, OP_CHANGE_DNS_RECORD);
    const queryId = loadQueryId(s);
    const key = s.loadUintBig(256);
    if (s.remainingBits !== 0 || s.remainingRefs > 1) fail('change_dns_record: unexpected data after the key');
    const value = s.remainingRefs === 1 ? s.loadRef() : null;
    return { queryId, key, value };
}
