import { type Builder, type Cell, type Slice } from '@ton/core';
import { cellBuilder } from '../../ton/cells/core-cells.ts';
import { DictKeys } from '../../ton/cells/dict-keys.ts';
import { configParamsCell, configParamsDict } from './contracts/config.ts';
import { MAX_DEVNET_SHARDS } from '../../config/defaults.ts';


/**
 * How a devnet with several shards splits and merges, written into config param 12 as
 * `wc_split_merge_timings`: a split or merge starts with the next block after it is announced
 * (TON's default waits 100 s), in a window of a minute.
 */
const DEVNET_TIMINGS = { delay: 0, interval: 60, minInterval: 30, maxDelay: 1000 };

/** log2 of a shard count, which must be a power of two from 1 to MAX_DEVNET_SHARDS. */
function splitDepth(shards: number): number {
    if (!Number.isInteger(shards) || shards < 1 || shards > MAX_DEVNET_SHARDS || (shards & (shards - 1)) !== 0) {
        throw new Error(`the number of shards must be a power of two from 1 to ${MAX_DEVNET_SHARDS}, not ${shards}`);
    }
    return Math.log2(shards);
}

/**
 * The config with the basechain's descriptor (param 12) asking for at least `shards` shards
 * (min_split; max_split raised to it where lower), as `workchain_v2#a7` with the devnet's timings:
 * `workchain_v2#a7 enabled_since:uint32 monitor_min_split:(## 8) min_split:(## 8) max_split:(## 8)
 * basic:(## 1) active:Bool accept_msgs:Bool flags:(## 13) zerostate_root_hash:bits256
 * zerostate_file_hash:bits256 version:uint32 format:(WorkchainFormat basic)
 * split_merge_timings:WcSplitMergeTimings persistent_state_split_depth:(## 8)`;
 * `wc_split_merge_timings#0 split_merge_delay:uint32 split_merge_interval:uint32
 * min_split_merge_interval:uint32 max_split_merge_delay:uint32`.
 */
export function withBasechainShards(config: Cell, shards: number): Cell {
    const minSplit = splitDepth(shards);
    const params = configParamsDict(config);
    const inline = { serialize: (value: Slice, builder: Builder) => { builder.storeSlice(value); }, parse: (slice: Slice) => slice };
    const p12 = params.get(12);
    if (!p12) throw new Error('the config has no param 12 (workchains)');
    const workchains = p12.beginParse().loadDict(DictKeys.Int(32), inline);
    const descr = workchains.get(0);
    if (!descr) throw new Error('config param 12 describes no basechain');
    const tag = descr.loadUint(8);
    if (tag !== 0xa6 && tag !== 0xa7) throw new Error(`config param 12's basechain descriptor has an unknown tag ${tag.toString(16)}`);
    const enabledSince = descr.loadUint(32);
    const monitorMinSplit = descr.loadUint(8);
    descr.skip(8);
    const maxSplit = Math.max(minSplit, descr.loadUint(8));
    // basic … version and the basic format: 3 + 13 + 256 + 256 + 32 + (4 + 32 + 64) bits, copied as they are.
    const middle = descr.loadBits(3 + 13 + 256 + 256 + 32 + 4 + 32 + 64);
    const rewritten = cellBuilder().storeUint(0xa7, 8).storeUint(enabledSince, 32).storeUint(Math.min(monitorMinSplit, minSplit), 8)
        .storeUint(minSplit, 8).storeUint(maxSplit, 8).storeBits(middle)
        .storeUint(0, 4).storeUint(DEVNET_TIMINGS.delay, 32).storeUint(DEVNET_TIMINGS.interval, 32)
        .storeUint(DEVNET_TIMINGS.minInterval, 32).storeUint(DEVNET_TIMINGS.maxDelay, 32)
        .storeUint(0, 8)
        .endCell();
    workchains.set(0, rewritten.beginParse());
    params.set(12, cellBuilder().storeDict(workchains).endCell());
    return configParamsCell(params);
}
