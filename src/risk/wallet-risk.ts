import { Cell, loadMessage, type Message } from '@ton/core';
import { tryLoad } from '../ton/bodies/common.ts';
import { loadJettonBurn, loadJettonTransfer } from '../ton/bodies/jetton.ts';
import { loadNftTransfer } from '../ton/bodies/nft.ts';
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
        const jettonAmount = tryLoad(loadJettonTransfer, message.body)?.amount ?? tryLoad(loadJettonBurn, message.body)?.amount;
        if (jettonAmount !== undefined) {
            risk.jettons.set(destination, (risk.jettons.get(destination) ?? 0n) + jettonAmount);
        } else if (tryLoad(loadNftTransfer, message.body) && !risk.nfts.includes(destination)) {
            risk.nfts.push(destination);
        }
    }
    return risk;
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
