import test from 'node:test';
import assert from 'node:assert/strict';
import { Cell, Dictionary, beginCell } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { defaultConfig } from '@ton/sandbox';
import {
    GET_METHOD_CONFIG_PARAMS,
    GetMethodRunner,
    trimConfig,
    trimmedDefaultConfig,
    type GetMethodAccount,
} from '../../../src/ton/interfaces/get-method-runner.ts';
import { methodId } from '../../../src/ton/interfaces/get-methods.ts';
import { assemble, libraryCell, testAddress } from './helpers.ts';

const KEY = Buffer.from('f0'.repeat(32), 'hex');
const v4 = WalletContractV4.create({ workchain: 0, publicKey: KEY, walletId: 77 });
const v4Account: GetMethodAccount = { address: v4.address, code: v4.init.code, data: v4.init.data, balance: 10n ** 9n };
const runnerPromise = GetMethodRunner.create();

test('runs real wallet get-methods with typed results', async () => {
    const runner = await runnerPromise;
    const key = await runner.run(v4Account, 'get_public_key');
    assert.ok(key.ok);
    assert.equal(key.exitCode, 0);
    assert.ok(key.gasUsed > 0n);
    assert.equal(key.reader().readBigNumber(), BigInt('0x' + KEY.toString('hex')));
    assert.equal(key.reader().readBigNumber(), BigInt('0x' + KEY.toString('hex')), 'each reader starts at the top');

    const seqno = await runner.run(v4Account, methodId('seqno'));
    assert.ok(seqno.ok);
    assert.equal(seqno.reader().readNumber(), 0);

    const subwallet = await runner.run(v4Account, 'get_subwallet_id');
    assert.ok(subwallet.ok);
    assert.equal(subwallet.reader().readNumber(), 77);

    // arguments: is_plugin_installed(wc, addr_hash)
    const installed = await runner.run(v4Account, 'is_plugin_installed', [
        { type: 'int', value: 0n },
        { type: 'int', value: 123n },
    ]);
    assert.ok(installed.ok);
    assert.equal(installed.reader().readBoolean(), false);
});

test('failures are results: missing method, junk code and data, out of gas, unreadable stack', async () => {
    const runner = await runnerPromise;
    const missing = await runner.run(v4Account, 'get_jetton_data');
    assert.equal(missing.ok, false);
    assert.equal(missing.exitCode, 11);

    const junkData = await runner.run({ ...v4Account, data: Cell.EMPTY }, 'get_public_key');
    assert.equal(junkData.ok, false);
    assert.equal(junkData.exitCode, 9, 'cell underflow');

    const junkCode = await runner.run({ ...v4Account, code: beginCell().storeUint(0xdeadbeef, 32).endCell() }, 'seqno');
    assert.equal(junkCode.ok, false);

    const loop = assemble({ 0: 'DROP', 70000: 'PUSHCONT {\n    NOP\n}\nAGAIN' });
    const started = performance.now();
    const outOfGas = await runner.run({ ...v4Account, code: loop }, 70000, [], { gasLimit: 50_000n });
    assert.equal(outOfGas.ok, false);
    assert.equal(outOfGas.exitCode, -14);
    assert.ok(outOfGas.gasUsed !== null && outOfGas.gasUsed <= 50_010n);
    assert.ok(performance.now() - started < 1000);

    // a continuation on the result stack cannot be represented as a TupleItem
    const cont = assemble({ 0: 'DROP', 70000: 'PUSHCONT {\n    NOP\n}' });
    const unreadable = await runner.run({ ...v4Account, code: cont }, 70000);
    assert.equal(unreadable.ok, false);
    assert.match(unreadable.ok ? '' : unreadable.error, /unreadable stack/);

    // empty code "succeeds" (the method id is left on the stack): callers must check types
    const empty = await runner.run({ ...v4Account, code: Cell.EMPTY }, 'seqno');
    assert.ok(empty.ok);
    assert.deepEqual(empty.stack, [{ type: 'int', value: BigInt(methodId('seqno')) }]);
});

