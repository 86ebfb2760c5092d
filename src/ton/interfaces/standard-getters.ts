import { Address, type Cell, type TupleItem } from '@ton/core';
import { formatRawAddress } from '../address.ts';
import { loadDedustAsset } from '../bodies/dedust.ts';
import type { GetMethodResult } from './get-method-runner.ts';
import { checkApprovals, loadMultisigOrderActions, loadSigners, type MultisigOrderState } from './multisig-order.ts';

/**
 * Decoders of the standard get-methods' results. Each returns null unless the method succeeded
 * and every value has the type the standard gives it (addresses must be internal addresses), so
 * a contract that merely has a method with the same id is not taken for a jetton or an NFT.
 */

export interface JettonWalletData {
    balance: bigint;
    /** Raw `wc:hex`. */
    owner: string;
    master: string;
    walletCode: Cell;
}

export interface JettonMasterData {
    totalSupply: bigint;
    mintable: boolean;
    admin: string | null;
    content: Cell;
    walletCode: Cell;
}

export interface NftItemData {
    initialized: boolean;
    index: bigint;
    collection: string | null;
    owner: string | null;
    /** Individual content; null before the item is initialized. */
    content: Cell | null;
}

export interface NftCollectionData {
    /** -1 for collections whose items are not indexed sequentially. */
    nextItemIndex: bigint;
    content: Cell;
    owner: string | null;
}

/** TEP-74 `get_wallet_data` → (balance:int, owner:slice, master:slice, wallet_code:cell). */
export function decodeJettonWalletData(result: GetMethodResult): JettonWalletData | null {
    const s = stackOf(result, 4);
    if (!s) return null;
    const balance = int(s[0]);
    const owner = address(s[1]);
    const master = address(s[2]);
    const walletCode = cell(s[3]);
    if (balance === null || !owner || !master || !walletCode) return null;
    return { balance, owner, master, walletCode };
}

/** TEP-74 `get_jetton_data` → (total_supply:int, mintable:int, admin:slice, content:cell, wallet_code:cell). */
export function decodeJettonMasterData(result: GetMethodResult): JettonMasterData | null {
    const s = stackOf(result, 5);
    if (!s) return null;
    const totalSupply = int(s[0]);
    const mintable = int(s[1]);
    const admin = optionalAddress(s[2]);
    const content = cell(s[3]);
    const walletCode = cell(s[4]);
    if (totalSupply === null || mintable === null || admin === undefined || !content || !walletCode) return null;
    return { totalSupply, mintable: mintable !== 0n, admin, content, walletCode };
}

/** TEP-62 `get_nft_data` → (init?:int, index:int, collection:slice, owner:slice, content:cell). */
export function decodeNftItemData(result: GetMethodResult): NftItemData | null {
    const s = stackOf(result, 5);
    if (!s) return null;
    const initialized = int(s[0]);
    const index = int(s[1]);
    const collection = optionalAddress(s[2]);
    const owner = optionalAddress(s[3]);
    const content = s[4].type === 'null' ? null : cell(s[4]);
    if (initialized === null || index === null || collection === undefined || owner === undefined || content === undefined) {
        return null;
    }
    return { initialized: initialized !== 0n, index, collection, owner, content };
}

/** TEP-62 `get_collection_data` → (next_item_index:int, content:cell, owner:slice). */
export function decodeNftCollectionData(result: GetMethodResult): NftCollectionData | null {
    const s = stackOf(result, 3);
    if (!s) return null;
    const nextItemIndex = int(s[0]);
    const content = cell(s[1]);
    const owner = optionalAddress(s[2]);
    if (nextItemIndex === null || !content || owner === undefined) return null;
    return { nextItemIndex, content, owner };
}

/** TEP-74 `get_wallet_address(owner)` → (wallet:slice). */
export function decodeAddressResult(result: GetMethodResult): string | null {
    const s = stackOf(result, 1);
    return s ? address(s[0]) : null;
}

/** `get_public_key` → a 256-bit unsigned integer, as 64 hex characters. */
export function decodePublicKey(result: GetMethodResult): string | null {
    const s = stackOf(result, 1);
    const value = s ? int(s[0]) : null;
    if (value === null || value < 0n || value >= 1n << 256n) return null;
    return value.toString(16).padStart(64, '0');
}

/** An integer result in [0, 2^32) (seqno, subwallet id). */
export function decodeUint32(result: GetMethodResult): number | null {
    const s = stackOf(result, 1);
    const value = s ? int(s[0]) : null;
    if (value === null || value < 0n || value > 0xffffffffn) return null;
    return Number(value);
}

/**
 * A text slice (a .ton DNS item's `get_domain`, a Telegram item's `get_full_domain`) as text; null
 * unless it is a slice or cell of {@link cellText}.
 */
