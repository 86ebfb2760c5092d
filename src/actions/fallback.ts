import { stringify } from 'yaml';
import { OP_ENCRYPTED_TEXT_COMMENT, decodeBody } from '../ton/bodies/index.ts';
import type { ActionDraft } from './action.ts';
import type { BubbleTx } from './bubble.ts';
import { implementsInterface } from './interfaces.ts';
import { commentOf, operationName } from './transfer-note.ts';

/**
 * The action of a transaction no pattern took. An external message gives none (the wallet's own
 * transaction: what it sends shows up as its children's actions) unless it is a tick-tock; a call
 * of a contract with an op and value is a SmartContractExec; anything else a transfer of value.
 */
export function fallbackAction(tx: BubbleTx): ActionDraft | null {
    if (tx.external) {
        if (!tx.tickTock) return null;
        return {
            type: 'SmartContractExec', success: tx.success, executor: tx.account, contract: tx.account,
            attached: tx.inputAmount, operation: 'Tick-tock', payload: '',
        };
    }
    const sender = tx.inputFrom!;
    if (
        tx.opCode !== null && tx.opCode !== 0 && tx.opCode !== OP_ENCRYPTED_TEXT_COMMENT &&
        tx.activeAtCompute && !implementsInterface(tx.interfaces, 'wallet') && tx.inputAmount !== 0n
    ) {
        return {
            type: 'SmartContractExec',
            success: tx.success,
            executor: sender,
            contract: tx.account,
            attached: tx.inputAmount,
            operation: tx.body ? operationName(tx.body, tx.opCode) : '',
            payload: tx.body ? payloadYaml(tx) : '',
        };
    }
    const note = tx.opCode === 0 || tx.opCode === OP_ENCRYPTED_TEXT_COMMENT ? commentOf(tx.body) : {};
    const firstExtra = [...tx.inputExtra.entries()].find(([, amount]) => amount > 0n);
    if (firstExtra) {
        return { type: 'ExtraCurrencyTransfer', success: true, sender, recipient: tx.account, currencyId: firstExtra[0], amount: firstExtra[1], ...note };
    }
    // A bounced or failed receipt is still a transfer that happened; failed sends come from intentions.
    return { type: 'NativeTransfer', success: true, sender, recipient: tx.account, amount: tx.inputAmount, ...note };
}

function payloadYaml(tx: BubbleTx): string {
    const decoded = tx.body ? decodeBody(tx.body, { external: false, destinationInterfaces: tx.interfaces }) : null;
    return decoded ? stringify(decoded.value).trimEnd() : '';
}
