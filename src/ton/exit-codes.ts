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

/** Codes from 32 up are action-phase results; thrown in the compute phase they are the contract's own errors (e.g. a wallet's 33, bad seqno). */
export function exitCodeDescription(code: number): string | undefined {
    return code < 32 ? COMPUTE_EXIT_CODES[code] : undefined;
}

export function actionResultDescription(code: number): string | undefined {
    return COMPUTE_EXIT_CODES[code];
}
