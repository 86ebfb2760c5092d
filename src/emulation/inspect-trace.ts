import { Address, type ShardAccount } from '@ton/core';
import { BoundedMap } from './bounded-map.ts';
import { ParsedCells } from './parsed-cells.ts';
import type { JettonPreviewFacts, NftItemFacts, NftSaleFacts, SubscriptionFacts, TraceFacts } from '../actions/trace-input.ts';
import { jettonPreview, type JettonMetadata } from '../ton/jetton/jetton-preview.ts';
import { detectInterfaces, jettonWalletAddressOf, type DetectAccount, type DetectedContract } from '../ton/interfaces/detect.ts';
import { DetectionCache } from '../ton/interfaces/detection-cache.ts';
import { GetMethodRunner } from '../ton/interfaces/get-method-runner.ts';
import { parseTokenContent } from '../ton/jetton/token-content.ts';
import { accountInterfaces } from '../store/read/accounts.ts';
import { jettonMasters } from '../store/read/jettons.ts';
import type { IndexDb } from '../store/schema.ts';
import type { EmulatedTrace } from './trace-emulator.ts';

export interface InspectedTrace {
    /** Interfaces of every account the trace touched (as the trace left it) or mentions (as indexed). */
    interfaces: Map<string, string[]>;
    facts: TraceFacts;
    /** What detection read from the accounts the trace touched, as the trace left them. */
    detected: Map<string, DetectedContract>;
}

let runner: Promise<GetMethodRunner> | undefined;
const cache = new DetectionCache();
/** What detection read from an account state, by address, code and data: the same state reads the same. */
const detections = new BoundedMap<string, DetectedContract>(20_000);
/** Whether a master confirmed a jetton wallet, by wallet, owner and the master's code and data. */
const confirmations = new BoundedMap<string, boolean>(20_000);

/**
 * Reads what the accounts of an emulated trace are, from their states after the trace (a contract
 * the trace deploys is recognised too): interfaces by running get-methods, jetton wallets
 * confirmed by their master, and the jettons' previews from the index.
 */
export async function inspectEmulatedTrace(db: IndexDb, trace: EmulatedTrace, mentioned: Iterable<string>): Promise<InspectedTrace> {
    runner ??= GetMethodRunner.create();
    const run = await runner;
    run.addLibraries(trace.libraries);
    const detected = new Map<string, DetectedContract>();
    const interfaces = new Map<string, string[]>();
    for (const [address, state] of trace.after) {
        const account = runnable(address, state);
        if (!account) continue;
        const key = `${address}|${account.code.hash().toString('hex')}|${account.data.hash().toString('hex')}`;
        let found = detections.get(key);
        if (!found) {
            found = await detectInterfaces(account, run, { cache });
            detections.set(key, found);
        }
        detected.set(address, found);
        interfaces.set(address, found.interfaces);
    }
    const others = [...new Set(mentioned)].filter(address => !trace.after.has(address));
    for (const [address, list] of await accountInterfaces(db, others)) interfaces.set(address, list);

    const jettonWallets = new Map<string, { master: string; owner: string }>();
    // Several wallets of one jetton (sender's and receiver's) share its master: read it once.
    const indexedMasters = new Map<string, Promise<DetectAccount | undefined>>();
    for (const [address, found] of detected) {
        if (!found.jettonWallet) continue;
        const { master, owner } = found.jettonWallet;
        let masterAccount = runnable(master, trace.after.get(master));
        if (!masterAccount) {
            if (!indexedMasters.has(master)) indexedMasters.set(master, indexedAccount(db, master));
            masterAccount = await indexedMasters.get(master);
        }
        if (!masterAccount) continue;
        const key = `${address}|${owner}|${masterAccount.code.hash().toString('hex')}|${masterAccount.data.hash().toString('hex')}`;
        let confirmed = confirmations.get(key);
        if (confirmed === undefined) {
            confirmed = await jettonWalletAddressOf(masterAccount, Address.parseRaw(owner), run) === address;
            confirmations.set(key, confirmed);
        }
        if (confirmed) jettonWallets.set(address, { master, owner });
    }
    const mastersNeeded = new Set([...jettonWallets.values()].map(w => w.master));
    for (const [address, found] of detected) if (found.jettonMaster) mastersNeeded.add(address);
    const jettons = await jettonPreviews(db, [...mastersNeeded], detected);

    const nftItems = new Map<string, NftItemFacts>();
    for (const [address, found] of detected) {
        if (!found.nftItem) continue;
        const { index, collection, owner, dns } = found.nftItem;
        nftItems.set(address, dns === undefined ? { address, index, collection, owner } : { address, index, collection, owner, dns });
    }
    const nftSales = new Map<string, NftSaleFacts>();
    const subscriptions = new Map<string, SubscriptionFacts>();
    for (const [address, found] of detected) {
        const sale = found.nftSale;
        if (sale?.owner) nftSales.set(address, { nft: sale.nft, owner: sale.owner, price: sale.price, market: sale.market });
        const plugin = found.subscription;
        if (plugin) subscriptions.set(address, { wallet: plugin.wallet, beneficiary: plugin.beneficiary, amount: plugin.amount });
    }
    return { interfaces, facts: { jettonWallets, jettons, nftItems, nftSales, subscriptions }, detected };
}

/** Metadata as indexed (with the off-chain document) where the index has the master, else its on-chain content. */
async function jettonPreviews(db: IndexDb, masters: string[], detected: Map<string, DetectedContract>): Promise<Map<string, JettonPreviewFacts>> {
    const previews = new Map<string, JettonPreviewFacts>();
    for (const row of await jettonMasters(db, masters)) {
        previews.set(row.address, jettonPreview(row.address, JSON.parse(row.metadata) as JettonMetadata));
    }
    for (const master of masters) {
        if (previews.has(master)) continue;
        const content = detected.get(master)?.jettonMaster?.content;
        previews.set(master, jettonPreview(master, content ? parseTokenContent(content).onchain : undefined));
    }
    return previews;
}

function runnable(address: string, state: ShardAccount | undefined): DetectAccount | undefined {
    const storage = state?.account?.storage;
    if (storage?.state.type !== 'active' || !storage.state.state.code || !storage.state.state.data) return undefined;
    return { address: Address.parseRaw(address), code: storage.state.state.code, data: storage.state.state.data, balance: storage.balance.coins };
}

/** Code and data cells of indexed jetton masters, reused while the index holds the same bytes. */
const masterCells = new ParsedCells(4_000);

async function indexedAccount(db: IndexDb, address: string): Promise<DetectAccount | undefined> {
    const row = await db.selectFrom('account_states').select(['code', 'data', 'balance', 'status']).where('address', '=', address).executeTakeFirst();
    if (!row || row.status !== 'active' || !row.code || !row.data) return undefined;
    return { address: Address.parseRaw(address), code: masterCells.read(`code ${address}`, row.code), data: masterCells.read(`data ${address}`, row.data), balance: row.balance };
}
