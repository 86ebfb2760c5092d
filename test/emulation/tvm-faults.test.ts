import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Address, beginCell, Cell, contractAddress, external, internal, storeMessage, type StateInit } from '@ton/core';
import { defaultConfig, Executor } from '@ton/sandbox';
import { WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { serializeShardAccount, shardAccountOf, type StoredAccount } from '../../src/emulation/account-state.ts';
import { EmulationFailure } from '../../src/emulation/errors.ts';
import { MAX_MESSAGE_DEPTH } from '../../src/emulation/message-input.ts';
import { emulateTrace, emulationExecutor, type EmulationChainState } from '../../src/emulation/trace-emulator.ts';
import { GetMethodRunner, getSharedExecutor } from '../../src/ton/interfaces/get-method-runner.ts';
import { bocDeeperThan, ResilientExecutor, TVM_LIMITS, TvmFault } from '../../src/ton/tvm-executor.ts';

/** A chain of `cells` cells, each but the last referring to the next. */
function chain(cells: number): Cell {
    let cell = beginCell().storeUint(0, 8).endCell();
    for (let i = 1; i < cells; i++) cell = beginCell().storeUint(i % 256, 8).storeRef(cell).endCell();
    return cell;
}

/**
 * A contract that accepts any external message and stores the first reference of its body wrapped
 * in `wraps` more cells as its data: from a message the guard lets through, a state deeper than the
 * emulator can write out. Raw TVM code: DROP (the selector), ACCEPT, LDREF, DROP, then
 * NEWC STREF ENDC `wraps` times, POPCTR c4.
 */
function deepener(wraps: number): StateInit {
    const code = beginCell().storeUint(0x30, 8).storeUint(0xf800, 16).storeUint(0xd4, 8).storeUint(0x30, 8);
    for (let i = 0; i < wraps; i++) code.storeUint(0xc8cc_c9, 24);
    return { code: code.storeUint(0xed54, 16).endCell(), data: beginCell().endCell() };
}

function externalTo(to: Address, body: Cell, init?: StateInit): Cell {
    return beginCell().store(storeMessage(external({ to, body, init }))).endCell();
}

const keys = keyPairFromSeed(Buffer.alloc(32, 5));
const wallet = WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey });
const DEEPENER = deepener(20);
const DEEPENER_ADDRESS = contractAddress(0, DEEPENER);
const NOW = Math.floor(Date.now() / 1000);

/** A chain state with a funded wallet v4 (deployed, seqno 0) and a funded, undeployed deepener address. */
function chainState(): EmulationChainState {
    const accounts = new Map<string, StoredAccount>([
        [wallet.address.toRawString(), {
            status: 'active', balance: 10n ** 12n, code: wallet.init.code.toBoc(), data: wallet.init.data.toBoc(),
            lastTransLt: 1000n, accountLastTransLt: 1001n, lastTransHash: '11'.repeat(32), lastUtime: NOW - 100,
        }],
        [DEEPENER_ADDRESS.toRawString(), {
            status: 'uninit', balance: 10n ** 10n, code: null, data: null,
            lastTransLt: 2000n, accountLastTransLt: 2001n, lastTransHash: '22'.repeat(32), lastUtime: NOW - 100,
        }],
    ]);
    return {
        config: async () => defaultConfig,
        account: async address => accounts.get(address),
        now: async () => NOW,
        libraries: async () => new Map(),
    };
}

/** A signed transfer of the wallet to the deepener's address: two transactions. */
function validTransfer(): Cell {
    const body = wallet.createTransfer({ seqno: 0, secretKey: keys.secretKey, messages: [internal({ to: DEEPENER_ADDRESS, value: 10_000_000n, bounce: false })] });
    return externalTo(wallet.address, body);
}

async function emulateValid(): Promise<void> {
    const trace = await emulateTrace(validTransfer(), chainState(), { skipSignatureChecks: 'none' });
    assert.equal(trace.transactionCount, 2);
    assert.equal(trace.root.parsed.account, wallet.address.toRawString());
    assert.equal(trace.root.children[0].parsed.account, DEEPENER_ADDRESS.toRawString());
}

/** The wallet's state as the emulator takes it (built the way emulation builds indexed accounts). */
const WALLET_STATE = serializeShardAccount(shardAccountOf(wallet.address, {
    status: 'active', balance: 10n ** 12n, code: wallet.init.code.toBoc(), data: wallet.init.data.toBoc(),
    lastTransLt: 1000n, accountLastTransLt: 1001n, lastTransHash: '11'.repeat(32), lastUtime: NOW - 100,
}));

const oneTransaction = (executor: ResilientExecutor | Executor, message: Cell) => executor.runTransaction({
    config: defaultConfig, libs: null, verbosity: 'short', shardAccount: WALLET_STATE, message, now: NOW, lt: 5000n,
    randomSeed: Buffer.alloc(32), ignoreChksig: true, debugEnabled: false,
});

