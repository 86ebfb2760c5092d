import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { Cell, loadShardAccount, loadTransaction, type Transaction } from '@ton/core';
import { startDevnetService, type DevnetService } from '../helpers/devnet-service.ts';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { loadBlock, type Block } from '../../src/ton/block/block.ts';
import { compareWithProjectParser } from '../helpers/compare-block-readers.ts';
import { parseValidatorSet } from '../../src/chain/devnet/contracts/config.ts';
import { parseNominatorPoolStorage } from '../../src/chain/devnet/contracts/staking-pools.ts';

/**
 * A devnet with short rounds (40 s) runs through more than two finished rounds: elections are
 * announced in the elector's tick, the validators stake through the nominator pool, the
 * single-nominator pool and a wallet, the config contract moves p36 to p34 in key blocks (the index
 * stores their config), every masterchain block's recovered fees reach the elector as
 * recover_create_msg, and unfrozen stakes come back with bonuses to the pools, which split them.
 */
const ELECTOR = `-1:${'33'.repeat(32)}`;
const OP = { newStake: 0x4e73744b, confirmed: 0xf374484c, recover: 0x47657424, recovered: 0xf96f7324 };
const ROUND = 40;

interface MasterTx { tx: Transaction; account: string }

function opOf(body: Cell | undefined): number | undefined {
    return body && body.bits.length >= 32 ? body.beginParse().preloadUint(32) : undefined;
}

