import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Real mainnet data (`../shared/fixtures/mainnet` beside the clone: blocks with their expected
 * decodings, a config, wallet messages). It is data this project was given, not shipped with it:
 * the tests that read it skip, saying so, when it is absent (a user's clone); under CI=true its
 * absence fails the run.
 */
export const MAINNET_DIR = fileURLToPath(new URL('../../../shared/fixtures/mainnet/', import.meta.url));
export const MAINNET_BLOCKS_DIR = `${MAINNET_DIR}blocks/`;
export const MAINNET_AVAILABLE = existsSync(MAINNET_BLOCKS_DIR);
if (!MAINNET_AVAILABLE && process.env.CI === 'true') throw new Error(`CI needs the mainnet fixtures beside the clone: ${MAINNET_DIR} is missing`);

/** The `skip` option of tests that read the mainnet fixtures. */
export const mainnetSkip: string | false = MAINNET_AVAILABLE ? false : `the mainnet fixtures are not beside this clone (${MAINNET_DIR}): skipped`;

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

/** A file of the mainnet fixtures, by its path below `fixtures/mainnet/`. */
export function mainnetFile(path: string): string {
    return `${MAINNET_DIR}${path}`;
}
