import { createHash } from 'node:crypto';
import { Address, Cell, beginCell, contractAddress, type StateInit } from '@ton/core';
import { contractCode } from './artifacts.ts';
import { onchainContent, type TokenMetadata } from './metadata.ts';
import { storeQueryId } from './payload.ts';

/**
 * The devnet's .ton-style DNS (contracts/dns-collection.tolk, contracts/dns-item.tolk): a TEP-62
 * collection whose items are domains with TEP-81 records, laid out like mainnet's .ton DNS, without
 * auctions (the collection's owner registers domains). Data layouts, addresses and message bodies.
 * Items transfer with nft.ts's nftTransferBody and answer nftGetStaticDataBody.
 */

export const DNS_OP = {
    transfer: 0x5fcc3d14,
    ownershipAssigned: 0x05138d91,
    excesses: 0xd53276db,
    getStaticData: 0x2fcb26a2,
    reportStaticData: 0x8b771735,
    /** change_dns_record#4eb1f0f9 query_id:uint64 key:uint256, then the value as a reference (none: delete) */
    changeDnsRecord: 0x4eb1f0f9,
    /** register_domain#7ddef316 query_id:uint64 domain:^Cell owner:MsgAddressInt amount:Coins content:^Cell */
    registerDomain: 0x7ddef316,
} as const;

/** Compute-phase exit codes of the DNS contracts (contracts/common/errors.tolk). */
export const DNS_EXIT = {
    unknownOp: 0xffff,
    notRegistrar: 1001,
    invalidDomain: 1002,
    contentNotOnchain: 1003,
    notDomainOwner: 1004,
    notFromCollection: 1005,
    notEnoughTon: 1006,
    invalidPayload: 1007,
    domainTaken: 1008,
    /** dnsresolve (get-method) given a subdomain that is not whole bytes / (item) not starting with a zero byte. */
    badSubdomain: 1009,
} as const;

/** TON to attach, measured on the devnet's TVM and rounded up; forward_amount comes on top of a transfer. */
export const DNS_TON = {
    /** amount of a registration: stays on the item (its storage reserve) after paying its first transaction. */
    registerAmount: 100_000_000n,
    /** To the collection with a registration, on top of amount: its gas and forwarding the StateInit. */
    registerOverhead: 20_000_000n,
    /** To the item with a transfer. */
    transfer: 20_000_000n,
    /** To the item with change_dns_record or a renewal (stays on the item, as on mainnet). */
    changeRecord: 20_000_000n,
} as const;

/** Longest domain the collection registers, in bytes. */
export const DNS_MAX_DOMAIN_BYTES = 126;

function category(name: string): bigint {
    return BigInt(`0x${createHash('sha256').update(name, 'utf8').digest('hex')}`);
}

/** TEP-81 record categories: sha256 of their names. */
export const DNS_CATEGORY = {
    wallet: category('wallet'),
    site: category('site'),
    storage: category('storage'),
    nextResolver: category('dns_next_resolver'),
} as const;

export function dnsCollectionCode(): Cell {
    return contractCode('dns-collection');
}

export function dnsItemCode(): Cell {
    return contractCode('dns-item');
}

export interface DnsCollectionConfig {
    /** The registrar: the only one who registers domains. */
    owner: Address;
    /** The collection's own TEP-64 content. */
    collectionContent: Cell;
    /** URI prefix of off-chain suffixes in get_nft_content (items carry on-chain content; defaults to empty). */
    commonContent?: Cell;
}

/** owner:MsgAddressInt collection_content:^Cell common_content:^Cell item_code:^Cell */
export function dnsCollectionData(config: DnsCollectionConfig): Cell {
    return beginCell()
        .storeAddress(config.owner)
        .storeRef(config.collectionContent)
        .storeRef(config.commonContent ?? Cell.EMPTY)
        .storeRef(dnsItemCode())
        .endCell();
}

export function dnsCollectionStateInit(config: DnsCollectionConfig): StateInit {
    return { code: dnsCollectionCode(), data: dnsCollectionData(config) };
}

export function dnsCollectionAddress(config: DnsCollectionConfig, workchain = 0): Address {
    return contractAddress(workchain, dnsCollectionStateInit(config));
}

/** What the collection registers: 1..126 bytes of [a-z0-9-], no '-' first or last. */
export function isValidDnsDomain(domain: string): boolean {
    return domain.length <= DNS_MAX_DOMAIN_BYTES && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(domain);
}

