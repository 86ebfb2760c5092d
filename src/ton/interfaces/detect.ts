import { beginCell, type Address, type Cell } from '@ton/core';
import type { DetectionCache, CodeProfile } from './detection-cache.ts';
import type { GetMethodAccount, GetMethodResult, GetMethodRunner } from './get-method-runner.ts';
import { readGetMethodNames } from './get-methods.ts';
import { libraryTargetHash, resolveLibraryCode, type LibraryLookup } from '../libraries.ts';
import { knownCode, protocolInterfaces } from './known-code.ts';
import { interfacesByAddress } from './mainnet-contracts.ts';
import {
    decodeAddressResult,
    decodeJettonMasterData,
    decodeJettonWalletData,
    decodeMultisigData, decodeMultisigOrderData,
    decodeNftCollectionData,
    decodeNftItemData,
    decodeNftSaleData,
    decodePublicKey,
    decodeSubscriptionData,
    decodeTextSlice,
    isDedustAsset,
    isStonfiPoolData,
    type NftSaleData,
    type SubscriptionData,
    decodeUint32,
} from './standard-getters.ts';
import { readWalletData, type WalletInfo } from './wallet-data.ts';
import { formatRawAddress } from '../address.ts';
import type { MultisigOrderState } from './multisig-order.ts';

/**
 * Contract interface detection (TonAPI/tongo style): known code hashes first (interfaces fixed by
 * the table, wallet state read from the data cell); otherwise get-method probing on the TVM,
 * where an interface is declared only when its get-method is in the code's method dictionary,
 * succeeds, and returns the standard's types. What a code has is cached by code hash; what an
 * account holds (balances, owners, keys) is read for every call.
 */

export type DetectAccount = GetMethodAccount;

export interface DetectedContract {
    interfaces: string[];
    /** Names of the known get-methods present in the code, sorted. */
    getMethods: string[];
    wallet?: WalletInfo;
    jettonWallet?: { balance: bigint; owner: string; master: string };
    jettonMaster?: { totalSupply: bigint; mintable: boolean; admin: string | null; content: Cell; walletCode: Cell };
    /** `content` is null before the item is initialized; `dns` is the name of a DNS item ("alice.ton", "alice.t.me"). */
    nftItem?: { initialized: boolean; index: bigint; collection: string | null; owner: string | null; content: Cell | null; dns?: string };
    nftCollection?: { nextItemIndex: bigint; content: Cell; owner: string | null };
    /** A getgems sale or auction. */
    nftSale?: NftSaleData;
    /** A wallet v4 subscription plugin. */
    subscription?: SubscriptionData;
    /** A multisig v2 order, as its `get_order_data` answers. */
    multisigOrder?: MultisigOrderState;
}

/** What detection needs from a runner (GetMethodRunner, or a stand-in in tests). */
export type InterfaceRunner = Pick<GetMethodRunner, 'run'> & { readonly libraries?: LibraryLookup };

export interface DetectOptions {
    /** Profiles by code hash; without it every call probes. */
    cache?: DetectionCache;
    /** Library lookup for library code cells; default the runner's. */
    libraries?: LibraryLookup;
    /** Gas limit of each get-method detection runs; default {@link DETECT_GAS_LIMIT}. */
    gasLimit?: bigint;
}

/**
 * Standard getters cost a few thousand gas (a wallet's `get_public_key` ~900, a Tolk jetton
 * wallet's `get_wallet_data` a few thousand); a junk or hostile contract that loops runs to the
 * limit, and 1M gas takes ~250 ms of TVM time, so probing stops much earlier.
 */
export const DETECT_GAS_LIMIT = 200_000n;

/**
 * Interfaces declared by probing (in this order): each by get-methods that must all be in the
 * code and all answer with their layouts (the rule of tongo's inspector).
 */