export function decodeTextSlice(result: GetMethodResult): string | null {
    const s = stackOf(result, 1);
    return s && (s[0].type === 'slice' || s[0].type === 'cell') ? cellText(s[0].cell) : null;
}

/**
 * The bytes of a cell and of its first-ref chain as UTF-8; null unless they are whole bytes, 1..255
 * of them, valid UTF-8 without control characters other than NUL (the DNS label separator).
 */
export function cellText(cell: Cell): string | null {
    const bytes: Buffer[] = [];
    let length = 0;
    for (let c: Cell | undefined = cell; c; c = c.refs[0]) {
        if (c.bits.length % 8 !== 0) return null;
        const chunk = c.beginParse().loadBuffer(c.bits.length / 8);
        length += chunk.length;
        if (length > 255) return null;
        bytes.push(chunk);
    }
    if (length === 0) return null;
    try {
        const decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(bytes));
        return /[\x01-\x1f\x7f]/.test(decoded) ? null : decoded;
    } catch {
        return null;
    }
}

export interface NftSaleData {
    /** 'sale' for a fixed-price sale ("FIXP"), 'auction' for an auction ("AUC"). */
    kind: 'sale' | 'auction';
    market: string;
    nft: string;
    /** The seller; null before the item arrives at the contract. */
    owner: string | null;
    /** The full price of a sale; an auction's last bid. */
    price: bigint;
}

const SALE_MAGIC = 0x46495850n; // "FIXP"
const AUCTION_MAGIC = 0x415543n; // "AUC"

/**
 * getgems `get_sale_data`: a fixed-price sale answers (0x46495850, is_complete, created_at, marketplace,
 * nft, owner, full_price, …fees and royalties); an auction (0x415543, end?, end_time, marketplace, nft,
 * owner, last_bid, …).
 */
export function decodeNftSaleData(result: GetMethodResult): NftSaleData | null {
    const s = stackOf(result, 7);
    if (!s) return null;
    const magic = int(s[0]);
    const kind = magic === SALE_MAGIC ? 'sale' : magic === AUCTION_MAGIC ? 'auction' : null;
    if (kind === null || s.length < (kind === 'sale' ? 11 : 14)) return null;
    const market = address(s[3]);
    const nft = address(s[4]);
    const owner = optionalAddress(s[5]);
    const price = int(s[6]);
    if (!market || !nft || owner === undefined || price === null || price < 0n) return null;
    return { kind, market, nft, owner, price };
}

export interface SubscriptionData {
    wallet: string;
    beneficiary: string;
    amount: bigint;
    period: bigint;
}

/**
 * Wallet v4 subscription plugin `get_subscription_data` → ([wc, hash] wallet, [wc, hash] beneficiary,
 * amount, period, start_time, timeout, last_payment_time, last_request_time, failed_attempts, subscription_id).
 */
export function decodeSubscriptionData(result: GetMethodResult): SubscriptionData | null {
    const s = stackOf(result, 10);
    if (!s) return null;
    const wallet = pairAddress(s[0]);
    const beneficiary = pairAddress(s[1]);
    const amount = int(s[2]);
    const period = int(s[3]);
    if (!wallet || !beneficiary || amount === null || amount < 0n || period === null || period <= 0n) return null;
    return { wallet, beneficiary, amount, period };
}

/**
 * Multisig v2 order `get_order_data` → (multisig_address:slice, order_seqno:int, threshold:int,
 * sent_for_execution:int, signers:cell, approvals_mask:int, approvals_num:int, expiration_date:int,
 * order:cell), the seven last all null before the order's init.
 */
export function decodeMultisigOrderData(result: GetMethodResult): MultisigOrderState | null {
    const s = stackOf(result, 9);
    if (!s || s.length !== 9) return null;
    const multisig = address(s[0]);
    const orderSeqno = int(s[1]);
    if (!multisig || orderSeqno === null || orderSeqno < 0n || orderSeqno >= 1n << 256n) return null;
    const rest = s.slice(2);
    if (rest.every(item => item.type === 'null')) return { multisig: Address.parseRaw(multisig), orderSeqno, params: null };
    const [threshold, sent, mask, count, expiration] = [rest[0], rest[1], rest[3], rest[4], rest[5]].map(int);
    const signers = cell(rest[2]);
    const order = cell(rest[6]);
    if (threshold === null || sent === null || mask === null || count === null || expiration === null || !signers || !order) return null;
    if (threshold < 0n || threshold > 255n || count < 0n || count > 255n || mask < 0n || mask >= 1n << 256n || expiration < 0n || expiration >= 1n << 48n) return null;
    try {
        const params = checkApprovals({
            threshold: Number(threshold), sentForExecution: sent !== 0n, signers: loadSigners(signers), approvalsMask: mask,
            approvalsNum: Number(count), expirationDate: Number(expiration), order, actions: loadMultisigOrderActions(order),
        });
        return { multisig: Address.parseRaw(multisig), orderSeqno, params };
    } catch {
        return null;
    }
}

