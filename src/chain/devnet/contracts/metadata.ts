import { createHash } from 'node:crypto';
import { Builder, Cell, Dictionary, beginCell } from '@ton/core';
import { DictKeys } from '../../../ton/cells/dict-keys.ts';

/**
 * TEP-64 token data, as the devnet's jettons and NFTs carry it:
 *   onchain#00 data:(HashmapE 256 ^ContentData)   keys sha256(attribute name), values snake#00 text
 *   offchain#01 uri:Text                          the URI as snake text after the 0x01 byte
 */

/** Attributes of TEP-64 (jettons and NFTs); any other string key is stored the same way. */
export interface TokenMetadata {
    name?: string;
    symbol?: string;
    /** Jettons only; TEP-64 stores it as the decimal digits ("9"). */
    decimals?: number | string;
    description?: string;
    image?: string;
    /** Semi-chain layout: on-chain attributes plus the URI of a JSON document. */
    uri?: string;
    [attribute: string]: string | number | undefined;
}

const CELL_BYTES = 127;

/**
 * Snake text (TEP-64 SnakeData): the bytes after `prefix` fill the first cell, then each next cell
 * hangs as the only ref of the previous one, 127 bytes per cell.
 */
export function snakeCell(data: Buffer | string, prefix: Buffer = Buffer.alloc(0)): Cell {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const firstRoom = CELL_BYTES - prefix.length;
    if (firstRoom < 0) throw new Error('snake prefix longer than a cell');
    const chunks: Buffer[] = [bytes.subarray(0, firstRoom)];
    for (let at = firstRoom; at < bytes.length; at += CELL_BYTES) chunks.push(bytes.subarray(at, at + CELL_BYTES));
    let tail: Cell | null = null;
    for (let i = chunks.length - 1; i >= 0; i--) {
        const b: Builder = beginCell();
        if (i === 0) b.storeBuffer(prefix);
        b.storeBuffer(chunks[i]);
        if (tail) b.storeRef(tail);
        tail = b.endCell();
    }
    return tail!;
}

/** The dictionary key of a TEP-64 attribute: sha256 of its name, as an unsigned 256-bit integer. */
export function metadataKey(attribute: string): bigint {
    return BigInt(`0x${createHash('sha256').update(attribute, 'utf8').digest('hex')}`);
}

/** `onchain#00` content: every defined attribute as `snake#00` text under sha256(name). */
export function onchainContent(metadata: TokenMetadata): Cell {
    const dict = Dictionary.empty(DictKeys.BigUint(256), Dictionary.Values.Cell());
    for (const [attribute, value] of Object.entries(metadata)) {
        if (value === undefined) continue;
        dict.set(metadataKey(attribute), snakeCell(String(value), Buffer.from([0x00])));
    }
    return beginCell().storeUint(0x00, 8).storeDict(dict).endCell();
}

/** `offchain#01` content: the URI of a JSON document holding the metadata. */
export function offchainContent(uri: string): Cell {
    return snakeCell(uri, Buffer.from([0x01]));
}

/**
 * An NFT collection's common content: the URI prefix items' off-chain suffixes are relative to.
 * The collection's get_nft_content puts it in one cell after the 0x01 byte, so it must fit in 126 bytes.
 */
export function nftCommonContent(uriPrefix: string): Cell {
    const bytes = Buffer.from(uriPrefix, 'utf8');
    if (bytes.length > CELL_BYTES - 1) throw new Error(`common content prefix of ${bytes.length} bytes; at most ${CELL_BYTES - 1} fit`);
    return beginCell().storeBuffer(bytes).endCell();
}

/** An item's individual off-chain content: the URI suffix (plain snake text, no layout byte). */
export function nftOffchainSuffix(suffix: string): Cell {
    const bytes = Buffer.from(suffix, 'utf8');
    if (bytes[0] === 0x00 || bytes[0] === 0x01) throw new Error('an off-chain suffix cannot start with byte 0x00 or 0x01 (they mark full TEP-64 content)');
    return snakeCell(bytes);
}
