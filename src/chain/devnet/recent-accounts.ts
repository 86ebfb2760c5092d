/**
 * The sandbox's contracts (an object, an Address with closures of its own and the serialized state:
 * ~1.3 KB an account) are kept for fewer accounts than the collator's dictionary: one let go of comes
 * back with one read of the chain log by address, and the sandbox parses a contract's state again on
 * every step it runs a message on, kept or not.
 */
export const SANDBOX_CONTRACTS_KEPT = 4_096;
