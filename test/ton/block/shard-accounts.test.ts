import { pathToFileURL } from 'node:url';
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { CellType, type Cell } from '@ton/core';
import { readBlockRoot } from '../../../src/ton/block/block-file.ts';
import { loadBlock } from '../../../src/ton/block/block.ts';
import { loadShardStateUnsplit } from '../../../src/ton/block/shard-state.ts';
import { walkShardAccounts, walkShardAccountsAll } from '../../../src/ton/block/shard-accounts.ts';
import { MAINNET_AVAILABLE, MAINNET_BLOCKS_DIR, mainnetSkip } from '../../helpers/fixtures.ts';

const FIXTURES = pathToFileURL(MAINNET_BLOCKS_DIR);
const BLOCK_FILES = MAINNET_AVAILABLE ? readdirSync(FIXTURES).filter(name => name.endsWith('.boc')) : [];

/** The ShardAccounts of one side of a block's state update, both halves after a merge (null where pruned). */
function sideAccounts(side: Cell): Array<Cell | null> {
    if (side.isExotic) return [null];
    // split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit
    if (side.beginParse().preloadUint(32) === 0x5f327da5) return side.refs.flatMap(sideAccounts);
    const accounts = loadShardStateUnsplit(side.beginParse()).accounts;
    return [accounts.isExotic ? null : accounts];
}

test('one pass over a block\'s accounts finds what a walk for each account finds, on both sides of the update', { skip: mainnetSkip }, () => {
    assert.ok(BLOCK_FILES.length >= 5, 'the mainnet fixture blocks are there');
    let leaves = 0;
    let pruned = 0;
    let absent = 0;
    for (const name of BLOCK_FILES) {
        const root = readBlockRoot(readFileSync(new URL(name, FIXTURES)));
        const block = loadBlock(root.beginParse());
        assert.equal(block.stateUpdate.type, CellType.MerkleUpdate);
        // The block's own accounts, and keys that are in neither state (each must come out absent or pruned).
        const keys = [...block.extra.accountBlocks.keys()];
        for (let i = 0; i < 20; i++) keys.push(BigInt(`0x${randomBytes(32).toString('hex')}`));
        for (const accounts of [...sideAccounts(block.stateUpdate.refs[0]), ...sideAccounts(block.stateUpdate.refs[1])]) {
            const all = walkShardAccountsAll(accounts, keys);
            for (const key of keys) {
                const one = walkShardAccounts(accounts, key);
                assert.deepEqual(all.get(key), one, `${name}: account ${key.toString(16)}`);
                if (one.kind === 'leaf') leaves++;
                else if (one.kind === 'pruned') pruned++;
                else absent++;
            }
            // Asked again (the balances after the states), the same walks come back without a second pass.
            if (accounts) assert.equal(walkShardAccountsAll(accounts, keys.slice(0, 3)), all);
        }
    }
    // The fixtures cover every outcome: accounts found, accounts behind pruned branches, and keys that are not there.
    assert.ok(leaves > 0 && pruned > 0 && absent > 0, `leaves ${leaves}, pruned ${pruned}, absent ${absent}`);
});
