import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { findActions } from '../../../src/actions/find-actions.ts';
import type { EngineAction } from '../../../src/actions/action.ts';
import type { ActionTraceNode, JettonPreviewFacts, NftItemFacts, NftSaleFacts, TraceFacts } from '../../../src/actions/trace-input.ts';
import { knownInterfaces } from '../../../src/ton/interfaces/known-code.ts';
import { knownCode, protocolInterfaces } from '../../../src/ton/interfaces/known-code.ts';
import { ACCOUNT_CODE, PTON_MASTERS } from './account-code.ts';
import { IN_SCOPE, isModelDifference, mismatches, readCases, selects, viewOf, type ExpectedAction, type ExpectedCase } from './expected.ts';
import { REAL_TRACES_DIR, rawAddress, readTraceFile, replayTrace, traceFileName, type TraceFile } from './replay.ts';

/**
 * Replays every case of a real-traces folder through the engine and scores our actions against
 * the expected ones. Run as a script to measure a folder of the same format kept elsewhere:
 *   npx tsx test/actions/real-traces/measure.ts [DIR] [--verbose] [--no-account-table]
 */

export type Outcome = 'full' | 'kind' | 'missed' | 'model-difference';

export interface ActionResult {
    file: string;
    name: string;
    type: string;
    outcome: Outcome;
    /** for 'kind': the fields of the closest action that differ */
    wrong: string[];
}

export interface Measurement {
    results: ActionResult[];
    /** engine time per trace, ms */
    times: number[];
    /** internal messages whose rebuilt cells did not reproduce their hashes */
    inexactMessages: number;
    /** every action we found, per case, as `Type` names (for reading a run) */
    found: Map<string, string[]>;
}

/** Interfaces of every account of the trace, as our detection gives them from what the replay may know. */
export function interfacesOf(file: TraceFile, deployedCode: ReadonlyMap<string, import('@ton/core').Cell>, account: string, accountTable = true): string[] {
    const out = new Set<string>();
    const bound = accountTable ? ACCOUNT_CODE.get(account) : undefined;
    const code = deployedCode.get(account);
    // A code the account set after its deploy (DeDust's blank placeholder) is the bound one.
    if (code && !bound) for (const name of [...(knownCode(code)?.interfaces ?? []), ...protocolInterfaces(code)]) out.add(name);
    for (const name of knownInterfaces(account, bound?.codeHash)) out.add(name);
    // What get-method probing reads on mainnet (get_wallet_data, get_nft_data, get_sale_data): recorded by the other index.
    const recorded = file.interfaces[account.toUpperCase()];
    if (recorded?.JettonWallet) out.add('jetton_wallet');
    if (recorded?.NftItem) out.add('nft_item');
    if (recorded?.NftSale) out.add('nft_sale');
    if (recorded?.NftAuction) out.add('nft_auction_v1');
    return [...out];
}

export function factsOf(file: TraceFile): TraceFacts {
    const jettonWallets = new Map<string, { master: string; owner: string }>();
    const jettons = new Map<string, JettonPreviewFacts>();
    const nftItems = new Map<string, NftItemFacts>();
    const nftSales = new Map<string, NftSaleFacts>();
    for (const [address, recorded] of Object.entries(file.interfaces)) {
        const a = rawAddress(address);
        if (recorded.JettonWallet) {
            const master = rawAddress(recorded.JettonWallet.jetton);
            jettonWallets.set(a, { master, owner: rawAddress(recorded.JettonWallet.owner) });
            jettons.set(master, { address: master, name: '', symbol: '', decimals: 9, image: '', verification: 'none', score: 0 });
        }
        if (recorded.NftItem) {
            const item = recorded.NftItem;
            nftItems.set(a, { address: a, index: BigInt(item.index), collection: item.collection_address ? rawAddress(item.collection_address) : null, owner: item.owner_address ? rawAddress(item.owner_address) : null });
        }
        if (recorded.NftAuction) {
            const auction = recorded.NftAuction;
            nftSales.set(a, { nft: rawAddress(auction.nft_addr), owner: rawAddress(auction.nft_owner), price: BigInt(auction.last_bid), market: rawAddress(auction.mp_addr) });
        }
    }
    return { jettonWallets, jettons, nftItems, nftSales };
}

function walk(node: ActionTraceNode, visit: (n: ActionTraceNode) => void): void {
    visit(node);
    node.children.forEach((c) => walk(c, visit));
}

/** Our actions for one trace, with the time the engine took. */
export function actionsOfTrace(file: TraceFile, accountTable = true): { actions: EngineAction[]; ms: number; root: ActionTraceNode; inexact: number } {
    const replayed = replayTrace(file);
    walk(replayed.root, (n) => {
        n.interfaces = interfacesOf(file, replayed.deployedCode, n.transaction.account, accountTable);
    });
    const facts = factsOf(file);
    const start = performance.now();
    const { actions } = findActions(replayed.root, facts);
    const ms = performance.now() - start;
    return { actions, ms, root: replayed.root, inexact: replayed.inexactMessages.length };
}

