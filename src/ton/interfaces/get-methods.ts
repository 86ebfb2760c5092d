import { Cell } from '@ton/core';
import { hashmapKeys } from './hashmap-keys.ts';
import { resolveLibraryCode, type LibraryLookup } from '../libraries.ts';

/**
 * Get-method ids and the method dictionary of a contract's code.
 *
 * FunC and Tolk give a get-method the id `(crc16(name) & 0xffff) | 0x10000`, where crc16 is
 * CRC-16/XMODEM (poly 0x1021, init 0). Their code root is
 * `SETCP0; DICTPUSHCONST 19 <dict>; DICTIGETJMPZ; 11 THROWARG`: the method dictionary is the
 * root's first reference, a `Hashmap 19` keyed by the signed method id whose values are the
 * methods' code (recv_internal = 0, recv_external = -1, run_ticktock = -2, get-methods ≥ 0x10000).
 */

/** CRC-16/XMODEM of the bytes. */
export function crc16Xmodem(data: Uint8Array): number {
    let crc = 0;
    for (const byte of data) {
        crc ^= byte << 8;
        for (let bit = 0; bit < 8; bit++) {
            crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
        }
    }
    return crc;
}

/** The id FunC/Tolk give the get-method `name`: `(crc16(name) & 0xffff) | 0x10000`. */
export function methodId(name: string): number {
    return (crc16Xmodem(Buffer.from(name, 'utf8')) & 0xffff) | 0x10000;
}

/**
 * Get-methods we know by name (standard wallets, TEP-74 jettons, TEP-62/66/85 NFTs and SBTs,
 * DNS, multisig, sales, staking pools and DEX pools). A contract's `get_methods` are the names
 * of this list whose id is present in its method dictionary.
 */
export const KNOWN_GET_METHODS: readonly string[] = [
    // wallets
    'seqno',
    'get_public_key',
    'get_subwallet_id',
    'get_plugin_list',
    'is_plugin_installed',
    'get_extensions',
    'is_signature_allowed',
    'processed?',
    'get_last_clean_time',
    'get_timeout',
    // jettons (TEP-74, TEP-89, governed/stablecoin wallets)
    'get_wallet_data',
    'get_jetton_data',
    'get_wallet_address',
    'get_status',
    // NFTs (TEP-62, TEP-66 royalties, TEP-85 SBT) and sales
    'get_nft_data',
    'get_collection_data',
    'get_nft_address_by_index',
    'get_nft_content',
    'royalty_params',
    'get_authority_address',
    'get_revoked_time',
    'get_editor',
    'get_sale_data',
    'get_offer_data',
    // DNS and Telemint
    'dnsresolve',
    'get_domain',
    'get_full_domain',
    'get_last_fill_up_time',
    'get_telemint_token_name',
    'get_telemint_auction_state',
    'get_telemint_auction_config',
    // multisig
    'get_n_k',
    'get_multisig_data',
    'get_order_address',
    'get_order_data',
    // lockup / vesting / payment channels / subscriptions
    'get_balances',
    'get_vesting_data',
    'get_channel_data',
    'get_channel_state',
    'get_subscription_data',
    // staking
    'get_pool_data',
    'get_pool_full_data',
    'list_nominators',
    'list_votes',
    'get_staking_status',
    'get_params',
    'get_member',
    // DEX pools and vaults
    'get_assets',
    'get_reserves',
    'get_trade_fee',
    'is_stable',
    'get_asset',
    'get_lp_data',
    'get_mining_data',
    'get_router_data',
    'get_lp_account_address',
    'get_expected_outputs',
];

/** Known get-method names by id (several names may share an id: crc16 collides). */
export const KNOWN_GET_METHOD_IDS: ReadonlyMap<number, readonly string[]> = (() => {
    const byId = new Map<number, string[]>();
    for (const name of KNOWN_GET_METHODS) {
        const id = methodId(name);
        const names = byId.get(id);
        if (names) names.push(name);
        else byId.set(id, [name]);
    }
    return byId;
})();

/** Names of the known get-methods whose ids are in `ids`, sorted. */
export function knownGetMethodNames(ids: Iterable<number>): string[] {
    const names: string[] = [];
    for (const id of ids) names.push(...(KNOWN_GET_METHOD_IDS.get(id) ?? []));
    return names.sort();
}

const SETCP0 = 0xff00;
/** `DICTPUSHCONST n`: the 14-bit prefix of `F4A6_ n:(## 10)` (a 24-bit instruction). */
const DICTPUSHCONST_PREFIX = 0b11110100101001;
/** Key lengths beyond this are not method dictionaries. */
const MAX_KEY_BITS = 32;

/**
 * The method ids in a contract's method dictionary (see the module comment). A library code cell
 * is resolved through `libraries`. Code without a recognisable dictionary (hand-written
 * assembly like wallets v1–v3, a library that is not available, junk) gives an empty set.
 */
export function readMethodIds(code: Cell, libraries?: LibraryLookup): Set<number> {
    const ids = new Set<number>();
    try {
        const root = resolveLibraryCode(code, libraries);
        if (!root) return ids;
        const dictInfo = findMethodDictionary(root);
        if (!dictInfo) return ids;
        for (const key of hashmapKeys(dictInfo.dict, dictInfo.keyBits)) {
            ids.add(Number(BigInt.asIntN(dictInfo.keyBits, key)));
        }
    } catch {
        // a prologue that does not parse: no dictionary
    }
    return ids;
}

/** The names of the known get-methods present in `code`'s method dictionary, sorted. */
export function readGetMethodNames(code: Cell, libraries?: LibraryLookup): string[] {
    return knownGetMethodNames(readMethodIds(code, libraries));
}

function findMethodDictionary(root: Cell): { dict: Cell; keyBits: number } | null {
    const slice = root.beginParse();
    if (slice.remainingBits >= 16 && slice.preloadUint(16) === SETCP0) slice.skip(16);
    if (slice.remainingBits < 24 || slice.preloadUint(14) !== DICTPUSHCONST_PREFIX) return null;
    slice.skip(14);
    const keyBits = slice.loadUint(10);
    if (keyBits === 0 || keyBits > MAX_KEY_BITS || slice.remainingRefs < 1) return null;
    const dict = slice.loadRef();
    return dict.isExotic ? null : { dict, keyBits };
}
