import { Address, Cell, Dictionary, beginCell, contractAddress, type DictionaryValue, type StateInit } from '@ton/core';
import { contractCode } from './artifacts.ts';
import { storeForwardPayload, storeQueryId, type ForwardPayload } from './payload.ts';
import { DictKeys } from '../../../ton/cells/dict-keys.ts';

/**
 * The devnet's NFTs (contracts/nft-collection.tolk, contracts/nft-item.tolk): TEP-62 collection and
 * item, TEP-66 royalty, TEP-64 content. Data layouts, addresses and message bodies.
 */

export const NFT_OP = {
    transfer: 0x5fcc3d14,
    ownershipAssigned: 0x05138d91,
    excesses: 0xd53276db,
    getStaticData: 0x2fcb26a2,
    reportStaticData: 0x8b771735,
    getRoyaltyParams: 0x693d3950,
    reportRoyaltyParams: 0xa8cb00ad,
    /** deploy_nft_item#00000001 query_id:uint64 item_index:uint64 amount:Coins item_init:^(owner:MsgAddressInt content:^Cell) */
    deployItem: 0x00000001,
    /** batch_deploy#00000002 query_id:uint64 items:(HashmapE 64 (amount:Coins item_init:^Cell)) */
    batchDeploy: 0x00000002,
    /** change_owner#00000003 query_id:uint64 new_owner:MsgAddressInt */
    changeOwner: 0x00000003,
} as const;

/** Compute-phase exit codes of the NFT contracts (contracts/common/errors.tolk). */
export const NFT_EXIT = {
    unknownOp: 0xffff,
    notCollectionOwner: 801,
    notItemOwner: 802,
    notFromCollection: 803,
    notEnoughTon: 804,
    indexOutOfRange: 805,
    batchTooLarge: 806,
    invalidPayload: 807,
} as const;

/** TON to attach, measured on the devnet's TVM and rounded up; forward_amount comes on top. */
export const NFT_TON = {
    /** amount of a deploy: stays on the item (its storage reserve) after paying its first transaction. */
    itemDeployAmount: 50_000_000n,
    /** To the collection with a deploy (per item), on top of amount: the collection's gas and forwarding. */
    deployOverhead: 20_000_000n,
    /** To the item with a transfer. */
    transfer: 20_000_000n,
} as const;

/** Item indexes the collection accepts in one batch deploy. */
export const NFT_MAX_BATCH_DEPLOY = 250;

export function nftCollectionCode(): Cell {
    return contractCode('nft-collection');
}

export function nftItemCode(): Cell {
    return contractCode('nft-item');
}

export interface NftRoyalty {
    numerator: number;
    denominator: number;
    destination: Address;
}

export interface NftCollectionConfig {
    owner: Address;
    nextItemIndex?: bigint;
    /** The collection's own TEP-64 content. */
    collectionContent: Cell;
    /** URI prefix of items' off-chain suffixes (metadata.ts nftCommonContent). */
    commonContent: Cell;
    /** Defaults to no royalty (0/1000) paid to the owner. */
    royalty?: NftRoyalty;
}

/** owner:MsgAddressInt next_item_index:uint64 ^(collection_content:^Cell common_content:^Cell) item_code:^Cell ^royalty */
export function nftCollectionData(config: NftCollectionConfig): Cell {
    const royalty = config.royalty ?? { numerator: 0, denominator: 1000, destination: config.owner };
    return beginCell()
        .storeAddress(config.owner)
        .storeUint(config.nextItemIndex ?? 0n, 64)
        .storeRef(beginCell().storeRef(config.collectionContent).storeRef(config.commonContent).endCell())
        .storeRef(nftItemCode())
        .storeRef(beginCell().storeUint(royalty.numerator, 16).storeUint(royalty.denominator, 16).storeAddress(royalty.destination).endCell())
        .endCell();
}

export function nftCollectionStateInit(config: NftCollectionConfig): StateInit {
    return { code: nftCollectionCode(), data: nftCollectionData(config) };
}

export function nftCollectionAddress(config: NftCollectionConfig, workchain = 0): Address {
    return contractAddress(workchain, nftCollectionStateInit(config));
}

