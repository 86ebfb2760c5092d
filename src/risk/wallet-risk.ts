import { Cell, loadMessage, type Message } from '@ton/core';
import { tryLoad } from '../ton/bodies/common.ts';
import { loadJettonBurn, loadJettonTransfer, OP_JETTON_BURN, OP_JETTON_TRANSFER } from '../ton/bodies/jetton.ts';
import { loadNftTransfer, OP_NFT_TRANSFER } from '../ton/bodies/nft.ts';
import { extractRiskMessages, walletInterfacesOf, type RiskMessage } from './wallet-messages.ts';

const SEND_MODE_CARRY_ALL_BALANCE = 128;

/** What a signed wallet message may cost its wallet, before any lookup (addresses are raw `wc:hex`). */
export interface WalletRisk {
    /** some message carries the whole remaining balance (send mode 128) */
    transferAllRemainingBalance: boolean;
    /** Σ of the messages' values in nanograms, whatever their mode */
    native: bigint;
    /** jetton amounts by the message's destination: the sender's own jetton wallet */
    jettons: Map<string, bigint>;
    /** NFT items asked to transfer themselves, in message order, each once */
    nfts: string[];
}

export function walletRisk(messages: readonly RiskMessage[]): WalletRisk {
    const risk: WalletRisk = { transferAllRemainingBalance: false, native: 0n, jettons: new Map(), nfts: [] };
    for (const { mode, message } of messages) {
        if ((mode & SEND_MODE_CARRY_ALL_BALANCE) !== 0) risk.transferAllRemainingBalance = true;
        if (message.info.type !== 'internal') continue;
        risk.native += message.info.value.coins;
        const destination = message.info.dest.toRawString();
        // Each loader starts by checking its op: only the one the body's op names can succeed.
        const op = opOf(message.body);
        const jettonAmount = op === OP_JETTON_TRANSFER ? tryLoad(loadJettonTransfer, message.body)?.amount
            : op === OP_JETTON_BURN ? tryLoad(loadJettonBurn, message.body)?.amount
                : undefined;
        if (jettonAmount !== undefined) {
            risk.jettons.set(destination, (risk.jettons.get(destination) ?? 0n) + jettonAmount);
        } else if (op === OP_NFT_TRANSFER && tryLoad(loadNftTransfer, message.body) && !risk.nfts.includes(destination)) {
            risk.nfts.push(destination);
        }
    }
    return risk;
}

/** The body's 32-bit op, when it has one. */
function opOf(body: Cell): number | undefined {
    try {
        const s = body.beginParse();
        return s.remainingBits >= 32 ? s.preloadUint(32) : undefined;
    } catch {
        return undefined;
    }
}

/**
 * The risk of an external message to a wallet (BOC root or parsed). The version is read from
 * `accountCode` (the code the wallet runs now), else from the message's StateInit.
 */
export function externalMessageRisk(external: Cell | Message, accountCode?: Cell | null): WalletRisk {
    const message = external instanceof Cell ? loadMessage(external.beginParse()) : external;
    if (message.info.type !== 'external-in') throw new TypeError('not an external inbound message');
    const interfaces = walletInterfacesOf(accountCode, message.init?.code);
    return walletRisk(extractRiskMessages(message.body, interfaces, message.info.dest));
}
