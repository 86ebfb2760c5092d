import { accountState, latestBlockUtime, latestChainConfig, latestChainConfigBlock } from '../store/read/chain-state.ts';
import type { IndexDb } from '../store/schema.ts';
import { publicLibraryBocs } from '../store/read/libraries.ts';
import { LibraryResolver } from '../ton/library-resolver.ts';
import { decodeExtraBalance } from '../ton/extra-currencies.ts';
import { EmulationFailure } from './errors.ts';
import type { EmulationChainState } from './trace-emulator.ts';
import type { StoredAccount } from './account-state.ts';

/**
 * Where a follower finds what its index has not seen: accounts unchanged since it started indexing
 * mid-chain (their state at the chain's head) and public libraries published before then.
 */
export interface ChainStateFallback {
    account(address: string): Promise<StoredAccount | undefined>;
    libraries(hashes: string[]): Promise<Map<string, Buffer>>;
}

/**
 * Chain state for emulation read from the index: the latest indexed state of each account and
 * the config of the newest indexed key block, and the public libraries indexed from the masterchain. The config text is kept while it does not change,
 * so the emulator keeps its parsed config too. With a fallback (a liteserver follower), accounts and
 * libraries the index lacks are asked of the chain.
 */
export class StoreChainState implements EmulationChainState {
    private cachedConfig: { seqno: bigint; base64: string } | undefined;
    private readonly resolver: LibraryResolver;
    private fallback: ChainStateFallback | undefined;

    constructor(private readonly db: IndexDb) {
        this.resolver = new LibraryResolver(async hashes => {
            const found = await publicLibraryBocs(db, hashes);
            const missing = hashes.filter(hash => !found.has(hash));
            if (missing.length > 0 && this.fallback) for (const [hash, boc] of await this.fallback.libraries(missing)) found.set(hash, boc);
            return found;
        });
    }

    /** Set once the chain source is up (after the API started). */
    useFallback(fallback: ChainStateFallback): void {
        this.fallback = fallback;
    }

    libraries(hashes: string[]) {
        return this.resolver.resolve(hashes);
    }

    async config(): Promise<string> {
        const block = await latestChainConfigBlock(this.db);
        if (block && this.cachedConfig?.seqno === BigInt(block.block_seqno)) return this.cachedConfig.base64;
        const row = await latestChainConfig(this.db);
        if (!row) throw new EmulationFailure('unavailable', 'the index holds no blockchain config yet (no key block indexed); emulation needs one');
        this.cachedConfig = { seqno: BigInt(row.block_seqno), base64: row.config.toString('base64') };
        return this.cachedConfig.base64;
    }

    async account(address: string): Promise<StoredAccount | undefined> {
        const row = await accountState(this.db, address);
        if (!row) return this.fallback?.account(address);
        return {
            status: row.status,
            balance: row.balance,
            extraBalance: decodeExtraBalance(row.extra_balance),
            code: row.code,
            data: row.data,
            lastTransLt: row.last_tx_lt,
            accountLastTransLt: row.last_tx_lt + 1n + BigInt(row.last_tx_out_messages ?? 0),
            lastTransHash: row.last_tx_hash,
            lastUtime: Number(row.last_utime),
        };
    }

    async now(): Promise<number> {
        const wallClock = Math.floor(Date.now() / 1000);
        const newestBlock = (await latestBlockUtime(this.db)) ?? 0;
        return Math.max(wallClock, newestBlock);
    }
}
