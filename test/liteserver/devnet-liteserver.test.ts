import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { Address, beginCell, Cell, internal, loadShardAccount, loadTransaction, parseTuple, serializeTuple, storeMessage, TupleReader } from '@ton/core';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { Functions, type tonNode_blockIdExt } from 'ton-lite-client/dist/schema.js';
import { ChainLog } from '../../src/chain/devnet/chain-log.ts';
import { jettonWalletCode } from '../../src/chain/devnet/contracts/jetton.ts';
import { DevnetSource } from '../../src/chain/devnet/devnet-source.ts';
import { DevnetWallet, type DevnetWalletKind } from '../../src/chain/devnet/wallets.ts';
import { startLiteServer, type RunningLiteServer } from '../../src/liteserver/lite-server.ts';
import { createDevnetLiteMethods, type DevnetLiteServer } from '../../src/liteserver/devnet/devnet-lite-methods.ts';
import { readBoc } from '../../src/ton/boc/boc-reader.ts';
import { loadBlock } from '../../src/ton/block/block.ts';
import { configParam, readMerkleProof } from '../../src/ton/cells/merkle-proof.ts';
import { tempDir } from '../helpers/stores.ts';

const ROOT_SHARD = '-9223372036854775808';

interface LogBlock { seq: number; workchain: number; seqno: number; utime: number; rootHash: string; fileHash: string; boc: Buffer }

