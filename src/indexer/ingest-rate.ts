import type { BlockRecord } from '../chain/chain-source.ts';

const WINDOW_MS = 60_000;

/** Blocks and transactions given per second over the last minute, and the last masterchain block given. */
export class IngestRate {
    private readonly events: Array<{ at: number; transactions: number }> = [];
    private lastMaster: { seqno: number; utime: number } | null = null;

    add(block: BlockRecord): void {
        const now = Date.now();
        this.events.push({ at: now, transactions: block.transactions.length });
        if (block.id.workchain === -1) this.lastMaster = { seqno: block.id.seqno, utime: block.utime };
        while (this.events.length > 0 && this.events[0].at < now - WINDOW_MS) this.events.shift();
    }

    perSecond(): { blocksPerSecond: number; transactionsPerSecond: number; lastBlock: { seqno: number; utime: number } | null } {
        const now = Date.now();
        const recent = this.events.filter(e => e.at >= now - WINDOW_MS);
        if (recent.length === 0) return { blocksPerSecond: 0, transactionsPerSecond: 0, lastBlock: this.lastMaster };
        const seconds = Math.max(1, now - recent[0].at) / 1000;
        return {
            blocksPerSecond: recent.length / seconds,
            transactionsPerSecond: recent.reduce((n, e) => n + e.transactions, 0) / seconds,
            lastBlock: this.lastMaster,
        };
    }
}