const PROBES: readonly { iface: string; getters: readonly string[]; accepts: (results: GetMethodResult[]) => boolean }[] = [
    { iface: 'jetton_master', getters: ['get_jetton_data'], accepts: ([r]) => decodeJettonMasterData(r) !== null },
    { iface: 'jetton_wallet', getters: ['get_wallet_data'], accepts: ([r]) => decodeJettonWalletData(r) !== null },
    { iface: 'nft_collection', getters: ['get_collection_data'], accepts: ([r]) => decodeNftCollectionData(r) !== null },
    { iface: 'nft_item', getters: ['get_nft_data'], accepts: ([r]) => decodeNftItemData(r) !== null },
    { iface: 'teleitem', getters: ['get_telemint_token_name'], accepts: ([r]) => decodeTextSlice(r) !== null },
    { iface: 'nft_sale', getters: ['get_sale_data'], accepts: ([r]) => decodeNftSaleData(r)?.kind === 'sale' },
    { iface: 'nft_auction_v1', getters: ['get_sale_data'], accepts: ([r]) => decodeNftSaleData(r)?.kind === 'auction' },
    { iface: 'subscription_v1', getters: ['get_subscription_data'], accepts: ([r]) => decodeSubscriptionData(r) !== null },
    { iface: 'multisig_order_v2', getters: ['get_order_data'], accepts: ([r]) => decodeMultisigOrderData(r) !== null },
    { iface: 'multisig_v2', getters: ['get_multisig_data'], accepts: ([r]) => decodeMultisigData(r) !== null },
    { iface: 'stonfi_pool', getters: ['get_pool_data'], accepts: ([r]) => isStonfiPoolData(r) },
    { iface: 'dedust_vault', getters: ['get_asset'], accepts: ([r]) => r.ok && r.stack.length === 1 && isDedustAsset(r.stack[0]) },
    {
        iface: 'dedust_pool',
        getters: ['get_assets', 'get_reserves', 'get_trade_fee', 'is_stable'],
        accepts: ([assets, reserves, fee, stable]) => assets.ok && assets.stack.length === 2 && assets.stack.every(isDedustAsset)
            && reserves.ok && reserves.stack.length === 2 && reserves.stack.every(r => r.type === 'int')
            && fee.ok && fee.stack.length === 2 && fee.stack.every(r => r.type === 'int') && stable.ok && stable.stack[0]?.type === 'int',
    },
];

export async function detectInterfaces(
    account: DetectAccount,
    runner: InterfaceRunner,
    options: DetectOptions = {},
): Promise<DetectedContract> {
    const libraries = options.libraries ?? runner.libraries;
    const call = memoizedCalls(account, runner, options.gasLimit ?? DETECT_GAS_LIMIT);
    const codeHash = account.code.hash().toString('hex');

    let built: BuiltProfile | undefined;
    const build = async () => {
        built = await buildProfile(account, codeHash, call, libraries);
        return built.cacheable ? built.profile : null;
    };
    const profile =
        (options.cache ? await options.cache.getOrCompute(codeHash, build) : null) ??
        built?.profile ??
        (await buildProfile(account, codeHash, call, libraries)).profile;

    // Singletons are known by address (a router, a factory): what the code alone cannot say.
    const interfaces = [...new Set([...profile.interfaces, ...interfacesByAddress(formatRawAddress(account.address))])];
    const detected: DetectedContract = { interfaces, getMethods: [...profile.getMethods] };
    const has = (iface: string) => profile.interfaces.includes(iface);
    const present = (getter: string) => profile.getMethods.includes(getter);

    const wallet = await readWallet(account, call, present);
    if (wallet) detected.wallet = wallet;

    if (has('jetton_wallet')) {
        const data = decodeJettonWalletData(await call('get_wallet_data'));
        if (data) detected.jettonWallet = { balance: data.balance, owner: data.owner, master: data.master };
    }
    if (has('jetton_master')) {
        const data = decodeJettonMasterData(await call('get_jetton_data'));
        if (data) detected.jettonMaster = data;
    }
    if (has('nft_item')) {
        const data = decodeNftItemData(await call('get_nft_data'));
        if (data) {
            const dns = data.initialized ? await readDomain(call, present) : undefined;
            detected.nftItem = dns === undefined ? data : { ...data, dns };
        }
    }
    if (has('nft_sale') || has('nft_auction_v1')) {
        const data = decodeNftSaleData(await call('get_sale_data'));
        if (data) detected.nftSale = data;
    }
    if (has('subscription_v1')) {
        const data = decodeSubscriptionData(await call('get_subscription_data'));
        if (data) detected.subscription = data;
    }
    if (has('multisig_order_v2') && present('get_order_data')) {
        const data = decodeMultisigOrderData(await call('get_order_data'));
        if (data) detected.multisigOrder = data;
    }
    if (has('nft_collection')) {
        const data = decodeNftCollectionData(await call('get_collection_data'));
        if (data) detected.nftCollection = data;
    }
    return detected;
}