describe('the emulator survives its own faults (bypassing the input guards)', () => {
    it('ResilientExecutor: a trap replaces the WASM instance, which answers the next run as a fresh one does', async () => {
        const executor = new ResilientExecutor();
        const fresh = await Executor.create();
        const good = validTransfer();
        const expected = (await oneTransaction(fresh, good)).result;
        assert.equal(expected.success, true);

        // 440 deep: above what the emulator can free on its stack (429), so it traps whatever the destination does.
        const deep = externalTo(wallet.address, chain(440));
        await assert.rejects(oneTransaction(executor, deep), (error: unknown) => {
            assert.ok(error instanceof TvmFault, String(error));
            assert.ok(error.cause instanceof WebAssembly.RuntimeError, `a WebAssembly trap, got ${String(error.cause)}`);
            assert.match(error.message, /restarted/);
            return true;
        });
        assert.equal(executor.restarts, 1);
        // Calls made while it is replaced wait for the new instance; they all answer as a fresh emulator does.
        const results = await Promise.all([oneTransaction(executor, good), oneTransaction(executor, good), oneTransaction(executor, good)]);
        for (const { result } of results) assert.deepEqual(result, expected);
        assert.equal(executor.restarts, 1);
    });

    it('emulateTrace: a 440-deep root message (the guard bypassed) fails with a rejection, and the next emulation runs', async () => {
        const before = emulationExecutor().restarts;
        const deep = externalTo(wallet.address, chain(440));
        await assert.rejects(emulateTrace(deep, chainState(), { skipSignatureChecks: 'none' }), (error: unknown) => {
            assert.ok(error instanceof EmulationFailure, String(error));
            assert.equal(error.kind, 'rejected');
            assert.match(error.message, /emulator failed on transaction 1 .*WebAssembly trap.*restarted/);
            return true;
        });
        assert.equal(emulationExecutor().restarts, before + 1);
        await emulateValid();
    });

    it(`emulateTrace: a real fault below the guard — a ${MAX_MESSAGE_DEPTH - 2}-deep message a contract makes deeper than the emulator writes out — and the next emulation runs`, async () => {
        const before = emulationExecutor().restarts;
        // The deploy message is within the guard; the state the contract makes from it (data 20 cells deeper) is not.
        const message = externalTo(DEEPENER_ADDRESS, beginCell().storeRef(chain(MAX_MESSAGE_DEPTH - 4)).endCell(), DEEPENER);
        assert.ok(message.depth() <= MAX_MESSAGE_DEPTH, `the message (${message.depth()} deep) passes the guard`);
        await assert.rejects(emulateTrace(message, chainState(), { skipSignatureChecks: 'none' }), (error: unknown) => {
            assert.ok(error instanceof EmulationFailure, String(error));
            assert.equal(error.kind, 'rejected');
            assert.match(error.message, /restarted/);
            return true;
        });
        assert.equal(emulationExecutor().restarts, before + 1);
        await emulateValid();
        // The same contract with a shallow message works on the new instance.
        const shallow = await emulateTrace(externalTo(DEEPENER_ADDRESS, beginCell().storeRef(chain(10)).endCell(), DEEPENER), chainState(), { skipSignatureChecks: 'none' });
        assert.equal(shallow.transactionCount, 1);
        assert.equal(shallow.after.get(DEEPENER_ADDRESS.toRawString())?.account?.storage.state.type, 'active');
    });

    it(`emulateTrace: a silent overflow — a state ${TVM_LIMITS.serializedDepth + 1} deep, which the emulator writes out without trapping — is caught by the output check`, async () => {
        const before = emulationExecutor().restarts;
        // Data = the chain wrapped 20 times (chain depth + 20); the ShardAccount is 2 deeper.
        const cells = TVM_LIMITS.serializedDepth + 1 - 21;
        const message = externalTo(DEEPENER_ADDRESS, beginCell().storeRef(chain(cells)).endCell(), DEEPENER);
        assert.ok(message.depth() <= MAX_MESSAGE_DEPTH);
        await assert.rejects(emulateTrace(message, chainState(), { skipSignatureChecks: 'none' }), (error: unknown) => {
            assert.ok(error instanceof EmulationFailure, String(error));
            assert.match(error.message, new RegExp(`transaction 1 of the trace .* made a cell more than ${TVM_LIMITS.serializedDepth} cells deep.*restarted`));
            return true;
        });
        assert.equal(emulationExecutor().restarts, before + 1);
        await emulateValid();
    });

    it('bocDeeperThan: reads a bag only when it has more cells than the limit', () => {
        const shallowMany = beginCell().storeRef(chain(3)).storeRef(chain(400)).endCell();
        assert.equal(bocDeeperThan(chain(10).toBoc().toString('base64'), 303), false);
        assert.equal(bocDeeperThan(chain(304).toBoc().toString('base64'), 303), false);
        assert.equal(bocDeeperThan(chain(305).toBoc().toString('base64'), 303), true);
        assert.equal(bocDeeperThan(shallowMany.toBoc().toString('base64'), 500), false);
        assert.equal(bocDeeperThan(shallowMany.toBoc({ idx: true, crc32: true }).toString('base64'), 300), true);
    });

    it('GetMethodRunner: a result stack deeper than the emulator writes out is a failure, the instance is replaced, the next get-method works', async () => {
        const runner = await GetMethodRunner.create();
        const shared = getSharedExecutor();
        const before = shared.restarts;
        // PUSHCTR c4: the get-method returns its data.
        const code = beginCell().storeUint(0xed44, 16).endCell();
        const address = new Address(0, Buffer.alloc(32, 9));
        const deep = await runner.run({ address, code, data: chain(TVM_LIMITS.serializedDepth + 20), balance: 0n }, 0);
        assert.equal(deep.ok, false);
        assert.ok(shared.restarts > before, 'the get-method emulator was replaced');
        const fine = await runner.run({ address, code, data: chain(5), balance: 0n }, 0);
        assert.ok(fine.ok, fine.ok ? '' : fine.error);
        assert.equal(fine.stack.length, 2);

        // An argument deeper than the guard is refused without running.
        const restarts = shared.restarts;
        const refused = await runner.run({ address, code, data: chain(5), balance: 0n }, 0, [{ type: 'cell', cell: chain(MAX_MESSAGE_DEPTH + 2) }]);
        assert.equal(refused.ok, false);
        assert.match(refused.ok ? '' : refused.error, new RegExp(`${MAX_MESSAGE_DEPTH + 1} cells deep; .* at most ${MAX_MESSAGE_DEPTH}`));
        assert.equal(shared.restarts, restarts);
    });
});