export interface MultisigData {
    /** The next order's seqno; null when the multisig takes any (arbitrary-seqno mode answers −1). */
    nextOrderSeqno: bigint | null;
    threshold: number;
    signers: Address[];
    proposers: Address[];
}

/**
 * Multisig v2 `get_multisig_data` → (next_order_seqno:int (−1 in arbitrary-seqno mode),
 * threshold:int, signers:cell (non-empty Hashmap 8 MsgAddressInt, keys 0..n−1), proposers:cell|null).
 */
export function decodeMultisigData(result: GetMethodResult): MultisigData | null {
    const s = stackOf(result, 4);
    if (!s || s.length !== 4) return null;
    const next = int(s[0]);
    const threshold = int(s[1]);
    const signersRoot = cell(s[2]);
    if (next === null || next < -1n || next >= 1n << 256n || threshold === null || !signersRoot) return null;
    if (s[3].type !== 'null' && s[3].type !== 'cell') return null;
    try {
        const signers = keyedInOrder(loadSigners(signersRoot));
        const proposers = s[3].type === 'cell' ? keyedInOrder(loadSigners(s[3].cell)) : [];
        if (!signers || !proposers || threshold < 1n || threshold > BigInt(signers.length)) return null;
        return { nextOrderSeqno: next === -1n ? null : next, threshold: Number(threshold), signers, proposers };
    } catch {
        return null;
    }
}

/** A dictionary's values when its keys are exactly 0..n−1 (as a multisig keeps signers and proposers); null otherwise. */
function keyedInOrder(entries: Map<number, Address>): Address[] | null {
    const keys = [...entries.keys()];
    return keys.every((key, i) => key === i) ? [...entries.values()] : null;
}

/** A slice holding exactly one DeDust asset (a vault's `get_asset`, a pool's `get_assets`). */
export function isDedustAsset(item: TupleItem | undefined): boolean {
    if (!item || (item.type !== 'slice' && item.type !== 'cell')) return false;
    try {
        const slice = item.cell.beginParse();
        return loadDedustAsset(slice) !== undefined && slice.remainingBits === 0 && slice.remainingRefs === 0;
    } catch {
        return false;
    }
}

/** STON.fi v1 `get_pool_data` → (reserve0, reserve1, token0_wallet, token1_wallet, lp_fee, protocol_fee, ref_fee, protocol_fee_address, collected0, collected1). */
export function isStonfiPoolData(result: GetMethodResult): boolean {
    const s = stackOf(result, 10);
    if (!s || s.length !== 10) return false;
    return [0, 1, 4, 5, 6, 8, 9].every(i => int(s[i]) !== null) && address(s[2]) !== null && address(s[3]) !== null && optionalAddress(s[7]) !== undefined;
}

function pairAddress(item: TupleItem): string | null {
    if (item.type !== 'tuple' || item.items.length !== 2) return null;
    const [wc, hash] = item.items.map(int);
    if (wc === null || hash === null || wc < -128n || wc > 127n || hash < 0n || hash >= 1n << 256n) return null;
    return `${wc}:${hash.toString(16).padStart(64, '0')}`;
}

function stackOf(result: GetMethodResult, count: number): TupleItem[] | null {
    return result.ok && result.stack.length >= count ? result.stack : null;
}

function int(item: TupleItem): bigint | null {
    return item.type === 'int' ? item.value : null;
}

/** A cell value; undefined when the item is not a cell (callers treat it as a type error). */
function cell(item: TupleItem): Cell | undefined {
    return item.type === 'cell' ? item.cell : undefined;
}

/** A slice holding an internal address (addr_std/addr_var) → raw address; else null. */
function address(item: TupleItem): string | null {
    const value = optionalAddress(item);
    return value ?? null;
}

/**
 * A slice holding an internal address → raw address; `addr_none` or a null → null; anything
 * else (other types, external addresses, junk) → undefined.
 */
function optionalAddress(item: TupleItem): string | null | undefined {
    if (item.type === 'null') return null;
    if (item.type !== 'slice' && item.type !== 'cell' && item.type !== 'builder') return undefined;
    try {
        const parsed = item.cell.beginParse().loadAddressAny();
        if (parsed === null) return null;
        return Address.isAddress(parsed) ? formatRawAddress(parsed) : undefined;
    } catch {
        return undefined;
    }
}
