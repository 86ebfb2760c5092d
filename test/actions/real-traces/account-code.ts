/**
 * Accounts of the real traces whose code the traces do not carry (deployed long before), with
 * the hash of their code, each with where it was taken from. The replay runs these hashes through
 * our own detection, as the indexer would run the accounts' code.
 */
export interface AccountCode {
    codeHash: string;
    source: string;
}

export const ACCOUNT_CODE: ReadonlyMap<string, AccountCode> = new Map<string, AccountCode>([]);

/** pTON masters, whose jetton is TON on the classifier's side (raw, upper hex). */
export const PTON_MASTERS: ReadonlySet<string> = new Set([
    '0:8CDC1D7640AD5EE326527FC1AD0514F468B30DC84B0173F0E155F451B4E11F7C', // pTON v1 (EQCM3B12QK1e4yZSf8GtBRT0aLMNyEsBc_DhVfRRtOEffLez)
]);
