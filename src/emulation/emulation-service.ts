import type { Address, Cell } from '@ton/core';
import { formatRawAddress } from '../ton/address.ts';
import { InputFormatError } from '../ton/input.ts';
import { isWalletInterface, knownCode } from '../ton/interfaces/known-code.ts';
import type { IndexDb } from '../store/schema.ts';
import { externalMessageRisk, type WalletRisk } from '../risk/wallet-risk.ts';
import { EmulationFailure } from './errors.ts';
import { inspectEmulatedTrace, type InspectedTrace } from './inspect-trace.ts';
import { MAX_NANOGRAMS, parseRootMessage, redirectExternal, requireExternalIn, requirePayableNanograms, type RootMessage } from './message-input.ts';
import { StoreChainState, type ChainStateFallback } from './store-chain-state.ts';
import type { StoredAccount } from './account-state.ts';
import { ParsedCells } from './parsed-cells.ts';
import { emulateTrace, walkTrace, type EmulatedTrace, type EmulationChainState, type EmulationLimits } from './trace-emulator.ts';

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

/**
 * A signed wallet message whose messages ask for more nanograms than any account holds is refused:
 * its actions (and risk) could not state the amount. A body the wallet's layout does not read is
 * left to the emulation, which says what the wallet does with it.
 */
function requirePayableWalletMessages(root: RootMessage, code: Cell): void {
    if (root.message.info.type !== 'external-in') return;
    let risk: WalletRisk;
    try {
        risk = externalMessageRisk(root.message, code);
    } catch {
        return;
    }
    requirePayableNanograms(risk.native, 'the message asks the wallet to send');
}

/**
 * Balances given in `params` near 2^63 − 1 can end above it once an account receives coins: more
 * than the chain's whole supply, and more than the API's int64 balances can state.
 */
function requireHoldableBalances(trace: EmulatedTrace): void {
    for (const node of walkTrace(trace.root)) {
        if (node.endBalance > MAX_NANOGRAMS) {
            throw new InputFormatError(`with the balances given in params, account ${node.parsed.account} would end with ${node.endBalance} nanograms, `
                + `more than any account can hold (at most ${MAX_NANOGRAMS}, 2^63 - 1); give smaller balances`);
        }
    }
}

/** Balance given to the signing wallet to learn what a message would cost when it cannot pay: more than exists. */
const PROBE_BALANCE = 2n ** 100n;

/** Emulation of messages on the indexed chain state; the chain and the index are never written. */
export class EmulationService {
    private readonly chain: StoreChainState;

    constructor(private readonly db: IndexDb, private readonly limits: EmulationLimits) {
        this.chain = new StoreChainState(db);
    }

    /** A follower's chain, for accounts and libraries its index has not seen (see StoreChainState). */
    useChainFallback(fallback: ChainStateFallback): void {
        this.chain.useFallback(fallback);
    }

    /** events/emulate: any message, signatures checked unless told otherwise. */
    async emulateMessage(boc: string, options: { ignoreSignatureCheck: boolean }): Promise<EmulationResult> {
        const root = parseRootMessage(boc);
        const chain = new RequestChainState(this.chain);
        const runnable = root.message.info.type === 'external-in' ? this.requireRunnable(chain, formatRawAddress(root.message.info.dest), root) : undefined;
        chain.readHead();
        const destination = await runnable;
        if (destination) requirePayableWalletMessages(root, destination.code);
        const trace = await emulateTrace(root.cell, chain, { skipSignatureChecks: options.ignoreSignatureCheck ? 'all' : 'none', limits: this.limits });
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
        const chain = new RequestChainState(this.chain);
        const runnable = this.requireRunnable(chain, wallet, root);
        chain.readHead();
        const { code: walletCode, stored } = await runnable;
        if (!knownCode(walletCode)?.interfaces.some(isWalletInterface)) {
            throw new EmulationFailure('invalid_input', `${wallet} is not a known wallet contract (code hash ${walletCode.hash().toString('hex')})`);
        }
        // Read before emulating (body and StateInit are the signed ones even when redirected): a version
        // whose messages cannot be read is refused without running anything.
        const risk = externalMessageRisk(root.message, walletCode);
        requirePayableNanograms(risk.native, 'the message asks the wallet to send');
        const balanceBefore = request.balances?.get(wallet) ?? stored?.balance ?? 0n;
        const options = { skipSignatureChecks: 'first' as const, balances: request.balances, limits: this.limits, rootDestination: wallet };

        let trace: EmulatedTrace;
        try {
            trace = await emulateTrace(root.cell, chain, options);
        } catch (error) {
            if (error instanceof EmulationFailure && error.kind === 'rejected') await this.explainRejection(chain, root, wallet, balanceBefore, request.balances, error);
            throw error;
        }
        if (request.balances?.size) requireHoldableBalances(trace);
        if (sendsFailedForFunds(trace)) await this.requireFunds(chain, root, wallet, balanceBefore, request.balances);
        return { root, trace, inspected: await this.inspect(trace), wallet, walletCode, balanceBefore, risk };
    }

