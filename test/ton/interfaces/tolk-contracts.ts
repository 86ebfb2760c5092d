import { type Address, type Cell, beginCell } from '@ton/core';
import { compileTolk } from './helpers.ts';

/**
 * Minimal contracts, written here in Tolk and compiled at test time with @ton/tolk-js, that answer
 * the standard get-methods from their data cell exactly as TEP-74/TEP-62 contracts do (same
 * result types), plus a "liar" whose get-methods have the standard ids but not the standard types.
 */
/** Data (index, collection, owner, ^name) and get_nft_data of the named items below. */
const NAMED_ITEM_HEAD = `tolk 1.3

struct Storage {
    index: uint256
    collection: address
    owner: address
    name: cell
}

fun onInternalMessage(in: InMessage) {
}

get fun get_nft_data(): (bool, int, address, address, cell) {
    val st = Storage.fromCell(contract.getData());
    return (true, st.index, st.collection, st.owner, beginCell().endCell());
}
`;

/** Data of the protocol stand-ins: (market, nft, owner, amount). */
const PROTOCOL_HEAD = `tolk 1.3

struct Storage {
    market: address
    nft: address
    owner: address
    amount: coins
}

fun onInternalMessage(in: InMessage) {
}
`;

const SOURCES = {
    jettonWallet: `tolk 1.3

struct Storage {
    balance: coins
    owner: address
    master: address
    walletCode: cell
}

fun onInternalMessage(in: InMessage) {
}

get fun get_wallet_data(): Storage {
    return Storage.fromCell(contract.getData());
}
`,
    jettonMaster: `tolk 1.3

struct Storage {
    totalSupply: coins
    admin: address?
    content: cell
    walletCode: cell
}

fun onInternalMessage(in: InMessage) {
}

get fun get_jetton_data(): (int, bool, any_address, cell, cell) {
    val st = Storage.fromCell(contract.getData());
    val admin: any_address = st.admin != null ? st.admin! as any_address : createAddressNone();
    return (st.totalSupply, st.admin != null, admin, st.content, st.walletCode);
}

// not a real derivation: the tests only check that the answer is read back
get fun get_wallet_address(owner: address): address {
    return owner;
}
`,
    nftItem: `tolk 1.3

struct Storage {
    initialized: bool
    index: uint64
    collection: address
    owner: address
    content: cell?
}

fun onInternalMessage(in: InMessage) {
}

get fun get_nft_data(): (bool, int, address, any_address, cell?) {
    val st = Storage.fromCell(contract.getData());
    if (!st.initialized) {
        return (false, st.index, st.collection, createAddressNone(), null);
    }
    return (true, st.index, st.collection, st.owner as any_address, st.content);
}
`,
    // An NFT item with a name, answering as .ton DNS items (get_domain: the label) and Telegram's
    // items (get_full_domain: labels reversed, NUL-terminated) do; both read the same data cell.
    namedItem: `${NAMED_ITEM_HEAD}
get fun get_domain(): slice {
    return Storage.fromCell(contract.getData()).name.beginParse();
}
`,
    telegramItem: `${NAMED_ITEM_HEAD}
get fun get_full_domain(): slice {
    return Storage.fromCell(contract.getData()).name.beginParse();
}
`,
    // Protocol contracts as tongo's inspector knows them: each answers its get-methods with the
    // layout of the real contract, from a data cell of (market, nft, owner, amount).
    getgemsSale: `${PROTOCOL_HEAD}
get fun get_sale_data(): (int, int, int, address, address, address, int, address, int, address, int) {
    val st = Storage.fromCell(contract.getData());
    return (0x46495850, 0, 1700000000, st.market, st.nft, st.owner, st.amount, st.market, 1000, st.owner, 500);
}
`,
    getgemsAuction: `${PROTOCOL_HEAD}
get fun get_sale_data(): (int, int, int, address, address, address, int, address, int, address, int, int, address, int) {
    val st = Storage.fromCell(contract.getData());
    return (0x415543, 0, 1700000000, st.market, st.nft, st.owner, st.amount, st.market, 100, st.market, 5, 100, st.owner, 10);
}
`,
    subscriptionPlugin: `${PROTOCOL_HEAD}
get fun get_subscription_data(): ([int, int], [int, int], int, int, int, int, int, int, int, int) {
    val st = Storage.fromCell(contract.getData());
    val (wc1, h1) = st.nft.getWorkchainAndHash();
    val (wc2, h2) = st.owner.getWorkchainAndHash();
    return ([wc1, h1], [wc2, h2], st.amount, 2592000, 1700000000, 3600, 0, 0, 0, 7);
}
`,
    dedustVault: `${PROTOCOL_HEAD}
get fun get_asset(): slice {
    val (wc, hash) = Storage.fromCell(contract.getData()).nft.getWorkchainAndHash();
    return beginCell().storeUint(1, 4).storeInt(wc, 8).storeUint(hash, 256).endCell().beginParse();
}
`,
    stonfiPool: `${PROTOCOL_HEAD}
get fun get_pool_data(): (int, int, address, address, int, int, int, address, int, int) {
    val st = Storage.fromCell(contract.getData());
    return (st.amount, 2 * st.amount, st.nft, st.owner, 20, 10, 10, st.market, 0, 0);
}
`,
    nftCollection: `tolk 1.3

struct Storage {
    nextItemIndex: int64
    content: cell
    owner: address
}

fun onInternalMessage(in: InMessage) {
}

get fun get_collection_data(): Storage {
    return Storage.fromCell(contract.getData());
}
`,
    keyedWallet: `tolk 1.3

struct Storage {
    seqno: uint32
    subwalletId: uint32
    publicKey: uint256
}

fun onInternalMessage(in: InMessage) {
}

get fun seqno(): int {
    return Storage.fromCell(contract.getData()).seqno;
}

get fun get_subwallet_id(): int {
    return Storage.fromCell(contract.getData()).subwalletId;
}

get fun get_public_key(): int {
    return Storage.fromCell(contract.getData()).publicKey;
}
`,
    liar: `tolk 1.3

fun onInternalMessage(in: InMessage) {
}

get fun get_wallet_data(): (int, int, int, int) {
    return (1, 2, 3, 4);
}

get fun get_jetton_data(): int {
    throw 1000;
}

get fun get_nft_data(): (int, int, int) {
    return (1, 2, 3);
}

get fun get_collection_data(): (int, cell, int) {
    return (1, beginCell().endCell(), 5);
}

get fun get_public_key(): int {
    return -5;
}
`,
} as const;

