import type { Cell, Slice } from '@ton/core';
import { type BlockExtra, loadBlockExtra } from './block-extra.ts';
import { type BlockInfo, loadBlockInfo } from './block-info.ts';
import { loadValueFlow, type ValueFlow } from './value-flow.ts';

// block#11ef55aa global_id:int32
//   info:^BlockInfo value_flow:^ValueFlow
//   state_update:^(MERKLE_UPDATE ShardState)
//   extra:^BlockExtra = Block;

export interface Block {
    globalId: number;
    info: BlockInfo;
    valueFlow: ValueFlow;
    /** The MERKLE_UPDATE exotic cell (old state, new state); see block-state.ts. */
    stateUpdate: Cell;
    extra: BlockExtra;
}

export function loadBlock(slice: Slice): Block {
    if (slice.loadUint(32) !== 0x11ef55aa) {
        throw new Error('Not a block: invalid Block tag');
    }
    const globalId = slice.loadInt(32);
    const info = loadBlockInfo(slice.loadRef().beginParse());
    const valueFlow = loadValueFlow(slice.loadRef().beginParse());
    const stateUpdate = slice.loadRef();
    const extra = loadBlockExtra(slice.loadRef().beginParse());
    return { globalId, info, valueFlow, stateUpdate, extra };
}
