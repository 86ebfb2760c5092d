import { InputFormatError } from './input.ts';

export interface BlockId {
    workchain: number;
    /** 64-bit shard id as 16 lowercase hex digits, e.g. `8000000000000000`. */
    shard: string;
    seqno: number;
}

export interface BlockIdExt extends BlockId {
    /** 64 lowercase hex digits. */
    rootHash: string;
    fileHash: string;
}

/** `(workchain,shard,seqno)` with the shard as 16 hex digits, as the API writes block ids. */
export function formatBlockId(id: BlockId): string {
    return `(${id.workchain},${id.shard},${id.seqno})`;
}

const BLOCK_ID = /^\((-?\d{1,10}),([0-9a-fA-F]{16}),(\d{1,10})\)$/;

export function parseBlockId(input: string): BlockId {
    const match = BLOCK_ID.exec(input.trim());
    if (!match) throw new InputFormatError(`block id '${input}' must look like (workchain,shard as 16 hex digits,seqno), e.g. (0,8000000000000000,42)`);
    const seqno = Number(match[3]);
    if (seqno > 0xffffffff) throw new InputFormatError(`block id '${input}': seqno out of range`);
    return { workchain: Number(match[1]), shard: match[2].toLowerCase(), seqno };
}
