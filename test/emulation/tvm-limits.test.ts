import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Address, beginCell, Cell, external, storeMessage } from '@ton/core';
import { defaultConfig, Executor } from '@ton/sandbox';
import { internal, SendMode, WalletContractV5R1 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { serializeShardAccount, shardAccountOf } from '../../src/emulation/account-state.ts';
import { MAX_TVM_MESSAGE_DEPTH, TVM_LIMITS } from '../../src/ton/tvm-executor.ts';

/**
 * The limits in TVM_LIMITS, probed again on the installed emulator at their edges, each probe on a
 * fresh WASM instance: the deepest input that works leaves an instance that still answers a known
 * transaction exactly as a fresh one does; a little deeper traps. If @ton/sandbox is upgraded and
 * this fails, measure again and update TVM_LIMITS (and MAX_TVM_MESSAGE_DEPTH below them).
 */

function chain(cells: number): Cell {
    let cell = beginCell().storeUint(0, 8).endCell();
    for (let i = 1; i < cells; i++) cell = beginCell().storeUint(i % 256, 8).storeRef(cell).endCell();
    return cell;
}

/** An external message whose body (by reference) makes the whole message `depth` cells deep. */
function messageOfDepth(to: Address, depth: number): Cell {
    const message = beginCell().store(storeMessage(external({ to, body: beginCell().storeRef(chain(depth - 1)).endCell() }), { forceRef: true })).endCell();
    assert.equal(message.depth(), depth);
    return message;
}

const ACCEPT = beginCell().storeUint(0x30, 8).storeUint(0xf800, 16).endCell(); // DROP the selector, ACCEPT
const REFUSE = beginCell().storeUint(0x30, 8).storeUint(0xf221, 16).endCell(); // DROP the selector, THROW 33
const ADDRESS = new Address(0, Buffer.alloc(32, 3));
const NOW = 1_750_000_000;

function account(code: Cell, data: Cell): string {
    return serializeShardAccount(shardAccountOf(ADDRESS, {
        status: 'active', balance: 10n ** 12n, code: code.toBoc(), data: data.toBoc(),
        lastTransLt: 1000n, accountLastTransLt: 1001n, lastTransHash: '00'.repeat(32), lastUtime: NOW - 10,
    }));
}

function run(executor: Executor, shardAccount: string, message: Cell) {
    return executor.runTransaction({
        config: defaultConfig, libs: null, verbosity: 'short', shardAccount, message, now: NOW, lt: 2000n,
        randomSeed: Buffer.alloc(32), ignoreChksig: false, debugEnabled: false,
    });
}

const KNOWN_STATE = account(ACCEPT, beginCell().storeUint(42, 32).endCell());
const KNOWN_MESSAGE = messageOfDepth(ADDRESS, 3);
let known: unknown;

/** Runs `shardAccount` + `message` on a fresh instance: 'ok' when it answers and the instance still answers the known transaction as a fresh one does. */
async function probe(shardAccount: string, message: Cell): Promise<'ok' | 'trap'> {
    known ??= (await run(await Executor.create(), KNOWN_STATE, KNOWN_MESSAGE)).result;
    const executor = await Executor.create();
    try {
        await run(executor, shardAccount, message);
    } catch {
        return 'trap';
    }
    assert.deepEqual((await run(executor, KNOWN_STATE, KNOWN_MESSAGE)).result, known, 'the instance still answers as a fresh one');
    return 'ok';
}

describe('the emulator\'s stack limits (TVM_LIMITS), measured again', () => {
    it(`an accepted message: ${TVM_LIMITS.acceptedMessageDepth} deep works (its transaction, 2 deeper, is written out), a few more trap`, async () => {
        const state = account(ACCEPT, Cell.EMPTY);
        assert.equal(TVM_LIMITS.acceptedMessageDepth, TVM_LIMITS.serializedDepth - 2);
        assert.equal(await probe(state, messageOfDepth(ADDRESS, TVM_LIMITS.acceptedMessageDepth)), 'ok');
        // 302..304 overflow the stack without trapping (into padding and globals below it); 305 and deeper trap.
        assert.equal(await probe(state, messageOfDepth(ADDRESS, TVM_LIMITS.acceptedMessageDepth + 4)), 'trap');
        assert.equal(await probe(state, messageOfDepth(ADDRESS, TVM_LIMITS.acceptedMessageDepth + 30)), 'trap');
    });

    it(`a refused message is only freed: ${TVM_LIMITS.freedDepth} deep works, 434 and deeper trap (the reported ~436-cell chains)`, async () => {
        const state = account(REFUSE, Cell.EMPTY);
        assert.equal(await probe(state, messageOfDepth(ADDRESS, TVM_LIMITS.freedDepth)), 'ok');
        for (const depth of [434, 436, 500]) assert.equal(await probe(state, messageOfDepth(ADDRESS, depth)), 'trap', `depth ${depth}`);
    });

    it(`an account state: ${TVM_LIMITS.serializedDepth} deep (data 2 shallower) is written out, a few more trap`, async () => {
        const message = messageOfDepth(ADDRESS, 3);
        const fits = account(ACCEPT, chain(TVM_LIMITS.serializedDepth - 2 + 1));
        assert.equal(Cell.fromBase64(fits).depth(), TVM_LIMITS.serializedDepth);
        assert.equal(await probe(fits, message), 'ok');
        assert.equal(await probe(account(ACCEPT, chain(TVM_LIMITS.serializedDepth + 5)), message), 'trap');
    });

    it(`the guard (${MAX_TVM_MESSAGE_DEPTH}) is below the emulator's limit and above every standard wallet's deepest message`, () => {
        assert.ok(MAX_TVM_MESSAGE_DEPTH < TVM_LIMITS.acceptedMessageDepth);
        const keys = keyPairFromSeed(Buffer.alloc(32, 1));
        const v5 = WalletContractV5R1.create({ workchain: 0, publicKey: keys.publicKey });
        const messages = Array.from({ length: 255 }, (_, i) => internal({ to: v5.address, value: 1n, body: `action ${i}` }));
        const body = v5.createTransfer({ seqno: 0, secretKey: keys.secretKey, messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
        const deploy = beginCell().store(storeMessage(external({ to: v5.address, body, init: v5.init }))).endCell();
        assert.ok(deploy.depth() <= MAX_TVM_MESSAGE_DEPTH, `a v5r1 transfer of 255 actions is ${deploy.depth()} deep`);
    });
});