test('library code runs when the runner has the library, fails cleanly otherwise', async () => {
    const runner = await runnerPromise;
    const account = { ...v4Account, code: libraryCell(v4.init.code) };
    const without = await runner.run(account, 'seqno');
    assert.equal(without.ok, false);
    assert.match(without.ok ? '' : without.error, /missing library/);

    const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    libs.set(v4.init.code.hash(), v4.init.code);
    const withLibs = await GetMethodRunner.create({ libs: beginCell().storeDictDirect(libs).endCell() });
    const ok = await withLibs.run(account, 'get_subwallet_id');
    assert.ok(ok.ok);
    assert.equal(ok.reader().readNumber(), 77);
    assert.ok(withLibs.libraries(v4.init.code.hash())?.equals(v4.init.code));

    withLibs.setLibraries(null);
    assert.equal((await withLibs.run(account, 'seqno')).ok, false);
});

test('the trimmed config keeps what get-methods read, and is faster', async (t) => {
    const trimmed = await trimmedDefaultConfig();
    const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(trimmed));
    const full = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), Cell.fromBase64(defaultConfig));
    const expected = GET_METHOD_CONFIG_PARAMS.filter((p) => full.has(p)); // the default config has no param 43
    assert.deepEqual(params.keys().sort((a, b) => a - b), [...expected].sort((a, b) => a - b));
    for (const p of params.keys()) assert.ok(params.get(p)!.equals(full.get(p)!));
    t.diagnostic(`config BOC: full ${Cell.fromBase64(defaultConfig).toBoc().length} bytes, trimmed ${Cell.fromBase64(trimmed).toBoc().length} bytes`);
    assert.throws(() => trimConfig(defaultConfig, [9999]));

    const fast = await runnerPromise;
    const slow = await GetMethodRunner.create({ config: defaultConfig });

    // fee instructions (unpacked config in c7), global id, now/balance/address: same answers
    const probe = assemble({
        0: 'DROP',
        70000: [
            'PUSHINT_16 1000', 'PUSHINT_4 0', 'GETGASFEE',
            'PUSHINT_16 1000', 'PUSHINT_LONG 100000', 'PUSHINT_4 0', 'GETFORWARDFEE',
            'GLOBALID',
            'PUSHINT_16 100', 'PUSHINT_16 10000', 'PUSHINT_16 3600', 'PUSHINT_4 0', 'GETSTORAGEFEE',
            'NOW', 'BALANCE', 'MYADDR',
        ].join('\n'),
    });
    const account = { address: testAddress(3), code: probe, data: Cell.EMPTY, balance: 555n };
    const a = await fast.run(account, 70000, [], { now: 1_700_000_000 });
    const b = await slow.run(account, 70000, [], { now: 1_700_000_000 });
    assert.ok(a.ok && b.ok);
    assert.equal(show(a.stack), show(b.stack));
    const r = a.reader();
    assert.equal(r.readBigNumber(), 400_000n, 'basechain gas price 400 nanoton/gas');
    r.skip(1);
    assert.equal(r.readNumber(), -239, 'mainnet global id');
    r.skip(1);
    assert.equal(r.readNumber(), 1_700_000_000);

    const time = async (runner: GetMethodRunner, n: number) => {
        for (let i = 0; i < 20; i++) await runner.run(v4Account, 'get_public_key'); // warm-up (JIT, emulator)
        const started = performance.now();
        for (let i = 0; i < n; i++) await runner.run(v4Account, 'get_public_key');
        return (performance.now() - started) / n;
    };
    const fullMs = await time(slow, 30);
    const trimmedMs = await time(fast, 300);
    t.diagnostic(`get_public_key on wallet v4r2: full config ${fullMs.toFixed(3)} ms/call, trimmed ${trimmedMs.toFixed(3)} ms/call (${(fullMs / trimmedMs).toFixed(1)}x)`);
    assert.ok(trimmedMs * 2 < fullMs, `trimmed ${trimmedMs} ms vs full ${fullMs} ms`);
});

function show(value: unknown): string {
    return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Cell ? v.toBoc().toString('hex') : v));
}
