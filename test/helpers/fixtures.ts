import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Real mainnet data (test/fixtures/mainnet, kept as it was taken from the chain). */
export const MAINNET_BLOCKS_DIR = fileURLToPath(new URL('../fixtures/mainnet/blocks/', import.meta.url));
export const FIXTURE_BLOCKS = ['block-1', 'block-2', 'block-4', 'block-5', 'block-6'] as const;

export interface BlockSummary {
    workchain: number;
    shard: string;
    seqno: number;
    utime: number;
    master: boolean;
    key_block: boolean;
    start_lt: string;
    end_lt: string;
    root_hash: string;
    tx_quantity: number;
    transactions: Array<{ account: string; lt: string; hash: string }>;
}

export function blockFile(name: string): string {
    return `${MAINNET_BLOCKS_DIR}${name}.boc`;
}

export function readBlockBoc(name: string): Buffer {
    return readFileSync(blockFile(name));
}

export function readSummary(name: string): BlockSummary {
    return JSON.parse(readFileSync(`${MAINNET_BLOCKS_DIR}${name}.summary.json`, 'utf8')) as BlockSummary;
}
