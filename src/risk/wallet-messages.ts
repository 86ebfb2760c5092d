import { Address, Cell, loadOutList, type MessageRelaxed } from '@ton/core';
import { BodyParseError } from '../ton/bodies/common.ts';
import {
    loadHighloadWalletV3Body, loadWalletV3Body, loadWalletV4Body, loadWalletV5Body,
} from '../ton/bodies/wallet.ts';
import {
    WALLET_HIGHLOAD_V3, WALLET_V3_INTERFACES, WALLET_V4_INTERFACES, WALLET_V5R1,
} from '../ton/bodies/wallet-interfaces.ts';
import { isWalletInterface, knownCode } from '../ton/interfaces/known-code.ts';
import { readFailureReason } from '../ton/input.ts';
import { InvalidWalletBodyError, UnsupportedWalletError } from './errors.ts';

/** A message the signed body asks the wallet to send, with its send mode. */
export interface RiskMessage {
    mode: number;
    message: MessageRelaxed;
}

/** internal_transfer#ae42e5a4 query_id:uint64 actions:^OutList — a highload v3 batch the wallet sends to itself. */
export const OP_HIGHLOAD_V3_INTERNAL_TRANSFER = 0xae42e5a4;
const MAX_BATCH_DEPTH = 16;

/**
 * Interfaces of the wallet that will execute the body: from the code it runs now, or, for a wallet
 * not deployed yet, from the code in the message's StateInit.
 */
export function walletInterfacesOf(accountCode: Cell | null | undefined, stateInitCode: Cell | null | undefined): string[] {
    const code = accountCode ?? stateInitCode;
    if (!code) return [];
    return [...(knownCode(code)?.interfaces ?? [])];
}

/**
 * The messages a signed external body of a wallet asks it to send. `walletAddress` lets a highload v3
 * batch (an internal_transfer to the wallet itself) be replaced by the messages of its action list:
 * the self-message's value comes back, the batch's messages are what leaves.
 */
export function extractRiskMessages(body: Cell, walletInterfaces: readonly string[], walletAddress?: Address): RiskMessage[] {
    const version = walletVersion(walletInterfaces);
    try {
        const messages = messagesOfBody(body, version);
        return version === WALLET_HIGHLOAD_V3 && walletAddress ? expandHighloadBatches(messages, walletAddress, 0) : messages;
    } catch (error) {
        // @ton/core's low-level messages ("Index 42 > 42 is out of bounds") say nothing to a user: said as what they mean.
        throw new InvalidWalletBodyError(version, readFailureReason(error));
    }
}

function walletVersion(walletInterfaces: readonly string[]): string {
    const supported = walletInterfaces.find(name =>
        WALLET_V3_INTERFACES.includes(name) || WALLET_V4_INTERFACES.includes(name) || name === WALLET_V5R1 || name === WALLET_HIGHLOAD_V3);
    if (supported) return supported;
    throw new UnsupportedWalletError(walletInterfaces.find(isWalletInterface) ?? 'unknown');
}

function messagesOfBody(body: Cell, version: string): RiskMessage[] {
    const s = body.beginParse();
    if (WALLET_V3_INTERFACES.includes(version)) {
        return loadWalletV3Body(s).messages.map(m => ({ mode: m.mode, message: m.message }));
    }
    if (WALLET_V4_INTERFACES.includes(version)) {
        // Only op 0 (simple send) sends messages; the plugin ops move no funds by themselves.
        return loadWalletV4Body(s).messages.map(m => ({ mode: m.mode, message: m.message }));
    }
    if (version === WALLET_V5R1) {
        return (loadWalletV5Body(s).actions ?? []).map(a => ({ mode: a.mode, message: a.message.message }));
    }
    const highload = loadHighloadWalletV3Body(s);
    return [{ mode: highload.sendMode, message: highload.message.message }];
}

function expandHighloadBatches(messages: RiskMessage[], self: Address, depth: number): RiskMessage[] {
    return messages.flatMap(m => {
        const actions = batchActions(m.message, self);
        if (!actions) return [m];
        if (depth >= MAX_BATCH_DEPTH) throw new BodyParseError('highload batches nested too deep');
        return expandHighloadBatches(actions, self, depth + 1);
    });
}

function batchActions(message: MessageRelaxed, self: Address): RiskMessage[] | undefined {
    if (message.info.type !== 'internal' || !message.info.dest.equals(self)) return undefined;
    const s = message.body.beginParse();
    if (s.remainingBits < 32 + 64 || s.remainingRefs < 1 || s.preloadUint(32) !== OP_HIGHLOAD_V3_INTERNAL_TRANSFER) return undefined;
    s.skip(32 + 64);
    return loadOutList(s.loadRef().beginParse()).flatMap(action =>
        action.type === 'sendMsg' ? [{ mode: action.mode, message: action.outMsg }] : []);
}

