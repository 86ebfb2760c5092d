/** Meanings of the TVM compute-phase exit codes and action-phase result codes defined by the protocol. */
const COMPUTE_EXIT_CODES: Record<number, string> = {
    0: 'Ok',
    1: 'Ok (alternative)',
    2: 'Stack underflow',
    3: 'Stack overflow',
    4: 'Integer overflow',
    5: 'Integer out of expected range',
    6: 'Invalid opcode',
    7: 'Type check error',
    8: 'Cell overflow',
    9: 'Cell underflow',
    10: 'Dictionary error',
    11: 'Unknown error',
    12: 'Fatal error',
    13: 'Out of gas',
    [-14]: 'Out of gas',
    14: 'Virtualization error',
    32: 'Action list is invalid',
    33: 'Action list is too long',
    34: 'Action is invalid or not supported',
    35: 'Invalid source address in outbound message',
    36: 'Invalid destination address in outbound message',
    37: 'Not enough balance',
    38: 'Not enough extra currencies',
    39: 'Outbound message does not fit into a cell after rewriting',
    40: 'Cannot process a message: not enough funds',
    41: 'Library reference is null',
    42: 'Library change action error',
    43: 'Library limits exceeded',
    50: 'Account state size exceeded limits',
};

/** Errors the standard wallet contracts throw when they refuse an external message. */
const WALLET_V3_V4_EXIT_CODES: Record<number, string> = {
    33: 'Wallet refused the message: seqno mismatch (already used or out of order)',
    34: 'Wallet refused the message: wallet id (subwallet) mismatch',
    35: 'Wallet refused the message: invalid signature',
    36: 'Wallet refused the message: expired (valid_until has passed)',
};

const WALLET_V5_EXIT_CODES: Record<number, string> = {
    132: 'Wallet refused the message: signature authentication is disabled',
    133: 'Wallet refused the message: seqno mismatch (already used or out of order)',
    134: 'Wallet refused the message: wallet id mismatch',
    135: 'Wallet refused the message: invalid signature',
    136: 'Wallet refused the message: expired (valid_until has passed)',
    137: 'Wallet refused the message: an external message must send with the ignore-errors mode',
};

const CONTRACT_EXIT_CODES: Array<{ interfaces: string[]; codes: Record<number, string> }> = [
    { interfaces: ['wallet_v3r1', 'wallet_v3r2', 'wallet_v4r1', 'wallet_v4r2'], codes: WALLET_V3_V4_EXIT_CODES },
    { interfaces: ['wallet_v5r1'], codes: WALLET_V5_EXIT_CODES },
];

/**
 * Codes below 32 are the TVM's own; from 32 up, thrown in the compute phase, they are the contract's
 * errors, known here for the standard wallets when the account's interfaces are given.
 */
export function exitCodeDescription(code: number, interfaces: string[] = []): string | undefined {
    if (code < 32) return COMPUTE_EXIT_CODES[code];
    return CONTRACT_EXIT_CODES.find(c => c.interfaces.some(i => interfaces.includes(i)))?.codes[code];
}

/** Whether a compute phase's exit code is described differently by the account's interfaces. */
export function exitCodeDependsOnInterfaces(code: number): boolean {
    return code >= 32 && CONTRACT_EXIT_CODES.some(c => c.codes[code] !== undefined);
}

export function actionResultDescription(code: number): string | undefined {
    return COMPUTE_EXIT_CODES[code];
}
