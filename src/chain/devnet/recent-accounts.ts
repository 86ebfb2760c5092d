/**
 * Past this many accounts, each message to an account let go of loads its region of the accounts
 * dictionary and its contract back: at 100k transactions of transfers to new accounts, keeping 10k
 * cost 17% of the loaded rate (363 against 436 tx/s); keeping 100k, such a chain is all in memory.
 */
export const DEFAULT_RECENT_ACCOUNTS = 100_000;

/**
 * The sandbox's contracts (an object, an Address with closures of its own and the serialized state:
 * ~1.3 KB an account) are kept for fewer accounts than the collator's dictionary: one let go of comes
 * back with one read of the chain log by address, and the sandbox parses a contract's state again on
 * every step it runs a message on, kept or not.
 */
export const SANDBOX_CONTRACTS_KEPT = 4_096;