/** Deposits sent to a pool: Coffee's deposit_liquidity_internal, DeDust's deposit contract → pool. */
const POOL_DEPOSIT_OPS = new Set([0xc0ffee29, 0xb56b9598]);

function judge(c: ExpectedCase, expected: ExpectedAction, actions: EngineAction[], root: ActionTraceNode): { outcome: Outcome; wrong: string[] } {
    if (isModelDifference(c, expected)) return { outcome: 'model-difference', wrong: [] };
    const lts = new Map<string, bigint>();
    const opcodes = new Map<string, number | null>();
    const pools = new Set<string>();
    walk(root, (n) => {
        const op = n.transaction.inMsg?.opCode;
        if (n.interfaces.some((i) => i.endsWith('_pool') || i.startsWith('stonfi_pool')) || (op !== null && op !== undefined && POOL_DEPOSIT_OPS.has(op))) pools.add(n.transaction.account);
        // The classifier's start_lt: when the message that started the action was created.
        const inMsg = n.transaction.inMsg;
        lts.set(n.transaction.hash, inMsg?.msgType === 'int_msg' ? inMsg.createdLt : n.transaction.lt);
        opcodes.set(n.transaction.hash, n.transaction.inMsg?.opCode ?? null);
    });
    let best: string[] | null = null;
    for (const action of actions) {
        if (!IN_SCOPE[expected.type]?.includes(action.draft.type)) continue;
        const seen = viewOf(action, { lts, opcodes, pools });
        if (!seen || (seen.type !== expected.type && !(expected.type === 'nft_purchase' && seen.type === 'nft_transfer'))) continue;
        if (!selects(expected.selector, seen.view, PTON_MASTERS)) continue;
        const wrong = mismatches(expected, seen.view, PTON_MASTERS);
        if (best === null || wrong.length < best.length) best = wrong;
    }
    if (best === null) return { outcome: 'missed', wrong: [] };
    return { outcome: best.length === 0 ? 'full' : 'kind', wrong: best };
}

/**
 * `accountTable`: whether accounts whose code the traces lack get their contract's code hash from
 * the test-side table (off: only code the traces deploy, singletons by address and what probing
 * reads, as for a folder of traces the table knows nothing of).
 */
export function measure(dir = REAL_TRACES_DIR, accountTable = true): Measurement {
    const results: ActionResult[] = [];
    const times: number[] = [];
    const found = new Map<string, string[]>();
    let inexactMessages = 0;
    for (const c of readCases(dir)) {
        if (!existsSync(`${dir}traces/${traceFileName(c.traceId)}`)) {
            // A case whose trace the folder lacks: what it expects in scope counts as missed.
            for (const expected of c.actions) if (IN_SCOPE[expected.type]) results.push({ file: c.file, name: c.name, type: expected.type, outcome: 'missed', wrong: ['no trace file'] });
            continue;
        }
        const file = readTraceFile(c.traceId, dir);
        const { actions, ms, root, inexact } = actionsOfTrace(file, accountTable);
        times.push(ms);
        inexactMessages += inexact;
        found.set(`${c.file} ${c.name}`, actions.map((a) => a.draft.type));
        for (const expected of c.actions) {
            if (!IN_SCOPE[expected.type]) continue;
            const { outcome, wrong } = judge(c, expected, actions, root);
            results.push({ file: c.file, name: c.name, type: expected.type, outcome, wrong });
        }
    }
    return { results, times, inexactMessages, found };
}

export function score(results: ActionResult[]): { total: number; compared: number; byKind: number; full: number } {
    const compared = results.filter((r) => r.outcome !== 'model-difference');
    return {
        total: results.length,
        compared: compared.length,
        byKind: compared.filter((r) => r.outcome !== 'missed').length,
        full: compared.filter((r) => r.outcome === 'full').length,
    };
}

if (import.meta.url === `file://${process.argv[1]}`) {
    const dir = process.argv.slice(2).find((a) => !a.startsWith('--'));
    const verbose = process.argv.includes('--verbose');
    const m = measure(dir ? `${dir.replace(/\/?$/, '/')}` : REAL_TRACES_DIR, !process.argv.includes('--no-account-table'));
    for (const r of m.results) {
        if (verbose || r.outcome !== 'full') console.log(`${r.outcome.padEnd(16)} ${r.file} | ${r.name} | ${r.type}${r.wrong.length ? ` | ${r.wrong.join('; ')}` : ''}`);
    }
    if (verbose) for (const [name, types] of m.found) console.log(`found ${name}: ${types.join(', ')}`);
    const s = score(m.results);
    const sorted = [...m.times].sort((a, b) => a - b);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(3);
    console.log(`${s.total} expected actions in scope, ${s.total - s.compared} model differences; of ${s.compared}: ${s.byKind} by kind (${(100 * s.byKind / s.compared).toFixed(1)} %), ${s.full} with all fields (${(100 * s.full / s.compared).toFixed(1)} %)`);
    console.log(`engine time per trace: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms over ${sorted.length} traces; ${m.inexactMessages} internal messages not rebuilt exactly`);
}