describe('devnet elections', () => {
    let service: DevnetService;
    let masters: Array<{ block: Block; boc: Buffer }> = [];
    let txs: MasterTx[] = [];
    let finalState: Map<string, Cell>;
    let manifest: NonNullable<ReturnType<NonNullable<DevnetService['devnet']>['manifest']>>;
    let configRows: Array<{ block_seqno: unknown; config: Buffer }> = [];

    before(async () => {
        service = await startDevnetService({ roundSeconds: ROUND, blockIntervalMs: 250 });
        manifest = { ...JSON.parse(readFileSync(`${service.dataDir}/devnet.json`, 'utf8')), elections: JSON.parse(readFileSync(`${service.dataDir}/devnet-elections.json`, 'utf8')) };
        const genesis = manifest.genesis_utime;
        // Two rounds elected and unfrozen, the pools' stakes recovered: about 3.5 rounds.
        while (Math.floor(Date.now() / 1000) < genesis + Math.floor(3.6 * ROUND)) await new Promise(r => setTimeout(r, 1000));
        await service.devnet!.nextBlock();
        await new Promise(r => setTimeout(r, 2000));
        configRows = await service.store.db.selectFrom('chain_config').select(['block_seqno', 'config']).execute() as typeof configRows;
        const log = new ChainLog(`${service.dataDir}/devnet/chain.sqlite`);
        try {
            const db = (log as unknown as { db: { prepare(sql: string): { all(): unknown[] } } }).db;
            const rows = db.prepare('SELECT boc FROM blocks ORDER BY seq').all() as Array<{ boc: Buffer }>;
            for (const { boc } of rows) {
                const block = loadBlock(Cell.fromBoc(boc)[0].beginParse());
                if (block.extra.custom) masters.push({ block, boc });
            }
            finalState = new Map(log.accounts().map(a => [a.address, Cell.fromBoc(a.shardAccount)[0]]));
        } finally {
            log.close();
        }
        await service.dispose();
        for (const { block } of masters) {
            for (const [address, accountBlock] of block.extra.accountBlocks) {
                for (const [, t] of accountBlock.transactions) txs.push({ tx: loadTransaction(t.cell.beginParse()), account: `-1:${address.toString(16).padStart(64, '0')}` });
            }
        }
    });
    after(async () => undefined);

    test('the manifest lists the validators with their keys, the pools and the nominators', () => {
        const e = manifest.elections!;
        assert.equal(e.round_seconds, ROUND);
        assert.equal(e.validators.length, 3);
        assert.deepEqual(e.validators.map(v => v.route).sort(), ['nominator_pool', 'single_nominator', 'wallet']);
        for (const v of e.validators) assert.equal(v.secret_key.length, 128);
        assert.equal(e.pools.length, 2);
    });

    test('elector and config run tick and tock in every masterchain block, with no in_msg', () => {
        for (const { block } of masters) {
            const ticks = txs.filter(t => t.tx.description.type === 'tick-tock' && block.extra.accountBlocks.has(BigInt(`0x${t.account.split(':')[1]}`)));
            assert.ok(ticks.length >= 4, `masterchain block ${block.info.seqno}`);
        }
        const tickTocks = txs.filter(t => t.tx.description.type === 'tick-tock');
        assert.ok(tickTocks.every(t => t.tx.inMessage === undefined || t.tx.inMessage === null));
        assert.ok(tickTocks.some(t => t.tx.description.type === 'tick-tock' && t.tx.description.isTock));
    });

    test('every masterchain block sends its recovered fees to the elector as recover_create_msg (msg_import_imm)', () => {
        let bonusesFromTraffic = 0n;
        for (const { block } of masters) {
            const refs = block.extra.custom!.signaturesAndMessages.beginParse();
            refs.loadBit(); // prev_blk_signatures (empty)
            const inMsg = refs.loadMaybeRef();
            assert.ok(inMsg, `masterchain block ${block.info.seqno} has recover_create_msg`);
            const s = inMsg.beginParse();
            assert.equal(s.loadUint(3), 0b011, 'msg_import_imm');
            const envelope = s.loadRef().beginParse();
            assert.equal(envelope.loadUint(4), 4);
            const message = envelope.loadRef();
            const tx = loadTransaction(s.loadRef().beginParse());
            assert.equal(s.loadCoins(), 0n);
            assert.ok(tx.inMessage && tx.inMessage.info.type === 'internal');
            assert.equal(tx.inMessage.info.src.toRawString(), `-1:${'00'.repeat(32)}`);
            assert.equal(tx.inMessage.info.dest.toRawString(), ELECTOR);
            assert.equal(message.hash().toString('hex'), tx.inMessage.info.type === 'internal' ? message.hash().toString('hex') : '');
            assert.equal(tx.inMessage.info.value.coins, block.valueFlow.recovered.coins);
            bonusesFromTraffic += block.valueFlow.recovered.coins - 1_700_000_000n;
        }
        assert.ok(bonusesFromTraffic > 0n, 'fees of the devnet\'s own traffic are recovered beyond the block creation fees');
    });

    test('stakes are accepted from the nominator pool, the single-nominator pool and the wallet', () => {
        const e = manifest.elections!;
        for (const v of e.validators) {
            const confirmations = txs.filter(t => t.account === v.stake_from && t.tx.inMessage?.info.type === 'internal'
                && t.tx.inMessage.info.src.toRawString() === ELECTOR && opOf(t.tx.inMessage.body) === OP.confirmed);
            assert.ok(confirmations.length >= 1, `${v.name} (${v.route}) had a stake accepted`);
        }
    });

    test('p36 moves to p34 in key blocks whose config the index stores', () => {
        const keyBlocks = masters.filter(m => m.block.info.keyBlock && m.block.info.seqno > 1);
        assert.ok(keyBlocks.length >= 4, `only ${keyBlocks.length} key blocks`);
        const p34s = new Set<string>();
        let sawNext = false;
        for (const m of keyBlocks) {
            const config = m.block.extra.custom!.config!;
            assert.ok(config, `key block ${m.block.info.seqno} carries the config`);
            const p34 = config.config.get(34)!;
            p34s.add(p34.hash().toString('hex'));
            const set = parseValidatorSet(p34);
            assert.equal(set.total, set.list.length);
            if (config.config.get(36)) sawNext = true;
        }
        assert.ok(sawNext, 'an elected set appears as p36 first');
        assert.ok(p34s.size >= 3, `p34 took ${p34s.size} values (genesis and two elected rounds)`);
        // The index keeps the newest key block's config: the last key block's.
        assert.equal(configRows.length, 1);
        const last = keyBlocks[keyBlocks.length - 1];
        assert.equal(Number(configRows[0].block_seqno), last.block.info.seqno);
        assert.ok(Cell.fromBoc(configRows[0].config)[0].hash().equals(last.block.extra.custom!.config!.root.hash()));
    });

    test('unfrozen stakes return with bonuses to the wallet and both pools; the nominator pool splits them', () => {
        const e = manifest.elections!;
        for (const v of e.validators) {
            const returns = txs.filter(t => t.account === v.stake_from && t.tx.inMessage?.info.type === 'internal'
                && t.tx.inMessage.info.src.toRawString() === ELECTOR && opOf(t.tx.inMessage.body) === OP.recovered);
            assert.ok(returns.length >= 1, `${v.name}'s stake came back`);
        }
        const pool = e.pools.find(p => p.kind === 'nominator_pool')!;
        const account = loadShardAccount(finalState.get(pool.address)!.beginParse()).account!;
        assert.equal(account.storage.state.type, 'active');
        const data = parseNominatorPoolStorage((account.storage.state as { state: { data: Cell } }).state.data);
        const amounts = [...data.nominators.values()].map(n => n.amount + n.pendingDepositAmount);
        assert.ok(amounts.some(a => a > 2_000n * 1_000_000_000n), `a nominator's amount grew with the reward: ${amounts}`);
        assert.ok(data.validatorAmount > 1_500n * 1_000_000_000n, `the validator's share grew: ${data.validatorAmount}`);
    });

    test('both block readers agree on the masterchain blocks with tick-tock transactions and recover_create_msg', () => {
        for (const { boc, block } of masters) {
            const independent = compareWithProjectParser(boc);
            assert.ok(independent.valueFlowBalanced);
            const special = independent.recoverCreateMsg!;
            assert.ok(special, 'the independent reader finds recover_create_msg');
            assert.deepEqual([special.kind, special.source, special.destination, special.fwdFee], [0b011, `-1:${'00'.repeat(32)}`, ELECTOR, 0n]);
            assert.equal(special.grams, block.valueFlow.recovered.coins);
            assert.equal(independent.mintMsg, null);
        }
    });
});

