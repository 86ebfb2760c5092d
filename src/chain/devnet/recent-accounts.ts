/**
 * The chain keeps accounts' states in memory for fewer accounts than the collator's dictionary: one
 * let go of comes back with one read of the chain log by address.
 */
export const CHAIN_ACCOUNTS_KEPT = 4_096;