export type TolkContractName = keyof typeof SOURCES;

let compiled: Promise<Record<TolkContractName, Cell>> | undefined;

export function tolkContracts(): Promise<Record<TolkContractName, Cell>> {
    compiled ??= (async () => {
        const out: Partial<Record<TolkContractName, Cell>> = {};
        for (const name of Object.keys(SOURCES) as TolkContractName[]) out[name] = await compileTolk(SOURCES[name]);
        return out as Record<TolkContractName, Cell>;
    })();
    return compiled;
}

export function jettonWalletData(balance: bigint, owner: Address, master: Address, walletCode: Cell): Cell {
    return beginCell().storeCoins(balance).storeAddress(owner).storeAddress(master).storeRef(walletCode).endCell();
}

export function jettonMasterData(totalSupply: bigint, admin: Address | null, content: Cell, walletCode: Cell): Cell {
    return beginCell().storeCoins(totalSupply).storeAddress(admin).storeRef(content).storeRef(walletCode).endCell();
}

export function nftItemData(item: { initialized: boolean; index: bigint; collection: Address; owner: Address; content: Cell | null }): Cell {
    return beginCell()
        .storeBit(item.initialized)
        .storeUint(item.index, 64)
        .storeAddress(item.collection)
        .storeAddress(item.owner)
        .storeMaybeRef(item.content)
        .endCell();
}

/** Data of `namedItem` / `telegramItem`: the name cell holds the bytes get_domain / get_full_domain return. */
export function namedItemData(index: bigint, collection: Address, owner: Address, name: Cell): Cell {
    return beginCell().storeUint(index, 256).storeAddress(collection).storeAddress(owner).storeRef(name).endCell();
}

/** Data of the protocol stand-ins (getgemsSale … stonfiPool). */
export function protocolData(market: Address, nft: Address, owner: Address, amount: bigint): Cell {
    return beginCell().storeAddress(market).storeAddress(nft).storeAddress(owner).storeCoins(amount).endCell();
}

export function nftCollectionData(nextItemIndex: bigint, content: Cell, owner: Address): Cell {
    return beginCell().storeInt(nextItemIndex, 64).storeRef(content).storeAddress(owner).endCell();
}

export function keyedWalletData(seqno: number, subwalletId: number, publicKey: Buffer): Cell {
    return beginCell().storeUint(seqno, 32).storeUint(subwalletId, 32).storeBuffer(publicKey, 32).endCell();
}
