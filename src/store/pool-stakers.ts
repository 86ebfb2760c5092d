import { readPoolStakers, stakingPoolLayoutOf } from '../ton/interfaces/staking-pools.ts';
import { readBoc } from '../ton/boc/boc-reader.ts';

/** The pool_stakers rows of an account with these interfaces and data (none when it is not a known pool). */
export function poolStakerRows(pool: string, interfaces: readonly string[], data: Buffer | null | undefined) {
    const layout = stakingPoolLayoutOf(interfaces);
    if (!layout || !data) return [];
    let stakers;
    try {
        stakers = readPoolStakers(layout, readBoc(data)[0]);
    } catch {
        return []; // not a BOC
    }
    return (stakers ?? []).map(s => ({
        pool, staker: s.address, amount: s.amount?.toString() ?? null, pending_deposit: s.pendingDeposit?.toString() ?? null,
    }));
}
