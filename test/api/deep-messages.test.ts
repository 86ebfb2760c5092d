import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Address, beginCell, Cell, contractAddress, external, internal, storeMessage, type StateInit } from '@ton/core';
import { DevnetWallet } from '../../src/chain/devnet/wallets.ts';
import { accountState } from '../../src/store/read/chain-state.ts';
import { writeBoc } from '../../src/ton/boc/boc-writer.ts';
import { MAX_TVM_MESSAGE_DEPTH } from '../../src/ton/tvm-executor.ts';
import { startDevnetService, waitForSeed, type DevnetService } from '../helpers/devnet-service.ts';
import { accountNamed, assertError, call, manifestOf, type ManifestAccount } from './api-call.ts';

/**
 * Deep messages and malformed input on every endpoint that takes a BOC: each is refused with a 400
 * that says what is wrong, and never leaves an emulator broken (the next valid request works);
 * emulator faults below the guard are survived too.
 */

let service: DevnetService;
let manifest: { accounts: ManifestAccount[] };

before(async () => {
    service = await startDevnetService();
    await waitForSeed(service);
    manifest = await manifestOf(service.base);
});

after(async () => {
    await service?.dispose();
});

const sendMessage = (boc: string) => call('sendBlockchainMessage', `${service.base}/blockchain/message`, { method: 'POST', json: { boc } });
const walletEmulate = (json: unknown) => call('emulateMessageToWallet', `${service.base}/wallet/emulate`, { method: 'POST', json });
const eventEmulate = (account: string, json: unknown) =>
    call('emulateMessageToAccountEvent', `${service.base}/accounts/${encodeURIComponent(account)}/events/emulate`, { method: 'POST', json });
const faucet = (address: string, amount: number) => call('devnetFaucet', `${service.base}/devnet/faucet`, { method: 'POST', json: { address, amount } });

/** A chain of `cells` cells, each but the last referring to the next. */
function chain(cells: number): Cell {
    let cell = beginCell().storeUint(0, 8).endCell();
    for (let i = 1; i < cells; i++) cell = beginCell().storeUint(i % 256, 8).storeRef(cell).endCell();
    return cell;
}

/** An unsigned external message to `to` whose body is a plain chain of `cells` cells. */
function chainMessage(to: Address, cells: number): Cell {
    return beginCell().store(storeMessage(external({ to, body: chain(cells) }))).endCell();
}

const base64 = (cell: Cell) => writeBoc(cell).toString('base64');

async function seqnoOf(name: string): Promise<number> {
    const entry = accountNamed(manifest, name);
    const row = await accountState(service.store.db, entry.address);
    assert.ok(row?.data, `${name} is indexed`);
    return DevnetWallet.seqnoFromData(DevnetWallet.fromManifest(entry).kind, Cell.fromBoc(row.data)[0]);
}

/** A transfer `name` signs now, with its indexed seqno: accepted by emulation and by the devnet. */
async function signedTransfer(name: string, to: string, amount = 1_000_000n): Promise<string> {
    const wallet = DevnetWallet.fromManifest(accountNamed(manifest, name));
    const message = await wallet.transfer(await seqnoOf(name), Math.floor(Date.now() / 1000) + 300, [internal({ to: Address.parseRaw(to), value: amount, bounce: false })]);
    return message.toBoc().toString('base64');
}

/** Cells in the chain; the message is one shallower (the chain's first cell is the body, inline). 290 is the first above the guard. */
const CHAIN_LENGTHS = [290, 302, 430, 436, 500, 1000, 2000];