/** The domain cell items hold and get_domain returns: its bytes ("alice", no ".ton"), in one cell without refs. */
export function dnsDomainCell(domain: string): Cell {
    const bytes = Buffer.from(domain, 'utf8');
    if (bytes.length > DNS_MAX_DOMAIN_BYTES) throw new Error(`domain of ${bytes.length} bytes; at most ${DNS_MAX_DOMAIN_BYTES}`);
    return beginCell().storeBuffer(bytes).endCell();
}

/**
 * A domain's item index, as mainnet's .ton root computes it (slice_hash of the domain's bytes):
 * the representation hash of the one cell holding those bytes, as an unsigned 256-bit integer.
 * Not sha256 of the bare bytes: the cell hash also covers the cell's two descriptor bytes.
 */
export function dnsItemIndex(domain: string): bigint {
    return BigInt(`0x${dnsDomainCell(domain).hash().toString('hex')}`);
}

/** An item's initial data: index:uint256 collection:MsgAddressInt. */
export function dnsItemData(index: bigint, collection: Address): Cell {
    return beginCell().storeUint(index, 256).storeAddress(collection).endCell();
}

export function dnsItemStateInit(collection: Address, domain: string): StateInit {
    return { code: dnsItemCode(), data: dnsItemData(dnsItemIndex(domain), collection) };
}

/** The item of `domain` in `collection` (a basechain address): what the collection's dnsresolve points at. */
export function dnsItemAddress(collection: Address, domain: string): Address {
    return contractAddress(0, dnsItemStateInit(collection, domain));
}

/**
 * An item's TEP-64 on-chain content, like mainnet's: name "<domain>.ton", a description, and an
 * image if given; `extra` adds attributes. The item keeps its DNS records in the same dictionary.
 */
export function dnsItemContent(domain: string, extra: TokenMetadata = {}): Cell {
    return onchainContent({ name: `${domain}.ton`, description: 'A .ton domain of the devnet', ...extra });
}

export interface RegisterDomainParams {
    queryId?: bigint;
    /** The domain ("alice", no ".ton"), or any cell in its place. */
    domain: string | Cell;
    owner: Address;
    /** TON the collection sends to the item; defaults to DNS_TON.registerAmount. */
    amount?: bigint;
    /** TEP-64 on-chain content (0x00 layout); defaults to dnsItemContent(domain) (empty for a Cell domain). */
    content?: Cell;
}

/**
 * register_domain#7ddef316 (collection owner only). The domain is not validated here (the collection
 * refuses invalid ones with DNS_EXIT.invalidDomain); check it with isValidDnsDomain first.
 */
export function registerDomainBody(p: RegisterDomainParams): Cell {
    const b = beginCell().storeUint(DNS_OP.registerDomain, 32);
    return storeQueryId(b, p.queryId)
        .storeRef(typeof p.domain === 'string' ? dnsDomainCell(p.domain) : p.domain)
        .storeAddress(p.owner)
        .storeCoins(p.amount ?? DNS_TON.registerAmount)
        .storeRef(p.content ?? (typeof p.domain === 'string' ? dnsItemContent(p.domain) : onchainContent({})))
        .endCell();
}

/** change_dns_record#4eb1f0f9 (domain owner only): sets record `key` to `value`, or deletes it without a value. */
export function changeDnsRecordBody(key: bigint, value?: Cell | null, queryId?: bigint): Cell {
    const b = storeQueryId(beginCell().storeUint(DNS_OP.changeDnsRecord, 32), queryId).storeUint(key, 256);
    if (value) b.storeRef(value);
    return b.endCell();
}

/** A renewal as on mainnet: change_dns_record with key 0 and no value (32 + 64 + 256 bits, no refs). */
export function renewDomainBody(queryId?: bigint): Cell {
    return changeDnsRecordBody(0n, null, queryId);
}

/** TEP-81 `dns_smc_address#9fd3 smc_addr:MsgAddressInt flags:(## 8)`: the "wallet" record (flags 0, no capabilities). */
export function dnsWalletRecord(wallet: Address): Cell {
    return beginCell().storeUint(0x9fd3, 16).storeAddress(wallet).storeUint(0, 8).endCell();
}

/** The resolver address of a dns_next_resolver record, or null when the cell is something else. */
export function loadDnsNextResolver(record: Cell): Address | null {
    const s = record.beginParse();
    if (s.remainingBits < 16 || s.loadUint(16) !== 0xba93) return null;
    try {
        return s.loadAddress();
    } catch {
        return null;
    }
}
