import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Address, beginCell, comment, internal, storeMessage } from '@ton/core';
import { uninitializedAccount } from '../../src/chain/devnet/genesis.ts';
import { keyPairFromSeed } from '../../src/chain/devnet/keys.ts';
import { MessageNotAccepted, TvmChain } from '../../src/chain/devnet/tvm-chain.ts';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import type { PersistedAccount } from '../../src/chain/devnet/chain-log.ts';
import { InputFormatError } from '../../src/ton/input.ts';
import { parseTransactionCell } from '../../src/ton/transaction.ts';

const GRAM = 1_000_000_000n;
const UTIME = 1_751_461_310;

function seed(label: string): Buffer {
    return createHash('sha256').update(label).digest();
}

async function fundedChain(wallet: DevnetWallet, saved?: Map<string, PersistedAccount>): Promise<TvmChain> {
    const chain = await TvmChain.start(saved ? { loadAccount: address => saved.get(address) ?? null } : {});
    chain.now = UTIME;
    chain.setShardAccount(wallet.address, uninitializedAccount(wallet, 100n * GRAM, UTIME));
    return chain;
}

describe('the devnet chain on the TVM', () => {
    const alice = new DevnetWallet('wallet_v4r2', keyPairFromSeed(seed('tvm-chain alice')));
    const fresh = new Address(0, seed('tvm-chain: a fresh address'));

    test('a message runs with its cascade, each delivered as the cell its sender made; a fresh address starts from nonexist, as on mainnet', async () => {
        const chain = await fundedChain(alice);
        const made = await chain.sendMessage(await alice.transfer(0, UTIME + 60, [
            internal({ to: fresh, value: GRAM, bounce: false, body: comment('to a new account') }),
        ]));
        assert.deepEqual(made.map(tx => tx.account), [alice.address.toRawString(), fresh.toRawString()]);
        assert.deepEqual(chain.drainTransactions(), made);
        assert.deepEqual(chain.drainTransactions(), [], 'drained');
        const [root, received] = made.map(tx => parseTransactionCell(tx.cell, tx.workchain));
        assert.equal(received.inMsg?.hash, root.outMsgs[0].hash, "the receiver's in_msg is the sender's out_msg");
        assert.equal(made[1].parsed.oldStatus, 'non-existing');
        assert.equal(made[1].parsed.endStatus, 'uninitialized');
        assert.ok(made[1].parsed.lt > made[0].parsed.lt && chain.lt >= made[1].parsed.lt);
        assert.equal(chain.shardAccount(fresh).account?.storage.balance.coins, made[1].parsed.inMessage?.info.type === 'internal' ? made[1].parsed.inMessage.info.value.coins : -1n);
        assert.equal((await chain.runGetMethod(alice.address, 'seqno')).stackReader.readNumber(), 1);
    });

    test('a refused external message makes no transaction and says why; an outbound external or too deep a message never reaches the TVM', async () => {
        const chain = await fundedChain(alice);
        await chain.sendMessage(await alice.transfer(0, UTIME + 60, []));
        chain.drainTransactions();
        const replayed = chain.sendMessage(await alice.transfer(0, UTIME + 60, []));
        await assert.rejects(replayed, (error: unknown) => error instanceof MessageNotAccepted && error.exitCode === 33);
        assert.deepEqual(chain.drainTransactions(), []);
        const outbound = beginCell().store(storeMessage({ info: { type: 'external-out', src: alice.address, dest: null, createdAt: 0, createdLt: 0n }, body: beginCell().endCell() })).endCell();
        await assert.rejects(chain.sendMessage(outbound), InputFormatError);
        let deep = beginCell().endCell();
        for (let i = 0; i < 300; i++) deep = beginCell().storeRef(deep).endCell();
        const tooDeep = beginCell().store(storeMessage({
            info: { type: 'internal', ihrDisabled: true, bounce: false, bounced: false, src: alice.address, dest: fresh, value: { coins: GRAM }, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: UTIME },
            body: deep,
        })).endCell();
        await assert.rejects(chain.sendMessage(tooDeep), /cells deep/);
    });

    test('accounts let go of come back from their saved state, byte for byte', async () => {
        const saved = new Map<string, PersistedAccount>();
        const chain = await fundedChain(alice, saved);
        await chain.sendMessage(await alice.transfer(0, UTIME + 60, [internal({ to: fresh, value: GRAM, bounce: false })]));
        const first = chain.drainTransactions();
        for (const tx of first) saved.set(tx.account, chain.persistedAccount(tx.account));
        const before = saved.get(alice.address.toRawString())!;
        chain.keepRecent(0);
        assert.deepEqual(chain.persistedAccount(alice.address.toRawString()), before);
        assert.equal((await chain.runGetMethod(alice.address, 'seqno')).stackReader.readNumber(), 1);
        const [again] = await chain.sendMessage(await alice.transfer(1, UTIME + 60, []));
        assert.equal(again.parsed.prevTransactionLt, first[0].parsed.lt, 'the account went on from its saved state');
        assert.equal(again.parsed.prevTransactionHash, BigInt(`0x${first[0].cell.hash().toString('hex')}`));
    });
});
