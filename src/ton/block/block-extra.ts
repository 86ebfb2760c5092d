import type { Cell, Slice } from '@ton/core';
import { loadMcBlockExtra, type McBlockExtra } from './mc-block-extra.ts';
import { loadShardAccountBlocks, type ShardAccountBlocks } from './shard-account-blocks.ts';

// block_extra#4a33f6fd in_msg_descr:^InMsgDescr
//   out_msg_descr:^OutMsgDescr
//   account_blocks:^ShardAccountBlocks
//   rand_seed:bits256
//   created_by:bits256
//   custom:(Maybe ^McBlockExtra) = BlockExtra;

export interface BlockExtra {
    /** InMsgDescr (HashmapAugE 256 InMsg ImportFees), not decoded. */
    inMsgDescr: Cell;
    /** OutMsgDescr (HashmapAugE 256 OutMsg CurrencyCollection), not decoded. */
    outMsgDescr: Cell;
    accountBlocks: ShardAccountBlocks;
    randSeed: Buffer;
    createdBy: Buffer;
    /** Masterchain blocks only. */
    custom?: McBlockExtra;
}

export function loadBlockExtra(slice: Slice): BlockExtra {
    if (slice.loadUint(32) !== 0x4a33f6fd) {
        throw new Error('Invalid BlockExtra tag');
    }
    const inMsgDescr = slice.loadRef();
    const outMsgDescr = slice.loadRef();
    const accountBlocks = loadShardAccountBlocks(slice.loadRef().beginParse());
    const randSeed = slice.loadBuffer(32);
    const createdBy = slice.loadBuffer(32);
    const customCell = slice.loadMaybeRef();
    const custom = customCell ? loadMcBlockExtra(customCell.beginParse()) : undefined;
    return { inMsgDescr, outMsgDescr, accountBlocks, randSeed, createdBy, custom };
}
