/**
 * Past this many accounts, each message to an account let go of loads its region of the accounts
 * dictionary and its contract back: at 100k transactions of transfers to new accounts, keeping 10k
 * cost 17% of the loaded rate (363 against 436 tx/s); keeping 100k, such a chain is all in memory.
 */
export const DEFAULT_RECENT_ACCOUNTS = 100_000;