/**
 * The jetton wallet address a master gives for `owner` (TEP-74 `get_wallet_address`), raw
 * `wc:hex`, or null when the method fails or returns something else. A jetton wallet counts
 * only if its master gives it back.
 */
export async function jettonWalletAddressOf(
    master: DetectAccount,
    owner: Address,
    runner: InterfaceRunner,
): Promise<string | null> {
    const arg = beginCell().storeAddress(owner).endCell();
    const result = await runner.run(master, 'get_wallet_address', [{ type: 'slice', cell: arg }], { gasLimit: DETECT_GAS_LIMIT });
    return decodeAddressResult(result);
}

type Call = (getter: string) => Promise<GetMethodResult>;

const TON_LABEL = /^[a-z0-9-]{1,126}$/;
const TELEGRAM_LABEL = /^[a-z0-9_-]{1,126}$/;

/**
 * A DNS item's name: .ton items answer `get_domain` with the label alone ("alice"); Telegram's
 * items answer `get_full_domain` with the labels in reverse, each NUL-terminated ("me\0t\0alice\0").
 */
async function readDomain(call: Call, present: (getter: string) => boolean): Promise<string | undefined> {
    if (present('get_domain')) {
        const label = decodeTextSlice(await call('get_domain'));
        if (label !== null && TON_LABEL.test(label)) return `${label}.ton`;
    }
    if (present('get_full_domain')) {
        const labels = decodeTextSlice(await call('get_full_domain'))?.split('\0').filter(label => label.length > 0);
        if (labels && labels.length >= 2 && labels.every(label => TELEGRAM_LABEL.test(label))) return labels.reverse().join('.');
    }
    return undefined;
}

/** One run per get-method per detection (probing and data reading share results). */
function memoizedCalls(account: DetectAccount, runner: InterfaceRunner, gasLimit: bigint): Call {
    const results = new Map<string, Promise<GetMethodResult>>();
    return (getter) => {
        let result = results.get(getter);
        if (!result) {
            result = runner.run(account, getter, [], { gasLimit });
            results.set(getter, result);
        }
        return result;
    };
}

interface BuiltProfile {
    profile: CodeProfile;
    /** False when the code is a library cell whose library is not available (yet). */
    cacheable: boolean;
}

async function buildProfile(
    account: DetectAccount,
    codeHash: string,
    call: Call,
    libraries: LibraryLookup | undefined,
): Promise<BuiltProfile> {
    const code = account.code;
    const cacheable = !libraryTargetHash(code) || resolveLibraryCode(code, libraries) !== null;
    const known = knownCode(code);
    const getMethods = [...new Set([...readGetMethodNames(code, libraries), ...(known?.getMethods ?? [])])].sort();
    if (known) {
        return { profile: { codeHash, interfaces: [...known.interfaces], getMethods, known: true }, cacheable };
    }
    const interfaces: string[] = [];
    for (const probe of PROBES) {
        if (probe.getters.every(getter => getMethods.includes(getter)) && probe.accepts(await Promise.all(probe.getters.map(call)))) interfaces.push(probe.iface);
    }
    // Mainnet protocols by code hash add what probing cannot tell (a pool's own getters are not standard).
    for (const name of protocolInterfaces(code)) if (!interfaces.includes(name)) interfaces.push(name);
    return { profile: { codeHash, interfaces, getMethods, known: false }, cacheable };
}

/**
 * Known wallets: their data cell. Other code with `get_public_key`: that method (and `seqno` /
 * `get_subwallet_id` when present).
 */
async function readWallet(
    account: DetectAccount,
    call: Call,
    present: (getter: string) => boolean,
): Promise<WalletInfo | null> {
    const known = knownCode(account.code);
    if (known?.walletData) return readWalletData(known.walletData, account.data, account.address.workChain);
    if (!present('get_public_key')) return null;
    const publicKey = decodePublicKey(await call('get_public_key'));
    if (!publicKey) return null;
    const wallet: WalletInfo = { publicKey };
    if (present('seqno')) {
        const seqno = decodeUint32(await call('seqno'));
        if (seqno !== null) wallet.seqno = seqno;
    }
    if (present('get_subwallet_id')) {
        const walletId = decodeUint32(await call('get_subwallet_id'));
        if (walletId !== null) wallet.walletId = walletId;
    }
    return wallet;
}
