import type { Address, Cell } from '@ton/core';
import { formatRawAddress } from '../ton/address.ts';
import { readBoc } from '../ton/boc/boc-reader.ts';
import { isWalletInterface, knownCode } from '../ton/interfaces/known-code.ts';
import type { IndexDb } from '../store/schema.ts';
import { externalMessageRisk, type WalletRisk } from '../risk/wallet-risk.ts';
import { EmulationFailure } from './errors.ts';
import { inspectEmulatedTrace, type InspectedTrace } from './inspect-trace.ts';
import { parseRootMessage, redirectExternal, requireExternalIn, type RootMessage } from './message-input.ts';
import { StoreChainState } from './store-chain-state.ts';
import { emulateTrace, walkTrace, type EmulatedTrace, type EmulationLimits } from './trace-emulator.ts';

export interface EmulationResult {
    root: RootMessage;
    trace: EmulatedTrace;
    inspected: InspectedTrace;
}

export interface WalletEmulationResult extends EmulationResult {
    /** The wallet that signs (after `address_override`). */
    wallet: string;
    /** The wallet's code: as deployed, else from the message's StateInit. */
    walletCode: Cell;
    /** The wallet's balance before the message (with any override). */
    balanceBefore: bigint;
    /** What the message as signed can take from the wallet. */
    risk: WalletRisk;
}

export interface WalletEmulationRequest {
    boc: string;
    addressOverride?: Address;
    /** Balance overrides by raw address. */
    balances?: ReadonlyMap<string, bigint>;
}

/** Balance given to the signing wallet to learn what a message would cost when it cannot pay: more than exists. */
const PROBE_BALANCE = 2n ** 100n;

/** Emulation of messages on the indexed chain state; the chain and the index are never written. */
export class EmulationService {
    private readonly chain: StoreChainState;

    constructor(private readonly db: IndexDb, private readonly limits: EmulationLimits) {
        this.chain = new StoreChainState(db);
    }

    /** events/emulate: any message, signatures checked unless told otherwise. */
    async emulateMessage(boc: string, options: { ignoreSignatureCheck: boolean }): Promise<EmulationResult> {
        const root = parseRootMessage(boc);
        if (root.message.info.type === 'external-in') await this.requireRunnable(formatRawAddress(root.message.info.dest), root);
        const trace = await emulateTrace(root.cell, this.chain, { skipSignatureChecks: options.ignoreSignatureCheck ? 'all' : 'none', limits: this.limits });
        return { root, trace, inspected: await this.inspect(trace) };
    }

    /**
     * wallet/emulate: an external message to a wallet, whose own signature check is skipped (a
     * message signed with a throwaway key works); every later transaction is checked as usual.
     */
    async emulateWalletMessage(request: WalletEmulationRequest): Promise<WalletEmulationResult> {
        let root = parseRootMessage(request.boc);
        const destination = requireExternalIn(root);
        if (request.addressOverride) root = redirectExternal(root, request.addressOverride);
        const wallet = formatRawAddress(request.addressOverride ?? destination);
        const { code: walletCode, stored } = await this.requireRunnable(wallet, root);
        if (!knownCode(walletCode)?.interfaces.some(isWalletInterface)) {
            throw new EmulationFailure('invalid_input', `${wallet} is not a known wallet contract (code hash ${walletCode.hash().toString('hex')})`);
        }
        // Read before emulating (body and StateInit are the signed ones even when redirected): a version
        // whose messages cannot be read is refused without running anything.
        const risk = externalMessageRisk(root.message, walletCode);
        const balanceBefore = request.balances?.get(wallet) ?? stored?.balance ?? 0n;
        const options = { skipSignatureChecks: 'first' as const, balances: request.balances, limits: this.limits };

        let trace: EmulatedTrace;
        try {
            trace = await emulateTrace(root.cell, this.chain, options);
        } catch (error) {
            if (error instanceof EmulationFailure && error.kind === 'rejected') await this.explainRejection(root, wallet, balanceBefore, request.balances, error);
            throw error;
        }
        if (sendsFailedForFunds(trace)) await this.requireFunds(root, wallet, balanceBefore, request.balances);
        return { root, trace, inspected: await this.inspect(trace), wallet, walletCode, balanceBefore, risk };
    }

    /** The destination's code, or the StateInit's; an account with neither cannot run a message. */
    private async requireRunnable(address: string, root: RootMessage) {
        const stored = await this.chain.account(address);
        const code: Cell | null | undefined = stored?.status === 'active' && stored.code ? readBoc(stored.code)[0] : root.message.init?.code;
        if (!code) throw new EmulationFailure('invalid_input', `account ${address} has no code and the message carries no StateInit to deploy it`);
        return { code, stored };
    }

    /** A wallet that refused only because it could not pay for gas is short of funds, not refusing. */
    private async explainRejection(root: RootMessage, wallet: string, balance: bigint, balances: ReadonlyMap<string, bigint> | undefined, rejection: EmulationFailure): Promise<void> {
        const probe = await this.probeWithTopUp(root, wallet, balances);
        if (probe === null) return;
        throw insufficientFunds(probe, balance, rejection.message);
    }

    private async requireFunds(root: RootMessage, wallet: string, balance: bigint, balances: ReadonlyMap<string, bigint> | undefined): Promise<void> {
        const required = await this.probeWithTopUp(root, wallet, balances);
        if (required !== null && required > balance) throw insufficientFunds(required, balance);
    }

    /**
     * Runs the wallet's transaction alone with far more coins: if then it accepts the message and
     * sends everything, what it spent is what the message needs. Null when more coins do not help.
     */
    private async probeWithTopUp(root: RootMessage, wallet: string, balances: ReadonlyMap<string, bigint> | undefined): Promise<bigint | null> {
        const rich = new Map(balances ?? []);
        rich.set(wallet, PROBE_BALANCE);
        let trace: EmulatedTrace;
        try {
            trace = await emulateTrace(root.cell, this.chain, { skipSignatureChecks: 'first', balances: rich, limits: { ...this.limits, maxTransactions: 1 }, onlyRoot: true });
        } catch (error) {
            if (error instanceof EmulationFailure && error.kind === 'rejected') return null;
            throw error;
        }
        if (sendsFailedForFunds(trace)) return null;
        return PROBE_BALANCE - trace.root.endBalance;
    }

    private inspect(trace: EmulatedTrace): Promise<InspectedTrace> {
        const mentioned = new Set<string>();
        for (const node of walkTrace(trace.root)) {
            mentioned.add(node.parsed.account);
            for (const m of [node.parsed.inMsg, ...node.parsed.outMsgs]) {
                if (m?.source) mentioned.add(m.source);
                if (m?.destination) mentioned.add(m.destination);
            }
        }
        return inspectEmulatedTrace(this.db, trace, mentioned);
    }
}

/** The wallet transaction's action phase failed or skipped sends for want of coins (result codes 37/38). */
function sendsFailedForFunds(trace: EmulatedTrace): boolean {
    const d = trace.root.parsed.tx.description;
    if (d.type !== 'generic' || !d.actionPhase) return false;
    const action = d.actionPhase;
    return (!action.success && (action.resultCode === 37 || action.resultCode === 38)) || (action.skippedActions > 0 && d.computePhase.type === 'vm');
}

function insufficientFunds(required: bigint, available: bigint, cause?: string): EmulationFailure {
    const because = cause ? ` (${cause})` : '';
    return new EmulationFailure(
        'insufficient_funds',
        `the wallet holds ${available} nanograms but the message needs ${required} to send what it sends and pay the fees${because}`,
        { required, available },
    );
}
