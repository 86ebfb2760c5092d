import { availableParallelism } from 'node:os';

/**
 * Past this many accounts, each message to an account let go of loads its region of the accounts
 * dictionary and its contract back. Regions hold 4–8 accounts, so this many accounts keep a few
 * times as many in memory. Keeping 5k instead of 20k made the loaded devnet faster, not slower (at
 * 150k transactions to new accounts 400 against 367 tx/s, its collections having a quarter of the
 * live heap to mark) and the process held ~100–200 MB less (devnet bench, runs back to back):
 * once the chain has many more accounts than are kept, nearly every transfer to a new account loads a
 * region back whichever is kept.
 */
export const DEFAULT_RECENT_ACCOUNTS = 5_000;

/** Reading threads when the setting is left out: one a core, at most four (more rarely helps the single writer). */
export function defaultReadingThreads(): number {
    return Math.min(4, availableParallelism());
}

/** The most basechain shards a devnet runs: 4 prefix bits, so every message between two shards takes one hop. */
export const MAX_DEVNET_SHARDS = 16;
