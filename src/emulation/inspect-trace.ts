import { Address, type ShardAccount } from '@ton/core';
import { BoundedMap } from '../lru.ts';
import { ParsedCells } from './parsed-cells.ts';
import type { JettonPreviewFacts, NftItemFacts, NftSaleFacts, SubscriptionFacts, TraceFacts } from '../actions/trace-input.ts';
import { jettonPreview } from '../ton/jetton/jetton-preview.ts';
import { detectInterfaces, jettonWalletAddressOf, type DetectAccount, type DetectedContract } from '../ton/interfaces/detect.ts';
import { DetectionCache } from '../ton/interfaces/detection-cache.ts';
import { GetMethodRunner } from '../ton/interfaces/get-method-runner.ts';
import { parseTokenContent } from '../ton/jetton/token-content.ts';
import { formatRawAddress } from '../ton/address.ts';
import { OP_JETTON_TRANSFER, loadJettonTransfer, peekOp, tryLoad } from '../ton/bodies/index.ts';
import { accountInterfaces } from '../store/read/accounts.ts';
import { jettonMetadata } from '../store/read/jettons.ts';
import type { IndexDb } from '../store/schema.ts';
import { walkTrace, type EmulatedTrace, type EmulatedTransaction } from './trace-emulator.ts';

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
/** The wallet a master names for an owner (null: none), by owner and the master's code and data. */
const walletsByOwner = new BoundedMap<string, string | null>(20_000);

/**
 * Reads what the accounts of an emulated trace are, from their states after the trace (a contract
 * the trace deploys is recognised too): interfaces by running get-methods, jetton wallets
 * confirmed by their master (and the wallets the masters name for the recipients of the trace's
 * jetton transfers), and the jettons' previews from the index.
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
    const masterAccountOf = async (master: string): Promise<DetectAccount | undefined> => {
        const after = runnable(master, trace.after.get(master));
        if (after) return after;
        if (!indexedMasters.has(master)) indexedMasters.set(master, indexedAccount(db, master));
        return indexedMasters.get(master);
    };
    for (const [address, found] of detected) {
        if (!found.jettonWallet) continue;
        const { master, owner } = found.jettonWallet;
        const masterAccount = await masterAccountOf(master);
        if (!masterAccount) continue;
        const key = `${address}|${owner}|${masterAccount.code.hash().toString('hex')}|${masterAccount.data.hash().toString('hex')}`;
        let confirmed = confirmations.get(key);
        if (confirmed === undefined) {
            confirmed = await jettonWalletAddressOf(masterAccount, Address.parseRaw(owner), run) === address;
            confirmations.set(key, confirmed);
        }
        if (confirmed) jettonWallets.set(address, { master, owner });
    }
    // A transfer that failed on the sender's wallet, or bounced, may never reach the recipient's
    // wallet: its master still names that wallet (get_wallet_address of the recipient).
    for (const { wallet, recipient } of jettonTransfersIn(trace.root)) {
        const sender = jettonWallets.get(wallet);
        if (!sender || [...jettonWallets.values()].some(w => w.master === sender.master && w.owner === recipient)) continue;
        const masterAccount = await masterAccountOf(sender.master);
        if (!masterAccount) continue;
        const key = `${recipient}|${masterAccount.code.hash().toString('hex')}|${masterAccount.data.hash().toString('hex')}`;
        let named = walletsByOwner.get(key);
        if (named === undefined) {
            named = await jettonWalletAddressOf(masterAccount, Address.parseRaw(recipient), run);
            walletsByOwner.set(key, named);
        }
        if (named !== null && !jettonWallets.has(named)) jettonWallets.set(named, { master: sender.master, owner: recipient });
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
    for (const [master, metadata] of await jettonMetadata(db, masters)) previews.set(master, jettonPreview(master, metadata));
    for (const master of masters) {
        if (previews.has(master)) continue;
        const content = detected.get(master)?.jettonMaster?.content;
        previews.set(master, jettonPreview(master, content ? parseTokenContent(content).onchain : undefined));
    }
    return previews;
}

/** The jetton transfers the trace's transactions received: the wallet asked to send, and the recipient (owner) it was told. */
function* jettonTransfersIn(root: EmulatedTransaction): Generator<{ wallet: string; recipient: string }> {
    for (const node of walkTrace(root)) {
        const body = node.parsed.inMsg?.message.body;
        if (!body || peekOp(body) !== OP_JETTON_TRANSFER) continue;
        const destination = tryLoad(loadJettonTransfer, body)?.destination;
        if (destination) yield { wallet: node.parsed.account, recipient: formatRawAddress(destination) };
    }
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