describe('deep messages are refused before any TVM, and the next request works', () => {
    for (const cells of CHAIN_LENGTHS) {
        it(`a ${cells}-cell chain: 400 on blockchain/message, wallet/emulate and events/emulate, each followed by a valid request`, async () => {
            const alice = accountNamed(manifest, 'alice-v3r2').address;
            const bob = accountNamed(manifest, 'bob-v4r2').address;
            const deep = chainMessage(Address.parseRaw(alice), cells);
            const depth = deep.depth();
            assert.ok(depth > MAX_TVM_MESSAGE_DEPTH);
            const boc = base64(deep);

            assertError(await sendMessage(boc), 400, `${depth} cells deep`, `at most ${MAX_TVM_MESSAGE_DEPTH} cells deep`);
            const sent = await sendMessage(await signedTransfer('bob-v4r2', alice));
            assert.equal(sent.status, 200, sent.text);

            assertError(await walletEmulate({ boc }), 400, `${depth} cells deep`, `at most ${MAX_TVM_MESSAGE_DEPTH} cells deep`);
            const wallet = await walletEmulate({ boc: await signedTransfer('alice-v3r2', bob) });
            assert.equal(wallet.status, 200, wallet.text);

            assertError(await eventEmulate(alice, { boc }), 400, `${depth} cells deep`, `at most ${MAX_TVM_MESSAGE_DEPTH} cells deep`);
            const event = await eventEmulate(alice, { boc: await signedTransfer('alice-v3r2', bob) });
            assert.equal(event.status, 200, event.text);
        });
    }

    it(`a ${MAX_TVM_MESSAGE_DEPTH}-deep message is run, and refused by the wallet as an unsigned message is`, async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const boc = base64(chainMessage(Address.parseRaw(alice), MAX_TVM_MESSAGE_DEPTH + 1));
        assertError(await eventEmulate(alice, { boc }), 406, 'exit code');
        assertError(await sendMessage(boc), 400, 'did not accept');
        const event = await eventEmulate(alice, { boc: await signedTransfer('alice-v3r2', accountNamed(manifest, 'bob-v4r2').address) });
        assert.equal(event.status, 200, event.text);
    });
});

/**
 * Accepts any external message and stores the first reference of its body wrapped in 20 more
 * cells as its data (raw TVM: DROP, ACCEPT, LDREF, DROP, 20 × NEWC STREF ENDC, POPCTR c4): from a
 * message within the guard it makes a state deeper than the emulator can write out.
 */
function deepener(): StateInit {
    const code = beginCell().storeUint(0x30, 8).storeUint(0xf800, 16).storeUint(0xd4, 8).storeUint(0x30, 8);
    for (let i = 0; i < 20; i++) code.storeUint(0xc8ccc9, 24);
    return { code: code.storeUint(0xed54, 16).endCell(), data: beginCell().storeUint(Date.now(), 64).endCell() };
}

describe('an emulator fault below the guard is survived by emulation and by the devnet', () => {
    it('a deploy within the guard whose state the emulator cannot write out: 406 / 400 naming the fault, then everything works', async () => {
        const init = deepener();
        const address = contractAddress(0, init);
        const raw = address.toRawString();
        const funded = await faucet(raw, 1_000_000_000);
        assert.equal(funded.status, 200, funded.text);
        const message = beginCell().store(storeMessage(external({ to: address, init, body: beginCell().storeRef(chain(MAX_TVM_MESSAGE_DEPTH - 4)).endCell() }))).endCell();
        assert.ok(message.depth() <= MAX_TVM_MESSAGE_DEPTH);
        const boc = base64(message);

        assertError(await eventEmulate(raw, { boc }), 406, 'emulator', 'restarted');
        const event = await eventEmulate(raw, { boc: base64(beginCell().store(storeMessage(external({ to: address, init, body: beginCell().storeRef(chain(5)).endCell() }))).endCell()) });
        assert.equal(event.status, 200, event.text);

        assertError(await sendMessage(boc), 400, 'emulator', 'restarted');
        // The devnet goes on: its faucet, a transfer, and the same contract deployed with a shallow message.
        assert.equal((await faucet(raw, 1_000_000)).status, 200);
        const sent = await sendMessage(await signedTransfer('bob-v4r2', accountNamed(manifest, 'alice-v3r2').address));
        assert.equal(sent.status, 200, sent.text);
        const deployed = await sendMessage(base64(beginCell().store(storeMessage(external({ to: address, init, body: beginCell().storeRef(chain(5)).endCell() }))).endCell()));
        assert.equal(deployed.status, 200, deployed.text);
    });
});