/** An item's initial data: index:uint64 collection:MsgAddressInt. */
export function nftItemData(index: bigint, collection: Address): Cell {
    return beginCell().storeUint(index, 64).storeAddress(collection).endCell();
}

export function nftItemStateInit(index: bigint, collection: Address): StateInit {
    return { code: nftItemCode(), data: nftItemData(index, collection) };
}

/** Item `index` of `collection` (a basechain address); what get_nft_address_by_index returns. */
export function nftItemAddress(index: bigint, collection: Address): Address {
    return contractAddress(0, nftItemStateInit(index, collection));
}

/** The collection → item first message: owner:MsgAddressInt content:^Cell. */
export function nftItemInit(owner: Address, content: Cell): Cell {
    return beginCell().storeAddress(owner).storeRef(content).endCell();
}

export interface NftDeployItemParams {
    queryId?: bigint;
    index: bigint;
    owner: Address;
    /** Individual content: an off-chain suffix (metadata.ts nftOffchainSuffix) or full TEP-64 content. */
    content: Cell;
    /** TON the collection sends to the item; defaults to NFT_TON.itemDeployAmount. */
    amount?: bigint;
}

/** deploy_nft_item#00000001 (collection owner only). */
export function nftDeployItemBody(p: NftDeployItemParams): Cell {
    const b = beginCell().storeUint(NFT_OP.deployItem, 32);
    return storeQueryId(b, p.queryId)
        .storeUint(p.index, 64)
        .storeCoins(p.amount ?? NFT_TON.itemDeployAmount)
        .storeRef(nftItemInit(p.owner, p.content))
        .endCell();
}

interface BatchItem {
    amount: bigint;
    init: Cell;
}

const batchItemValue: DictionaryValue<BatchItem> = {
    serialize: (item, b) => {
        b.storeCoins(item.amount).storeRef(item.init);
    },
    parse: s => ({ amount: s.loadCoins(), init: s.loadRef() }),
};

/** batch_deploy#00000002 (collection owner only): items deployed in index order. */
export function nftBatchDeployBody(p: { queryId?: bigint; items: Array<Omit<NftDeployItemParams, 'queryId'>> }): Cell {
    if (p.items.length === 0 || p.items.length > NFT_MAX_BATCH_DEPLOY) throw new Error(`batch deploy of ${p.items.length} items; 1..${NFT_MAX_BATCH_DEPLOY}`);
    const dict = Dictionary.empty(DictKeys.BigUint(64), batchItemValue);
    for (const item of p.items) dict.set(item.index, { amount: item.amount ?? NFT_TON.itemDeployAmount, init: nftItemInit(item.owner, item.content) });
    const b = beginCell().storeUint(NFT_OP.batchDeploy, 32);
    return storeQueryId(b, p.queryId).storeDict(dict).endCell();
}

export interface NftTransferParams {
    queryId?: bigint;
    newOwner: Address;
    responseDestination?: Address | null;
    customPayload?: Cell | null;
    forwardAmount?: bigint;
    forwardPayload?: ForwardPayload | Cell | null;
}

/** transfer#5fcc3d14, to send (from the owner) to the item. */
export function nftTransferBody(p: NftTransferParams): Cell {
    const b = beginCell().storeUint(NFT_OP.transfer, 32);
    storeQueryId(b, p.queryId)
        .storeAddress(p.newOwner)
        .storeAddress(p.responseDestination ?? null)
        .storeMaybeRef(p.customPayload ?? null)
        .storeCoins(p.forwardAmount ?? 0n);
    return storeForwardPayload(b, p.forwardPayload).endCell();
}

/** get_static_data#2fcb26a2, answered by report_static_data#8b771735. */
export function nftGetStaticDataBody(queryId?: bigint): Cell {
    return storeQueryId(beginCell().storeUint(NFT_OP.getStaticData, 32), queryId).endCell();
}

/** get_royalty_params#693d3950 (TEP-66), answered by report_royalty_params#a8cb00ad. */
export function nftGetRoyaltyParamsBody(queryId?: bigint): Cell {
    return storeQueryId(beginCell().storeUint(NFT_OP.getRoyaltyParams, 32), queryId).endCell();
}