    /** The destination's code, or the StateInit's; an account with neither cannot run a message. */
    private async requireRunnable(chain: EmulationChainState, address: string, root: RootMessage) {
        const stored = await chain.account(address);
        const code: Cell | null | undefined = stored?.status === 'active' && stored.code ? codeCells.read(address, stored.code) : root.message.init?.code;
        if (!code) throw new EmulationFailure('invalid_input', `account ${address} has no code and the message carries no StateInit to deploy it`);
        return { code, stored };
    }

    /** A wallet that refused its message only because it could not pay for gas is short of funds, not refusing. */
    private async explainRejection(chain: EmulationChainState, root: RootMessage, wallet: string, balance: bigint, balances: ReadonlyMap<string, bigint> | undefined, rejection: EmulationFailure): Promise<void> {
        if (rejection.transaction !== 1) return;
        const required = await this.probeWithTopUp(chain, root, wallet, balances);
        if (required !== null && required > balance) throw insufficientFunds(required, balance, rejection.message);
    }

    private async requireFunds(chain: EmulationChainState, root: RootMessage, wallet: string, balance: bigint, balances: ReadonlyMap<string, bigint> | undefined): Promise<void> {
        const required = await this.probeWithTopUp(chain, root, wallet, balances);
        if (required !== null && required > balance) throw insufficientFunds(required, balance);
    }

    /**
     * Runs the wallet's transaction alone with far more coins: if then it accepts the message and
     * sends everything, what it spent is what the message needs. Null when more coins do not help.
     */
    private async probeWithTopUp(chain: EmulationChainState, root: RootMessage, wallet: string, balances: ReadonlyMap<string, bigint> | undefined): Promise<bigint | null> {
        const rich = new Map(balances ?? []);
        rich.set(wallet, PROBE_BALANCE);
        let trace: EmulatedTrace;
        try {
            trace = await emulateTrace(root.cell, chain, { skipSignatureChecks: 'first', balances: rich, limits: { ...this.limits, maxTransactions: 1 }, onlyRoot: true, rootDestination: wallet });
        } catch (error) {
            if (error instanceof EmulationFailure && error.kind === 'rejected') return null;
            throw error;
        }
        if (sendsFailedForFunds(trace)) return null;
        // A message carrying the whole balance (mode 128) takes whatever the wallet has: it needs only
        // the fees. Only such a message can carry more than half of the probe's coins.
        const carried = trace.root.parsed.outMsgs.reduce((sum, out) => sum + (out.value !== null && out.value > PROBE_BALANCE / 2n ? out.value : 0n), 0n);
        return PROBE_BALANCE - trace.root.endBalance - carried;
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

/**
 * One request's view of the indexed chain: each account is read once however often the request
 * needs it (the destination's code check, then its state for the emulator, then a probe), and so
 * are the config and the time, which also gives every step of the request the same state.
 */
class RequestChainState implements EmulationChainState {
    private readonly accounts = new Map<string, Promise<StoredAccount | undefined>>();
    private configRead: Promise<string> | undefined;
    private nowRead: Promise<number> | undefined;

    constructor(private readonly chain: EmulationChainState) {}

    /**
     * Starts reading the config and the time alongside the destination's state (independent reads:
     * on PostgreSQL their round trips overlap); a failure surfaces where they are used, as before.
     */
    readHead(): void {
        this.config().catch(() => undefined);
        this.now().catch(() => undefined);
    }

    account(address: string): Promise<StoredAccount | undefined> {
        let read = this.accounts.get(address);
        if (!read) {
            read = this.chain.account(address);
            this.accounts.set(address, read);
        }
        return read;
    }

    config(): Promise<string> {
        this.configRead ??= this.chain.config();
        return this.configRead;
    }

    now(): Promise<number> {
        this.nowRead ??= this.chain.now();
        return this.nowRead;
    }

    libraries(hashes: string[]): Promise<Map<string, Cell>> {
        return this.chain.libraries(hashes);
    }
}

/** Code cells of the accounts messages are sent to, while their indexed code is unchanged. */
const codeCells = new ParsedCells(5_000);

/** The wallet transaction's action phase failed or skipped sends for want of coins (result codes 37/38). */
function sendsFailedForFunds(trace: EmulatedTrace): boolean {
    const d = trace.root.parsed.tx.description;
    if (d.type !== 'generic' || !d.actionPhase) return false;
    const action = d.actionPhase;
    return (!action.success && (action.resultCode === 37 || action.resultCode === 38)) || (action.skippedActions > 0 && d.computePhase.type === 'vm');
}

function insufficientFunds(required: bigint, available: bigint, cause?: string): Error {
    const because = cause ? ` (${cause})` : '';
    // Sends near the 2^63 − 1 a message may ask for, plus fees, need more than any account holds.
    if (required > MAX_NANOGRAMS) {
        return new InputFormatError(`the message needs ${required} nanograms to send what it sends and pay the fees, more than any account can hold (at most ${MAX_NANOGRAMS}, 2^63 - 1)`);
    }
    return new EmulationFailure(
        'insufficient_funds',
        `the wallet holds ${available} nanograms but the message needs ${required} to send what it sends and pay the fees${because}`,
        { required, available },
    );
}
