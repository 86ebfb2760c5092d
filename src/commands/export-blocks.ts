import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beginCell, Cell, Dictionary } from '@ton/core';
import { ChainLog } from '../chain/devnet/chain-log.ts';
import { DictKeys } from '../ton/cells/dict-keys.ts';

/**
 * `export-blocks`: writes the devnet's blocks as block files (`NNNNNNNN-wc_shard_seqno.boc`, in
 * production order, byte-identical to what the chain log serves) and beside each the states of the
 * accounts it changed (`….states.boc`: a `HashmapE 256 ^ShardAccount` by account id, in a cell of its own), which the
 * files source reads where a block's state update prunes part of an account. Importing them gives
 * the devnet's own index.
 */
export function exportDevnetBlocks(dataDir: string, outDir: string): { blocks: number } {
    const file = join(dataDir, 'devnet', 'chain.sqlite');
    if (!existsSync(file)) throw new Error(`${dataDir} has no devnet (no ${file})`);
    const log = new ChainLog(file);
    mkdirSync(outDir, { recursive: true });
    let blocks = 0;
    try {
        for (const block of log.allBlocks()) {
            const name = `${String(block.seq).padStart(8, '0')}-${block.workchain}_${block.shard}_${block.seqno}`;
            writeFileSync(join(outDir, `${name}.boc`), block.boc);
            const states = Dictionary.empty(DictKeys.BigUint(256), Dictionary.Values.Cell());
            for (const { address, shardAccount } of log.accountsChangedBy(block.seq)) {
                states.set(BigInt(`0x${address.split(':')[1]}`), Cell.fromBoc(shardAccount)[0]);
            }
            writeFileSync(join(outDir, `${name}.states.boc`), beginCell().storeDict(states).endCell().toBoc());
            blocks++;
        }
    } finally {
        log.close();
    }
    return { blocks };
}