describe('devnet liteserver driven by ton-lite-client', () => {
    const dir = tempDir('devnet-liteserver-');
    const chainLogFile = `${dir.path}/devnet/chain.sqlite`;
    const serverErrors: unknown[] = [];
    let devnet: DevnetSource;
    let lite: DevnetLiteServer;
    let server: RunningLiteServer;
    let engine: LiteSingleEngine;
    let client: LiteClient;
    let logDb: Database.Database;

    const logBlocks = (where = '1 = 1', ...params: unknown[]): LogBlock[] =>
        (logDb.prepare(`SELECT seq, workchain, seqno, utime, root_hash, file_hash, boc FROM blocks WHERE ${where} ORDER BY seq`).all(...params) as Array<Record<string, unknown>>)
            .map(r => ({ seq: r.seq as number, workchain: r.workchain as number, seqno: r.seqno as number, utime: r.utime as number, rootHash: r.root_hash as string, fileHash: r.file_hash as string, boc: r.boc as Buffer }));
    const manifestAccount = (name: string) => devnet.manifest().accounts.find(a => a.name === name)!;

    before(async () => {
        devnet = new DevnetSource({ dataDir: dir.path, blockIntervalMs: 100, faucetCap: 10n ** 12n });
        await devnet.start();
        while (!devnet.seeded) await devnet.nextBlock();
        const listeners = new Set<() => void>();
        devnet.onStep(() => listeners.forEach(l => l()));
        lite = createDevnetLiteMethods({
            dataDir: dir.path,
            sink: devnet,
            produced: listener => {
                listeners.add(listener);
                return () => listeners.delete(listener);
            },
        });
        server = await startLiteServer({
            keyDir: dir.path, host: '127.0.0.1', port: 0, methods: lite.methods,
            waitForMasterchainSeqno: lite.waitForMasterchainSeqno, onError: err => serverErrors.push(err),
        });
        engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${server.port}`, publicKey: server.publicKey, reconnectTimeout: 50 });
        await new Promise<void>((resolve, reject) => {
            engine.once('ready', resolve);
            engine.once('error', () => reject(new Error('engine error')));
        });
        client = new LiteClient({ engine });
        logDb = new Database(chainLogFile, { readonly: true });
    });

    after(async () => {
        engine?.close();
        await server?.close();
        lite?.close();
        logDb?.close();
        await devnet?.stop();
        dir.remove();
        assert.deepEqual(serverErrors, [], 'no method failed with an internal error');
    });

    test('getMasterchainInfo(Ext) name a real masterchain block of the chain log and its state', async () => {
        const info = await client.getMasterchainInfo();
        const [block] = logBlocks('workchain = -1 AND seqno = ?', info.last.seqno);
        assert.ok(block, 'last is in the chain log');
        assert.equal(info.last.shard, ROOT_SHARD);
        assert.equal(info.last.rootHash.toString('hex'), block.rootHash);
        assert.equal(info.last.fileHash.toString('hex'), block.fileHash);
        const root = readBoc(block.boc)[0];
        const update = root.refs[2].beginParse(true);
        update.skip(8 + 256);
        assert.ok(info.stateRootHash.equals(update.loadBuffer(32)), 'state root hash = the new hash of its state update');
        const zero = logDb.prepare('SELECT root_hash, file_hash FROM zerostates WHERE workchain = -1').get() as { root_hash: string; file_hash: string };
        assert.equal(info.init.rootHash.toString('hex'), zero.root_hash);

        const ext = await client.getMasterchainInfoExt();
        assert.equal(ext.version, 0x101);
        assert.equal(ext.capabilities, '15');
        assert.ok(ext.last.seqno >= info.last.seqno);
        const [extBlock] = logBlocks('workchain = -1 AND seqno = ?', ext.last.seqno);
        assert.equal(ext.lastUtime, extBlock.utime);
        assert.ok(Math.abs(ext.now - Date.now() / 1000) < 5);
        assert.ok(Math.abs(await client.getCurrentTime() - Date.now() / 1000) < 5);
    });

    test('getFullBlock lists exactly the transactions our block parser finds in those blocks', async () => {
        const last = (await client.getMasterchainInfo()).last.seqno;
        let checked = 0;
        for (const seqno of [2, Math.floor(last / 2), last]) {
            const full = await client.getFullBlock(seqno);
            const got = new Set<string>();
            for (const shard of full.shards) {
                const [block] = logBlocks('workchain = ? AND seqno = ?', shard.workchain, shard.seqno);
                assert.equal(shard.rootHash.toString('hex'), block.rootHash);
                for (const t of shard.transactions) got.add(`${shard.workchain}:${shard.seqno}:${t.account.toString('hex')}:${t.lt}:${t.hash.toString('hex')}`);
            }
            // Expected: the masterchain block and the basechain blocks after the previous one's shard block up to this one's.
            const committed = (mc: number) => {
                const [b] = logBlocks('workchain = -1 AND seqno = ?', mc);
                const extra = loadBlock(readBoc(b.boc)[0].beginParse()).extra.custom!;
                const tree = extra.shardHashes.get(0)!;
                assert.equal(tree.kind, 'leaf');
                return tree.kind === 'leaf' ? tree.leaf.seqno : 0;
            };
            const expectedBlocks = [
                ...logBlocks('workchain = -1 AND seqno = ?', seqno),
                ...logBlocks('workchain = 0 AND seqno > ? AND seqno <= ?', committed(seqno - 1), committed(seqno)),
            ];
            const expected = new Set<string>();
            for (const b of expectedBlocks) {
                const block = loadBlock(readBoc(b.boc)[0].beginParse());
                for (const accountBlock of block.extra.accountBlocks.values()) {
                    for (const [lt, tx] of accountBlock.transactions) expected.add(`${b.workchain}:${b.seqno}:${accountBlock.accountAddr.toString('hex')}:${lt}:${tx.cell.hash().toString('hex')}`);
                }
            }
            assert.deepEqual([...got].sort(), [...expected].sort(), `mc block ${seqno}`);
            checked += expected.size;
        }
        assert.ok(checked > 0, 'some transactions were compared');
    });

    test('getBlock answers the chain log BOC, whose hashes are the id', async () => {
        const info = await client.getMasterchainInfo();
        const shards = await client.getAllShardsInfo(info.last);
        const basechainSeqno = shards.shards['0'][ROOT_SHARD];
        assert.ok(basechainSeqno > 0);
        const basechain = await client.lookupBlockByID({ workchain: 0, shard: ROOT_SHARD, seqno: basechainSeqno });
        for (const id of [info.last, basechain.id]) {
            const answer = await engine.query(Functions.liteServer_getBlock, { kind: 'liteServer.getBlock', id });
            const [logged] = logBlocks('workchain = ? AND seqno = ?', id.workchain, id.seqno);
            assert.ok(answer.data.equals(logged.boc), 'byte-identical');
            assert.ok(Cell.fromBoc(answer.data)[0].hash().equals(id.rootHash));
            assert.ok(createHash('sha256').update(answer.data).digest().equals(id.fileHash));
        }
    });

    test('lookupBlock by seqno, lt and utime', async () => {
        const basechain = logBlocks('workchain = 0');
        const target = basechain[Math.floor(basechain.length / 2)];
        const block = loadBlock(readBoc(target.boc)[0].beginParse());
        const bySeqno = await client.lookupBlockByID({ workchain: 0, shard: ROOT_SHARD, seqno: target.seqno });
        assert.equal(bySeqno.id.rootHash.toString('hex'), target.rootHash);
        const byLt = await client.lookupBlockByLt({ workchain: 0, shard: ROOT_SHARD, lt: block.info.startLt });
        assert.equal(byLt.id.seqno, target.seqno);
        const byEndLt = await client.lookupBlockByLt({ workchain: 0, shard: ROOT_SHARD, lt: block.info.endLt });
        assert.equal(byEndLt.id.seqno, target.seqno + 1, 'end_lt itself belongs to the next block');
        const byUtime = await client.lookupBlockByUtime({ workchain: 0, shard: ROOT_SHARD, utime: target.utime });
        const firstAtUtime = basechain.find(b => b.utime >= target.utime)!;
        assert.equal(byUtime.id.seqno, firstAtUtime.seqno);
        const header = Cell.fromBoc(bySeqno.headerProof)[0];
        assert.ok(readMerkleProof(header).virtualHash.equals(bySeqno.id.rootHash), 'the header proof is of that block');
        await assert.rejects(client.lookupBlockByID({ workchain: 0, shard: ROOT_SHARD, seqno: target.seqno + 1_000_000 }), { message: 'block not found' });
    });

    test('getAccountState of a devnet wallet equals the chain log\'s state', async () => {
        const info = await client.getMasterchainInfo();
        const alice = manifestAccount('alice-v3r2');
        const state = await client.getAccountState(Address.parse(alice.address), info.last);
        assert.equal(state.shardBlock.workchain, 0, 'a basechain account asked at a masterchain block: the shard block it commits');
        const log = new ChainLog(chainLogFile, { readonly: true });
        try {
            const expected = loadShardAccount(Cell.fromBoc(log.shardAccountAt({ ...state.shardBlock, shard: '8000000000000000', rootHash: state.shardBlock.rootHash.toString('hex'), fileHash: state.shardBlock.fileHash.toString('hex') } as never, alice.address)!)[0].beginParse());
            assert.ok(state.state && expected.account);
            assert.equal(state.balance.coins, expected.account.storage.balance.coins);
            const code = (s: typeof state.state) => (s!.storage.state.type === 'active' ? s!.storage.state.state.code!.hash().toString('hex') : null);
            assert.equal(code(state.state), code(expected.account));
            assert.ok(code(state.state));
            assert.equal(state.lastTx?.lt, expected.lastTransactionLt);
            assert.equal(state.lastTx?.hash, expected.lastTransactionHash);
        } finally {
            log.close();
        }
        const absent = await client.getAccountState(new Address(0, randomBytes(32)), info.last);
        assert.equal(absent.state, null);
        const prunned = await client.getAccountStatePrunned(Address.parse(alice.address), info.last);
        assert.ok(prunned.stateHash?.equals(Cell.fromBoc(state.raw)[0].hash()), 'the prunned state carries the account\'s hash');
    });

    test('runMethod: a wallet\'s seqno, and jetton getters on wallets running public library code', async () => {
        const info = await client.getMasterchainInfo();
        const alice = manifestAccount('alice-v3r2');
        const state = await client.getAccountState(Address.parse(alice.address), info.last);
        const data = state.state!.storage.state.type === 'active' ? state.state!.storage.state.state.data! : null;
        const seqno = await client.runMethod(Address.parse(alice.address), 'seqno', Buffer.alloc(0), info.last);
        assert.equal(seqno.exitCode, 0);
        assert.equal(new TupleReader(parseTuple(Cell.fromBase64(seqno.result!))).readNumber(), DevnetWallet.seqnoFromData('wallet_v3r2', data!));

        const minter = Address.parse(manifestAccount('DSTB').address);
        const bob = Address.parse(manifestAccount('bob-v5r1').address);
        const args = serializeTuple([{ type: 'slice', cell: beginCell().storeAddress(bob).endCell() }]).toBoc({ idx: false, crc32: false });
        const walletAddress = await client.runMethod(minter, 'get_wallet_address', args, info.last);
        assert.equal(walletAddress.exitCode, 0);
        const bobWallet = new TupleReader(parseTuple(Cell.fromBase64(walletAddress.result!))).readAddress();
        const walletData = await client.runMethod(bobWallet, 'get_wallet_data', Buffer.alloc(0), info.last);
        assert.equal(walletData.exitCode, 0, 'the library code ran');
        assert.equal(new TupleReader(parseTuple(Cell.fromBase64(walletData.result!))).readBigNumber(), 975_000_000n);

        const missing = await client.runMethod(new Address(0, randomBytes(32)), 'seqno', Buffer.alloc(0), info.last);
        assert.equal(missing.exitCode, -256, 'no account: exit code -256');
    });

    test('sendMessage of a signed transfer; the transaction then appears in getAccountTransactions', async () => {
        const alice = manifestAccount('alice-v3r2');
        const address = Address.parse(alice.address);
        const info = await client.getMasterchainInfo();
        const before = await client.getAccountState(address, info.last);
        const seqnoResult = await client.runMethod(address, 'seqno', Buffer.alloc(0), info.last);
        const seqno = new TupleReader(parseTuple(Cell.fromBase64(seqnoResult.result!))).readNumber();
        const wallet = DevnetWallet.fromManifest(alice as { kind: DevnetWalletKind; secret_key: string });
        const message = await wallet.transfer(seqno, Math.floor(Date.now() / 1000) + 60, [internal({ to: new Address(0, randomBytes(32)), value: 10_000_000n, bounce: false })]);
        assert.deepEqual(await client.sendMessage(message.toBoc()), { status: 1 });

        let after = before;
        for (let i = 0; i < 100 && after.lastTx?.lt === before.lastTx?.lt; i++) {
            await new Promise(resolve => setTimeout(resolve, 100));
            after = await client.getAccountState(address, (await client.getMasterchainInfo()).last);
        }
        assert.notEqual(after.lastTx?.lt, before.lastTx?.lt, 'alice has a new transaction');
        const hash = Buffer.from(after.lastTx!.hash.toString(16).padStart(64, '0'), 'hex');
        const list = await client.getAccountTransactions(address, after.lastTx!.lt.toString(), hash, 3);
        const transactions = Cell.fromBoc(list.transactions);
        assert.equal(transactions.length, list.ids.length);
        assert.ok(transactions.length >= 2, 'it walks back to earlier transactions');
        const first = loadTransaction(transactions[0].beginParse());
        assert.equal(first.lt, after.lastTx!.lt);
        assert.ok(beginCell().store(storeMessage(first.inMessage!)).endCell().hash().equals(message.hash()), 'it executed the message sent');
        assert.equal(loadTransaction(transactions[1].beginParse()).lt, first.prevTransactionLt);
        await assert.rejects(client.getAccountTransactions(address, after.lastTx!.lt.toString(), randomBytes(32), 3), { message: 'transaction hash mismatch' });

        const one = await client.getAccountTransaction(address, first.lt.toString(), list.ids[0]);
        assert.ok(Cell.fromBoc(one.transaction)[0].hash().equals(transactions[0].hash()));

        // The same message again: alice's seqno moved on, the wallet refuses it.
        await assert.rejects(client.sendMessage(message.toBoc()), (err: Error) => err.message.startsWith('cannot apply external message to current state : '));
    });

    test('listBlockTransactions pages with after, in both orders', async () => {
        const basechain = logBlocks('workchain = 0');
        const busiest = basechain.map(b => ({ b, count: [...loadBlock(readBoc(b.boc)[0].beginParse()).extra.accountBlocks.values()].reduce((n, a) => n + a.transactions.size, 0) }))
            .sort((x, y) => y.count - x.count)[0];
        assert.ok(busiest.count >= 2);
        const id: tonNode_blockIdExt = { kind: 'tonNode.blockIdExt', workchain: 0, shard: ROOT_SHARD, seqno: busiest.b.seqno, rootHash: Buffer.from(busiest.b.rootHash, 'hex'), fileHash: Buffer.from(busiest.b.fileHash, 'hex') };
        const all = await client.listBlockTransactions(id, { mode: 7, count: 256 });
        assert.equal(all.incomplete, false);
        assert.equal(all.ids.length, busiest.count);
        assert.equal(all.reqCount, 256);
        const paged = [];
        let after = null;
        for (;;) {
            const page: Awaited<ReturnType<LiteClient['listBlockTransactions']>> = await client.listBlockTransactions(id, { mode: 7 + (after ? 128 : 0), count: 1, after });
            paged.push(...page.ids);
            if (!page.incomplete) break;
            const lastId = page.ids.at(-1)!;
            after = { kind: 'liteServer.transactionId3' as const, account: lastId.account!, lt: lastId.lt! };
        }
        assert.deepEqual(paged.map(t => t.lt), all.ids.map(t => t.lt));
        const reverse = await engine.query(Functions.liteServer_listBlockTransactions, {
            kind: 'liteServer.listBlockTransactions', id, mode: 7 | 64 | 32, count: 256, after: null, reverseOrder: true, wantProof: true,
        });
        assert.deepEqual(reverse.ids.map(t => t.lt), all.ids.map(t => t.lt).reverse());
        assert.ok(readMerkleProof(Cell.fromBoc(reverse.proof)[0]).virtualHash.equals(id.rootHash));
        const onlyHashes = await client.listBlockTransactions(id, { mode: 4, count: 256 });
        assert.deepEqual(onlyHashes.ids.map(t => [t.account, t.lt, t.hash?.toString('hex')]), all.ids.map(t => [null, null, t.hash!.toString('hex')]));
    });

    test('getConfigParams returns the chain\'s params; getLibraries the published library', async () => {
        const info = await client.getMasterchainInfo();
        const config = await engine.query(Functions.liteServer_getConfigParams, { kind: 'liteServer.getConfigParams', mode: 0, id: info.last, paramList: [0, 1, 34, 9999] });
        const virtualState = readMerkleProof(Cell.fromBoc(config.configProof)[0]).root;
        assert.ok(virtualState.hash(0).equals(info.stateRootHash));
        const zero = logDb.prepare('SELECT boc FROM zerostates WHERE workchain = -1').get() as { boc: Buffer };
        const zeroState = readBoc(zero.boc)[0];
        for (const param of [0, 1, 34]) {
            const value = configParam(virtualState, param);
            assert.ok(value, `param ${param} is there`);
            assert.ok(value.hash().equals(configParam(zeroState, param)!.hash()), `param ${param} is the chain's`);
        }
        assert.equal(configParam(virtualState, 9999), null);
        const stateProof = readMerkleProof(Cell.fromBoc(config.stateProof)[0]);
        assert.ok(stateProof.virtualHash.equals(info.last.rootHash));
        await assert.rejects(
            engine.query(Functions.liteServer_getConfigAll, { kind: 'liteServer.getConfigAll', mode: 0, id: (await client.lookupBlockByID({ workchain: 0, shard: ROOT_SHARD, seqno: 2 })).id }),
            { message: 'block is not a masterchain block' },
        );

        const library = jettonWalletCode().hash();
        const unknown = randomBytes(32);
        const libraries = await client.getLibraries([library, unknown, library]);
        assert.equal(libraries.result.length, 1);
        assert.ok(libraries.result[0].hash.equals(library));
        assert.ok(Cell.fromBoc(libraries.result[0].data)[0].hash().equals(library));
    });

    test('raw calls: header modes, shard info, account state at a shard block, runSmcMethod proofs, listBlockTransactionsExt', async (t) => {
        const info = await client.getMasterchainInfo();
        for (const mode of [0, 1, 2, 1 | 16 | 32]) {
            const header = await engine.query(Functions.liteServer_getBlockHeader, { kind: 'liteServer.getBlockHeader', id: info.last, mode });
            assert.equal(header.mode, mode);
            assert.ok(readMerkleProof(Cell.fromBoc(header.headerProof)[0]).virtualHash.equals(info.last.rootHash));
        }
        const shardInfo = await engine.query(Functions.liteServer_getShardInfo, { kind: 'liteServer.getShardInfo', id: info.last, workchain: 0, shard: '-6917529027641081856', exact: false });
        assert.equal(shardInfo.shardblk.shard, ROOT_SHARD, 'the shard containing the asked one');
        const descr = Cell.fromBoc(shardInfo.shardDescr)[0].beginParse();
        assert.ok([0xa, 0xb].includes(descr.loadUint(4)));
        assert.equal(descr.loadUint(32), shardInfo.shardblk.seqno);
        const [shardRoot, shardState] = Cell.fromBoc(shardInfo.shardProof);
        assert.ok(readMerkleProof(shardRoot).virtualHash.equals(info.last.rootHash));
        assert.ok(readMerkleProof(shardState).virtualHash.equals(info.stateRootHash));
        await assert.rejects(
            engine.query(Functions.liteServer_getShardInfo, { kind: 'liteServer.getShardInfo', id: info.last, workchain: 0, shard: '-6917529027641081856', exact: true }),
            /cannot find shard/,
        );

        const alice = Address.parse(manifestAccount('alice-v3r2').address);
        const accountId = { kind: 'liteServer.accountId' as const, workchain: 0, id: alice.hash };
        const atShard = await engine.query(Functions.liteServer_getAccountState, { kind: 'liteServer.getAccountState', id: shardInfo.shardblk, account: accountId });
        assert.deepEqual(atShard.shardblk, shardInfo.shardblk);
        assert.equal(atShard.shardProof.length, 0);
        const atMaster = await client.getAccountState(alice, info.last);
        assert.ok(atShard.state.equals(atMaster.raw), 'the same account state through the committed shard block');

        const run = await engine.query(Functions.liteServer_runSmcMethod, {
            kind: 'liteServer.runSmcMethod', mode: 1 | 2 | 4 | 16, id: info.last, account: accountId, methodId: '85143', params: Buffer.alloc(0),
        });
        assert.equal(run.exitCode, 0);
        assert.equal(Cell.fromBoc(run.proof!).length, 2);
        assert.ok(Cell.fromBoc(run.shardProof!).length === 2);
        assert.ok(readMerkleProof(Cell.fromBoc(run.stateProof!)[0]).virtualHash.equals(Cell.fromBoc(atMaster.raw)[0].hash()));
        assert.ok(run.libExtras!.length > 0, 'the chain\'s public library was given to the TVM');
        assert.equal(run.initC7, null);
        const started = performance.now();
        for (let i = 0; i < 10; i++) await client.runMethod(alice, 'seqno', Buffer.alloc(0), info.last);
        t.diagnostic(`runMethod seqno: ${((performance.now() - started) / 10).toFixed(1)} ms per call over loopback`);
        await assert.rejects(
            engine.query(Functions.liteServer_runSmcMethod, { kind: 'liteServer.runSmcMethod', mode: 8, id: info.last, account: accountId, methodId: '85143', params: Buffer.alloc(0) }),
            /init_c7/,
        );
        await assert.rejects(
            engine.query(Functions.liteServer_lookupBlock, { kind: 'liteServer.lookupBlock', mode: 3, id: { kind: 'tonNode.blockId', workchain: -1, shard: ROOT_SHARD, seqno: 2 }, lt: '1', utime: null }),
            /exactly one of/,
        );

        // listBlockTransactionsExt has no ton-lite-client codec: called on the method table, the answer encoded by the dispatcher's codec.
        const shardBlock = shardInfo.shardblk;
        const ext = await lite.methods.listBlockTransactionsExt!({ id: shardBlock, mode: 7, count: 256, after: null, reverseOrder: false, wantProof: false });
        const plainList = await client.listBlockTransactions(shardBlock, { mode: 7, count: 256 });
        const cells = ext.transactions.length > 0 ? Cell.fromBoc(ext.transactions) : [];
        assert.deepEqual(cells.map(c => c.hash().toString('hex')), plainList.ids.map(i => i.hash!.toString('hex')));
    });

    test('errors: an unknown block, a method not served', async () => {
        const info = await client.getMasterchainInfo();
        const unknown = { ...info.last, seqno: info.last.seqno + 100_000 };
        await assert.rejects(client.getBlockHeader(unknown), { message: 'block not found' });
        // raw: LiteClient caches account states by block seqno, which a root hash it never saw would not change
        const alice = Address.parse(manifestAccount('alice-v3r2').address);
        await assert.rejects(engine.query(Functions.liteServer_getAccountState, {
            kind: 'liteServer.getAccountState', id: { ...info.last, rootHash: randomBytes(32) }, account: { kind: 'liteServer.accountId', workchain: alice.workChain, id: alice.hash },
        }), { message: 'block not found' });
        await assert.rejects(engine.query(Functions.liteServer_getState, { kind: 'liteServer.getState', id: info.last }), { message: 'not served: liteServer.getState' });
        // A waitMasterchainSeqno prefix for a block a little ahead is answered once it exists.
        const now = await client.getCurrentTime({ awaitSeqno: info.last.seqno + 2, timeout: 8000 });
        assert.ok(now > 0);
        await assert.rejects(lite.waitForMasterchainSeqno(info.last.seqno + 1_000_000, 100), { message: /too far/ });
    });
});