describe('a fault in the middle of a cascade', () => {
    it('keeps the transactions made before it, drops the rest, says so in the log, and the devnet goes on', async () => {
        const warnings: string[] = [];
        service.devnet!.onWarning(message => warnings.push(message));
        const init = deepener();
        const target = contractAddress(0, init);
        // bob's wallet deploys the deepener with a body it wraps deeper than the emulator can write out:
        // the wallet's own transaction runs, the deepener's (the second of the cascade) faults.
        const wallet = DevnetWallet.fromManifest(accountNamed(manifest, 'bob-v4r2'));
        const message = await wallet.transfer(await seqnoOf('bob-v4r2'), Math.floor(Date.now() / 1000) + 300, [
            internal({ to: target, value: 100_000_000n, bounce: false, init, body: beginCell().storeRef(chain(MAX_TVM_MESSAGE_DEPTH - 4)).endCell() }),
        ]);
        assert.ok(message.depth() <= MAX_TVM_MESSAGE_DEPTH, `the wallet's message is ${message.depth()} deep`);
        const sent = await sendMessage(base64(message));
        assert.equal(sent.status, 200, sent.text);
        assert.equal(warnings.length, 1, warnings.join('\n'));
        assert.match(warnings[0], /the TVM emulator failed .*it was restarted; a message's cascade stopped after 1 transaction\(s\), which stand, and the rest of it was dropped/);
        const trace = await call('getTrace', `${service.base}/traces/${sent.body.trace_id}`);
        assert.equal(trace.status, 200, trace.text);
        assert.equal(trace.body.children?.length ?? 0, 0, 'the faulted transaction is not in the trace');
        const after = await sendMessage(await signedTransfer('bob-v4r2', accountNamed(manifest, 'alice-v3r2').address));
        assert.equal(after.status, 200, after.text);
    });
});

/** What JavaScript's own failures look like in text: none may reach a client. */
const INTERNALS = /Cannot read|properties of|undefined|is not a function|is not iterable|Maximum call stack|RangeError|TypeError|SyntaxError|ReferenceError|out of bounds|Index \d|\[object|NaN|Unexpected token|safe integer/;

/** Bag-of-cells bytes of one cell list, written by hand so that they can be wrong: [d1, d2, data…, refs…] per cell, 1-byte refs. */
function handBoc(cells: number[][], options: { roots?: number[]; cellCount?: number; totalSize?: number } = {}): string {
    const data = Buffer.from(cells.flat());
    const roots = options.roots ?? [0];
    const header = [0xb5, 0xee, 0x9c, 0x72, 0x01, 0x01, options.cellCount ?? cells.length, roots.length, 0x00, options.totalSize ?? data.length, ...roots];
    return Buffer.concat([Buffer.from(header), data]).toString('base64');
}

function crafted(valid: Buffer, wallets: { alice: Address; bobV5: Address }): Array<[string, string]> {
    const inputs: Array<[string, string]> = [];
    for (let length = 0; length < valid.length; length += 7) inputs.push([`truncated to ${length} bytes`, valid.subarray(0, length).toString('base64')]);
    const withCrc = Cell.fromBoc(valid)[0].toBoc({ idx: true, crc32: true });
    inputs.push(['CRC damaged', Buffer.concat([withCrc.subarray(0, withCrc.length - 1), Buffer.from([withCrc[withCrc.length - 1] ^ 1])]).toString('base64')]);
    inputs.push(['truncated with CRC', withCrc.subarray(0, withCrc.length - 6).toString('hex')]);
    inputs.push(['ref out of range', handBoc([[0x01, 0x02, 0xab, 0x05]])]);
    inputs.push(['ref to itself', handBoc([[0x01, 0x02, 0xab, 0x00]])]);
    inputs.push(['refs in a cycle', handBoc([[0x01, 0x00, 0x01], [0x01, 0x00, 0x00]])]);
    inputs.push(['7 refs', handBoc([[0x07, 0x00, 1, 1, 1, 1, 1, 1, 1], [0x00, 0x00]])]);
    inputs.push(['5 refs', handBoc([[0x05, 0x00, 1, 1, 1, 1, 1], [0x00, 0x00]])]);
    inputs.push(['cell count beyond the data', handBoc([[0x00, 0x00]], { cellCount: 200 })]);
    inputs.push(['root beyond the cells', handBoc([[0x00, 0x00]], { roots: [9] })]);
    inputs.push(['data size beyond the bytes', handBoc([[0x00, 0x00]], { totalSize: 250 })]);
    inputs.push(['4-byte cell count of 4 billion', Buffer.from('b5ee9c7204' + '01' + 'ffffffff' + '00000001' + '00000000' + '02' + '00000000' + '0000', 'hex').toString('base64')]);
    inputs.push(['no completion bit', handBoc([[0x00, 0x01, 0x00]])]);
    inputs.push(['exotic of unknown type', handBoc([[0x08, 0x02, 0x09]])]);
    inputs.push(['empty cell root', beginCell().endCell().toBoc().toString('base64')]);
    inputs.push(['3-bit root', beginCell().storeUint(5, 3).endCell().toBoc().toString('base64')]);
    inputs.push(['library cell root', handBoc([[0x08, 0x42, 0x02, ...new Array(32).fill(0x11)]])]);
    inputs.push(['internal header cut short', beginCell().storeUint(0, 4).storeUint(2, 2).storeUint(0, 9).endCell().toBoc().toString('base64')]);
    inputs.push(['external with bad destination tag', beginCell().storeUint(0b10, 2).storeUint(0, 2).storeUint(0b11, 2).storeUint(0, 40).endCell().toBoc().toString('base64')]);
    inputs.push(['StateInit reference missing', beginCell().storeUint(0b10, 2).storeUint(0, 2).storeUint(0b100, 3).storeUint(0, 8).storeBuffer(Buffer.alloc(32)).storeUint(0, 4).storeUint(0b11, 2).endCell().toBoc().toString('base64')]);
    inputs.push(['two roots', Buffer.from('b5ee9c72010202000400000100000000', 'hex').toString('base64')]);
    for (const junk of ['@@@@', '====', 'te6cc', 'te6ccgEB', '\u{1F600}', 'A'.repeat(300), 'b5ee9c7', '%%%%%%', 'te6ccgEBAQEAAgAAAA==', 'QUJD']) inputs.push([`text ${JSON.stringify(junk.slice(0, 12))}`, junk]);
    // Wallet bodies that are not what the wallet reads (risk reads them before emulating).
    const signedPrefix = () => beginCell().storeBuffer(Buffer.alloc(64)).storeUint(698983191, 32).storeUint(Math.floor(Date.now() / 1000) + 300, 32).storeUint(0, 32);
    for (const [what, body] of [
        ['v3 body with a 3-bit message', signedPrefix().storeUint(3, 8).storeRef(beginCell().storeUint(5, 3).endCell()).endCell()],
        ['v3 body cut short', beginCell().storeBuffer(Buffer.alloc(10)).endCell()],
        ['v3 body with a mode and no message', signedPrefix().storeUint(3, 8).endCell()],
        ['v5 body cut short', beginCell().storeUint(0x7369676e, 32).storeUint(5, 10).endCell()],
    ] as const) inputs.push([what, base64(beginCell().store(storeMessage(external({ to: wallets.alice, body }))).endCell())]);
    inputs.push(['v5 body cut short, to a v5 wallet', base64(beginCell().store(storeMessage(external({ to: wallets.bobV5, body: beginCell().storeUint(0x7369676e, 32).storeUint(5, 10).endCell() }))).endCell())]);
    for (let i = 0; i < 60; i++) {
        const damaged = Buffer.from(valid);
        damaged[(i * 37) % damaged.length] ^= 1 << (i % 8);
        damaged[(i * 11 + 3) % damaged.length] = (i * 53) & 0xff;
        inputs.push([`damaged #${i}`, damaged.toString('base64')]);
    }
    return inputs;
}

describe('4xx answers say what is wrong with the input, never what went wrong inside', () => {
    it('crafted BOCs on every BOC-taking endpoint: 4xx (or a result), no JavaScript internals, and the emulators still work', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const valid = Buffer.from(await signedTransfer('alice-v3r2', bob), 'base64');
        for (const [what, boc] of crafted(valid, { alice: Address.parseRaw(alice), bobV5: Address.parseRaw(accountNamed(manifest, 'bob-v5r1').address) })) {
            for (const [endpoint, response] of [
                ['blockchain/message', await sendMessage(boc)],
                ['wallet/emulate', await walletEmulate({ boc })],
                ['events/emulate', await eventEmulate(alice, { boc })],
            ] as const) {
                assert.ok(response.status < 500, `${endpoint} ${what}: ${response.status} ${response.text}`);
                if (response.status >= 400) assert.doesNotMatch(response.body.error, INTERNALS, `${endpoint} ${what}: ${response.body.error}`);
            }
        }
        const event = await eventEmulate(alice, { boc: await signedTransfer('alice-v3r2', bob) });
        assert.equal(event.status, 200, event.text);
        const sent = await sendMessage(await signedTransfer('bob-v4r2', alice));
        assert.equal(sent.status, 200, sent.text);
    });

    it('the answers name the problem: bad references, cut bags, junk text, non-message roots', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        assertError(await sendMessage(handBoc([[0x01, 0x02, 0xab, 0x05]])), 400, 'cell 0 refers to cell 5, but the bag holds only 1 cell');
        assertError(await walletEmulate({ boc: handBoc([[0x01, 0x00, 0x01], [0x01, 0x00, 0x00]]) }), 400, 'cell 1 refers to cell 0, which comes before it');
        assertError(await eventEmulate(alice, { boc: handBoc([[0x00, 0x00]], { totalSize: 250 }) }), 400, 'announces 250 bytes of cell data', 'cut short');
        assertError(await eventEmulate(alice, { boc: 'te6ccgEB' }), 400, 'not a valid bag of cells', 'inside its header');
        assertError(await walletEmulate({ boc: beginCell().storeUint(5, 3).endCell().toBoc().toString('base64') }), 400, 'not a message', 'runs past the end of the cell');
        assertError(await sendMessage(handBoc([[0x08, 0x42, 0x02, ...new Array(32).fill(0x11)]])), 400, 'its root is a library cell');
    });

    it('addresses outside int8 workchains are 400 where they are given (params, override, path, faucet), not 500', async () => {
        const alice = accountNamed(manifest, 'alice-v3r2').address;
        const bob = accountNamed(manifest, 'bob-v4r2').address;
        const boc = await signedTransfer('alice-v3r2', bob);
        const hash = 'ab'.repeat(32);
        for (const workchain of ['128', '-129', '2147483647', '-2147483648']) {
            const address = `${workchain}:${hash}`;
            assertError(await walletEmulate({ boc, params: [{ address, balance: 5 }] }), 400, `params[].address '${address}'`, '-128..127');
            assertError(await walletEmulate({ boc, address_override: address }), 400, `address_override '${address}'`, '-128..127');
            assertError(await eventEmulate(address, { boc }), 400, address, '-128..127');
            assertError(await faucet(address, 1000), 400, address, '-128..127');
            const transactions = await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${encodeURIComponent(address)}/transactions`);
            assertError(transactions, 400, address, '-128..127');
        }
        // In range but not a chain workchain: still a 400, from the emulation's own check.
        assertError(await walletEmulate({ boc, params: [{ address: `127:${hash}`, balance: 5 }], address_override: `127:${hash}` }), 400, 'workchain 127');
        const fine = await walletEmulate({ boc, params: [{ address: alice, balance: 10 ** 12 }] });
        assert.equal(fine.status, 200, fine.text);
    });

    it('junk ids on id-taking endpoints: 400 naming the value, no internals', async () => {
        const ids = [' ', 'x'.repeat(500), '0:', '0:zz', `0:${'a'.repeat(65)}`, 'EQ'.padEnd(48, '_'), '99999999999:1', '%00', '\u{1F600}'];
        for (const id of ids) {
            for (const response of [
                await call('getBlockchainAccountTransactions', `${service.base}/blockchain/accounts/${encodeURIComponent(id)}/transactions`),
                await call('getTrace', `${service.base}/traces/${encodeURIComponent(id)}`),
                await call('getBlockchainBlockTransactions', `${service.base}/blockchain/blocks/${encodeURIComponent(id)}/transactions`),
            ]) {
                assert.ok(response.status >= 400 && response.status < 500, `${JSON.stringify(id)}: ${response.status} ${response.text}`);
                assert.doesNotMatch(response.body.error, INTERNALS, `${JSON.stringify(id)}: ${response.body.error}`);
            }
        }
    });
});

