import { createHash } from 'node:crypto';
import { Dictionary, type Cell, type Slice } from '@ton/core';
import { DictKeys } from '../cells/dict-keys.ts';

/**
 * TEP-64 token data: `onchain#00 data:(HashmapE 256 ^ContentData)` with keys sha256(attribute
 * name), or `offchain#01 uri:Text` (snake). ContentData is `snake#00 data:(SnakeData ~n)` or
 * `chunks#01 data:ChunkedData`. Semi-chain content (on-chain dict with a `uri` key) has both.
 */
export interface TokenContent {
    /** Attributes found on chain, decoded as UTF-8 text. */
    onchain: Record<string, string>;
    /** Where the off-chain document lives, from `offchain#01` or the on-chain `uri` attribute. */
    uri?: string;
}

export const TOKEN_ATTRIBUTES = ['uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type', 'social', 'websites', 'lottie'] as const;

const KEY_OF = new Map(TOKEN_ATTRIBUTES.map(name => [createHash('sha256').update(name).digest().toString('hex'), name]));

export function parseTokenContent(content: Cell): TokenContent {
    const slice = content.beginParse();
    if (slice.remainingBits < 8) return { onchain: {} };
    const layout = slice.loadUint(8);
    if (layout === 0x01) return { onchain: {}, uri: readSnakeText(slice) };
    if (layout !== 0x00) return { onchain: {} };
    const onchain: Record<string, string> = {};
    const dict = slice.loadDict(DictKeys.Buffer(32), Dictionary.Values.Cell());
    for (const [key, value] of dict) {
        const name = KEY_OF.get(key.toString('hex'));
        if (!name) continue;
        const text = readContentData(value);
        if (text !== undefined) onchain[name] = text;
    }
    return { onchain, uri: onchain.uri };
}

function readContentData(cell: Cell): string | undefined {
    const slice = cell.beginParse();
    if (slice.remainingBits < 8) return undefined;
    const kind = slice.loadUint(8);
    if (kind === 0x00) return readSnakeText(slice);
    if (kind === 0x01) {
        // chunked_data#_ data:(HashmapE 32 ^(SnakeData ~0)): chunks in key order.
        const chunks = slice.loadDict(DictKeys.Uint(32), Dictionary.Values.Cell());
        return [...chunks].sort(([a], [b]) => a - b).map(([, chunk]) => readSnakeText(chunk.beginParse())).join('');
    }
    return undefined;
}

/** Bytes of the slice and of the chain of first refs after it, as UTF-8. */
function readSnakeText(slice: Slice): string {
    const parts: Buffer[] = [];
    let current: Slice | null = slice;
    while (current) {
        parts.push(current.loadBuffer(Math.floor(current.remainingBits / 8)));
        current = current.remainingRefs > 0 ? current.loadRef().beginParse() : null;
    }
    return Buffer.concat(parts).toString('utf8');
}
