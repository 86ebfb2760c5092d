/**
 * Past this many accounts, each message to an account let go of loads its region of the accounts
 * dictionary and its contract back. At 100k transactions of transfers to new accounts, keeping 20k
 * instead of 100k cost 6 % of the loaded rate (302 against 320 tx/s) and saves ~350 MB of the
 * producer's heap (~4.3 KB an account kept); by a million accounts nearly every transfer loads a
 * region back whichever is kept, so the rate no longer depends on it.
 */
export const DEFAULT_RECENT_ACCOUNTS = 20_000;

/**
 * The sandbox's contracts (an object, an Address with closures of its own and the serialized state:
 * ~1.3 KB an account) are kept for fewer accounts than the collator's dictionary: one let go of comes
 * back with one read of the chain log by address, and the sandbox parses a contract's state again on
 * every step it runs a message on, kept or not.
 */
export const SANDBOX_CONTRACTS_KEPT = 4_096;
