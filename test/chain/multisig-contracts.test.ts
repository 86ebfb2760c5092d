import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Address, Cell, Dictionary, beginCell, internal, type TupleItem } from '@ton/core';
import { Blockchain, GetMethodError, createShardAccount, type SandboxContract, type TreasuryContract } from '@ton/sandbox';
import { contractArtifact } from '../../src/chain/devnet/contracts/artifacts.ts';
import {
    MULTISIG_EXIT,
    multisigAddress,
    multisigApproveBody,
    multisigNewOrderBody,
    multisigOrderAddress,
    multisigOrderCell,
    multisigOrderCode,
    multisigOrderLibraries,
    multisigOrderLibraryCell,
    multisigOrderStateInit,
    multisigSignersCell,
    multisigStateInit,
    multisigTextApproveBody,
    type MultisigAction,
    type MultisigConfig,
} from '../../src/chain/devnet/contracts/multisig-v2.ts';
import { commentCell } from '../../src/chain/devnet/contracts/payload.ts';
import { knownCode, knownCodeByHash } from '../../src/ton/interfaces/known-code.ts';
import { describeTx, type Executed } from './executed-transaction.ts';

const GRAM = 1_000_000_000n;
const UTIME = 1_751_461_310;
const ROOT = join(import.meta.dirname, '..', '..');

/** Op codes as mainnet's multisig v2 defines them (written out here, not taken from multisig-v2.ts). */
const OP = {
    newOrder: 0xf718510f,
    init: 0x9c73fba2,
    approve: 0xa762230f,
    approveAccepted: 0x82609bf6,
    approveRejected: 0xafaf283e,
    execute: 0x75097f5d,
    executeInternal: 0xa32c59bf,
    text: 0,
} as const;




function txsOf(txs: Executed[], account: Address): Executed[] {
    return txs.filter(t => t.account === account.toRawString());
}

/** The one transaction of `account` whose inbound op is `op`. */
function txOf(txs: Executed[], account: Address, op: number): Executed {
    const found = txs.filter(t => t.account === account.toRawString() && t.op === op);
    assert.equal(found.length, 1, `one tx of ${account.toRawString()} with op 0x${op.toString(16)}; got ${txs.map(t => `${t.account.slice(0, 8)}/${t.op?.toString(16)}/${t.exitCode}`).join(', ')}`);
    return found[0];
}

function assertOk(tx: Executed): void {
    assert.ok(tx.success, `tx of ${tx.account} op 0x${tx.op?.toString(16)} failed with exit ${tx.exitCode}`);
}

function assertExit(tx: Executed, exitCode: number): void {
    assert.equal(tx.exitCode, exitCode, `exit code of op 0x${tx.op?.toString(16)}`);
    assert.equal(tx.success, exitCode === 0 || exitCode === 1);
}

/** approve_rejected's exit_code. */
function rejectedCode(body: Cell): number {
    const s = body.beginParse();
    assert.equal(s.loadUint(32), OP.approveRejected);
    s.loadUintBig(64);
    const code = s.loadUint(32);
    s.endParse();
    return code;
}

function queryIdOf(body: Cell): bigint {
    const s = body.beginParse();
    s.loadUint(32);
    return s.loadUintBig(64);
}

/** `order_code()`'s cell per mainnet's order_code.func: exotic, `2:uint8` then the code's hash. */
function libraryCellOf(code: Cell): Cell {
    return beginCell().storeUint(2, 8).storeBuffer(code.hash()).endCell({ exotic: true });
}

function addressesOf(dict: Cell | null): string[] {
    if (!dict) return [];
    return Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), dict).values().map(a => a.toRawString());
}

/** `const NAME = 123` from contracts/multisig-v2.tolk. */
function tolkConstant(name: string): bigint {
    const m = readFileSync(join(ROOT, 'contracts', 'multisig-v2.tolk'), 'utf8').match(new RegExp(`const ${name} = (\\d+)`));
    assert.ok(m, name);
    return BigInt(m[1]);
}

const sendAction = (to: Address, value: bigint, mode: number, text?: string): MultisigAction => ({
    type: 'send_message',
    mode,
    message: internal({ to, value, bounce: false, body: text === undefined ? undefined : commentCell(text) }),
});

describe('devnet multisig v2: TypeScript side', () => {
    test('the order library cell is mainnet\'s order_code() shape for our order code', () => {
        const lib = multisigOrderLibraryCell();
        assert.ok(lib.isExotic);
        assert.equal(lib.bits.length, 8 + 256);
        assert.ok(lib.equals(libraryCellOf(multisigOrderCode())));
    });

    test('the multisig embeds the hash of the order artifact (contracts/common/multisig-order-code.tolk)', () => {
        const source = readFileSync(join(ROOT, 'contracts', 'common', 'multisig-order-code.tolk'), 'utf8');
        const hash = contractArtifact('multisig-order-v2').codeHashHex;
        const constant = source.match(/const MULTISIG_ORDER_CODE_HASH = 0x([0-9a-f]{64})/);
        assert.ok(constant, 'MULTISIG_ORDER_CODE_HASH');
        assert.equal(constant[1], hash, 'run npm run build:contracts, update multisig-order-code.tolk, build again');
        const asm = source.match(/<b 2 8 u, 0x([0-9a-f]{64}) 256 u, b>spec PUSHREF/);
        assert.ok(asm, 'orderCodeLibraryCell');
        assert.equal(asm[1], hash);
    });

    test('interface detection knows the multisig, the order code and the order accounts\' library code', () => {
        assert.deepEqual(knownCodeByHash(contractArtifact('multisig-v2').codeHashHex)?.interfaces, ['multisig_v2']);
        assert.deepEqual(knownCodeByHash(contractArtifact('multisig-order-v2').codeHashHex)?.interfaces, ['multisig_order_v2']);
        assert.deepEqual(knownCodeByHash(multisigOrderLibraryCell().hash().toString('hex'))?.interfaces, ['multisig_order_v2']);
        assert.deepEqual(knownCode(multisigOrderLibraryCell())?.interfaces, ['multisig_order_v2']);
    });

    test('multisig data: next_order_seqno threshold ^signers signers_num proposers allow_arbitrary_order_seqno', () => {
        const a = new Address(0, Buffer.alloc(32, 1));
        const b = new Address(0, Buffer.alloc(32, 2));
        const p = new Address(0, Buffer.alloc(32, 3));
        const s = multisigStateInit({ threshold: 2, signers: [a, b], proposers: [p], allowArbitrarySeqno: true }).data!.beginParse();
        assert.equal(s.loadUintBig(256), 0n);
        assert.equal(s.loadUint(8), 2);
        assert.deepEqual(addressesOf(s.loadRef()), [a.toRawString(), b.toRawString()]);
        assert.equal(s.loadUint(8), 2);
        assert.deepEqual(addressesOf(s.loadMaybeRef()), [p.toRawString()]);
        assert.equal(s.loadBit(), true);
        s.endParse();
        assert.throws(() => multisigStateInit({ threshold: 3, signers: [a, b], proposers: [], allowArbitrarySeqno: false }));
        assert.throws(() => multisigStateInit({ threshold: 1, signers: [], proposers: [], allowArbitrarySeqno: false }));
    });

    test('order StateInit: library code, data = multisig_address order_seqno:uint256', () => {
        const ms = new Address(0, Buffer.alloc(32, 7));
        const init = multisigOrderStateInit(ms, 5n);
        assert.ok(init.code!.equals(multisigOrderLibraryCell()));
        const s = init.data!.beginParse();
        assert.ok(s.loadAddress().equals(ms));
        assert.equal(s.loadUintBig(256), 5n);
        s.endParse();
    });
});

describe('devnet multisig v2 on the TVM', () => {
    let chain: Blockchain;
    const t: SandboxContract<TreasuryContract>[] = [];
    let proposer: SandboxContract<TreasuryContract>;
    let stranger: SandboxContract<TreasuryContract>;
    let dest1: SandboxContract<TreasuryContract>;
    let dest2: SandboxContract<TreasuryContract>;

    const send = async (from: SandboxContract<TreasuryContract>, to: Address, value: bigint, body?: Cell, init?: { code: Cell; data: Cell }) => {
        const result = await from.send({ to, value, body, init, bounce: true });
        return result.transactions.map(describeTx).slice(1);
    };

    const get = async (address: Address, method: string, args: TupleItem[] = []) => {
        const result = await chain.runGetMethod(address, method, args);
        assert.equal(result.exitCode, 0, `${method} exit code`);
        return result;
    };

    const getExitCode = async (address: Address, method: string, args: TupleItem[] = []) => {
        try {
            return (await chain.runGetMethod(address, method, args)).exitCode;
        } catch (e) {
            if (e instanceof GetMethodError) return e.exitCode;
            throw e;
        }
    };

    /** Deploys a multisig (its StateInit with a top-up). Every test uses a config of its own (the address follows from it). */
    const deploy = async (config: MultisigConfig): Promise<Address> => {
        const full: MultisigConfig = { ...config, nextOrderSeqno: 0n };
        const address = multisigAddress(full);
        assert.equal((await chain.getContract(address)).accountState?.type ?? 'uninit', 'uninit', 'a multisig of its own');
        const txs = await send(stranger, address, 5n * GRAM, undefined, multisigStateInit(full) as { code: Cell; data: Cell });
        assertOk(txsOf(txs, address)[0]);
        return address;
    };

    const multisigData = async (ms: Address) => {
        const r = (await get(ms, 'get_multisig_data')).stackReader;
        return { nextOrderSeqno: r.readBigNumber(), threshold: r.readNumber(), signers: r.readCell(), proposers: r.readCellOpt() };
    };

    const orderData = async (order: Address) => {
        const result = await get(order, 'get_order_data');
        const types = result.stack.map(i => i.type);
        const r = result.stackReader;
        return {
            types,
            multisig: r.readAddress(),
            orderSeqno: r.readBigNumber(),
            threshold: r.readNumberOpt(),
            sentForExecution: r.readBooleanOpt(),
            signers: r.readCellOpt(),
            approvalsMask: r.readBigNumberOpt(),
            approvalsNum: r.readNumberOpt(),
            expirationDate: r.readNumberOpt(),
            order: r.readCellOpt(),
        };
    };

    const propose = async (
        from: SandboxContract<TreasuryContract>,
        ms: Address,
        o: { isSigner: boolean; index: number; order: Cell | MultisigAction[]; expirationDate?: number; orderSeqno?: bigint; value?: bigint; queryId?: bigint },
    ) => send(from, ms, o.value ?? GRAM, multisigNewOrderBody({ expirationDate: chain.now! + 3600, ...o }));

    before(async () => {
        chain = await Blockchain.create();
        chain.now = UTIME;
        chain.libs = multisigOrderLibraries();
        for (let i = 0; i < 5; i++) t.push(await chain.treasury(`signer ${i}`));
        proposer = await chain.treasury('proposer');
        stranger = await chain.treasury('stranger');
        dest1 = await chain.treasury('destination 1');
        dest2 = await chain.treasury('destination 2');
    });

    test('get_multisig_data and get_order_address (= the TS computation)', async () => {
        const ms = await deploy({ threshold: 2, signers: [t[0].address, t[1].address, t[2].address], proposers: [proposer.address], allowArbitrarySeqno: false });
        const data = await multisigData(ms);
        assert.equal(data.nextOrderSeqno, 0n);
        assert.equal(data.threshold, 2);
        assert.ok(data.signers.equals(multisigSignersCell([t[0].address, t[1].address, t[2].address])));
        assert.deepEqual(addressesOf(data.proposers), [proposer.address.toRawString()]);
        for (const seqno of [0n, 1n, 123_456_789n, (1n << 256n) - 2n]) {
            const r = (await get(ms, 'get_order_address', [{ type: 'int', value: seqno }])).stackReader;
            assert.ok(r.readAddress().equals(multisigOrderAddress(ms, seqno)), `seqno ${seqno}`);
        }
        const types = (await get(ms, 'get_multisig_data')).stack.map(i => i.type);
        assert.deepEqual(types, ['int', 'int', 'cell', 'cell']);

        // arbitrary-seqno mode answers -1; no proposers: null
        const arbitrary = await deploy({ threshold: 1, signers: [t[3].address], proposers: [], allowArbitrarySeqno: true });
        const a = await multisigData(arbitrary);
        assert.equal(a.nextOrderSeqno, -1n);
        assert.equal(a.proposers, null);
        assert.deepEqual((await get(arbitrary, 'get_multisig_data')).stack.map(i => i.type), ['int', 'int', 'cell', 'null']);
    });

    test('2-of-3: a signer\'s proposal is its approval (no approve_accepted), a second approval executes the messages with their modes', async () => {
        const signers = [t[0].address, t[1].address, t[2].address];
        const ms = await deploy({ threshold: 2, signers, proposers: [], allowArbitrarySeqno: false });
        const order = multisigOrderAddress(ms, 0n);
        const actions = [sendAction(dest1.address, GRAM / 10n, 1, 'first'), sendAction(dest2.address, GRAM / 5n, 0, 'second')];
        const expirationDate = UTIME + 3600;
        const proposal = await propose(t[1], ms, { isSigner: true, index: 1, order: actions, expirationDate, queryId: 42n });
        const newOrder = txOf(proposal, ms, OP.newOrder);
        assertOk(newOrder);
        assert.equal(newOrder.out.length, 1);
        assert.equal(newOrder.out[0].to, order.toRawString());
        assert.equal(newOrder.out[0].op, OP.init);
        assert.equal(newOrder.out[0].bounce, true);
        const init = txOf(proposal, order, OP.init);
        assertOk(init);
        assert.deepEqual(init.out, [], 'no approve_accepted for the proposal');
        assert.equal(queryIdOf(init.body!), 42n);

        const state = (await chain.getContract(order)).accountState;
        assert.equal(state?.type, 'active');
        assert.ok(state.type === 'active' && state.state.code!.equals(multisigOrderLibraryCell()), 'the order\'s code is the library cell');

        const d = await orderData(order);
        assert.deepEqual(d.types, ['slice', 'int', 'int', 'int', 'cell', 'int', 'int', 'int', 'cell']);
        assert.ok(d.multisig.equals(ms));
        assert.equal(d.orderSeqno, 0n);
        assert.equal(d.threshold, 2);
        assert.equal(d.sentForExecution, false);
        assert.ok(d.signers!.equals(multisigSignersCell(signers)));
        assert.equal(d.approvalsMask, 2n);
        assert.equal(d.approvalsNum, 1);
        assert.equal(d.expirationDate, expirationDate);
        assert.ok(d.order!.equals(multisigOrderCell(actions)));
        assert.equal((await multisigData(ms)).nextOrderSeqno, 1n);

        // signer 0 approves by op: approve_accepted, then execute with the whole balance
        const approval = await send(t[0], order, GRAM / 10n, multisigApproveBody(0, 7n));
        const approve = txOf(approval, order, OP.approve);
        assertOk(approve);
        assert.deepEqual(approve.out.map(o => [o.to, o.op, o.bounce]), [
            [t[0].address.toRawString(), OP.approveAccepted, false],
            [ms.toRawString(), OP.execute, false],
        ]);
        assert.equal(queryIdOf(approve.out[0].body), 7n);
        assert.equal((await chain.getContract(order)).balance, 0n, 'execute carries the whole balance');
        const execute = txOf(approval, ms, OP.execute);
        assertOk(execute);
        const s = approve.out[1].body.beginParse();
        s.skip(32 + 64);
        assert.equal(s.loadUintBig(256), 0n);
        assert.equal(s.loadUint(48), expirationDate);
        assert.equal(s.loadUint(8), 2);
        assert.equal(s.loadBuffer(32).toString('hex'), multisigSignersCell(signers).hash().toString('hex'));
        assert.ok(s.loadRef().equals(multisigOrderCell(actions)));
        // the messages in action order; mode 1 pays the fees apart (exact value), mode 0 takes them from the value
        assert.deepEqual(execute.out.map(o => o.to), [dest1.address.toRawString(), dest2.address.toRawString()]);
        assert.equal(execute.out[0].value, GRAM / 10n);
        assert.ok(execute.out[1].value < GRAM / 5n && execute.out[1].value > GRAM / 5n - GRAM / 100n);
        assert.equal(txsOf(approval, dest1.address).length, 1);
        assert.equal(txsOf(approval, dest2.address).length, 1);

        // the order processing cost's gas constants (mainnet's) cover what our contracts spend
        assert.ok(newOrder.gasUsed <= tolkConstant('MULTISIG_INIT_ORDER_GAS'), `new_order gas ${newOrder.gasUsed}`);
        assert.ok(init.gasUsed <= tolkConstant('ORDER_INIT_GAS'), `init gas ${init.gasUsed}`);
        assert.ok(approve.gasUsed <= tolkConstant('ORDER_EXECUTE_GAS'), `approve gas ${approve.gasUsed}`);
        assert.ok(execute.gasUsed <= tolkConstant('MULTISIG_EXECUTE_GAS'), `execute gas ${execute.gasUsed}`);
        const after = await orderData(order);
        assert.equal(after.sentForExecution, true);
        assert.equal(after.approvalsMask, 3n);
        assert.equal(after.approvalsNum, 2);

        // a later approval is rejected with 112, the order unchanged
        const late = await send(t[2], order, GRAM / 10n, multisigApproveBody(2, 8n));
        const lateTx = txOf(late, order, OP.approve);
        assertOk(lateTx);
        assert.equal(lateTx.out.length, 1);
        assert.equal(lateTx.out[0].to, t[2].address.toRawString());
        assert.equal(rejectedCode(lateTx.out[0].body), MULTISIG_EXIT.alreadyExecuted);
        assert.equal(queryIdOf(lateTx.out[0].body), 8n);
        assert.equal((await orderData(order)).approvalsMask, 3n);
    });

    test('3-of-5: approvals by text "approve" (one cell and snake-split), double approval 107, other texts 0xffff', async () => {
        const signers = t.map(s => s.address);
        const ms = await deploy({ threshold: 3, signers, proposers: [], allowArbitrarySeqno: false });
        const order = multisigOrderAddress(ms, 0n);
        const proposal = await propose(t[4], ms, { isSigner: true, index: 4, order: [sendAction(dest1.address, GRAM / 2n, 1)] });
        assertOk(txOf(proposal, order, OP.init));
        assert.equal((await orderData(order)).approvalsMask, 1n << 4n);

        const text = await send(t[0], order, GRAM / 10n, multisigTextApproveBody());
        const textTx = txOf(text, order, OP.text);
        assertOk(textTx);
        assert.deepEqual(textTx.out.map(o => [o.to, o.op]), [[t[0].address.toRawString(), OP.approveAccepted]]);
        assert.equal(queryIdOf(textTx.out[0].body), textTx.lt, 'query_id = the order transaction\'s lt');
        assert.equal((await orderData(order)).approvalsMask, (1n << 4n) | 1n);

        // signer 0 again, by op: 107, nothing changes
        const again = await send(t[0], order, GRAM / 10n, multisigApproveBody(0));
        const againTx = txOf(again, order, OP.approve);
        assertOk(againTx);
        assert.equal(rejectedCode(againTx.out[0].body), MULTISIG_EXIT.alreadyApproved);
        assert.equal((await orderData(order)).approvalsNum, 2);

        // other texts, from a signer: 0xffff (the value bounces)
        for (const body of [commentCell('approve!'), commentCell('Approve'), commentCell('appro')]) {
            const wrong = await send(t[1], order, GRAM / 10n, body);
            assertExit(txOf(wrong, order, OP.text), MULTISIG_EXIT.unknownOp);
        }
        // "approve" from someone who is not a signer: 106
        const notSigner = await send(stranger, order, GRAM / 10n, multisigTextApproveBody());
        assertExit(txOf(notSigner, order, OP.text), MULTISIG_EXIT.unauthorizedSign);

        // "app" + ^"ro" + ^"ve": the third approval executes
        const split = beginCell().storeUint(0, 32).storeStringTail('app')
            .storeRef(beginCell().storeStringTail('ro').storeRef(beginCell().storeStringTail('ve'))).endCell();
        const last = await send(t[2], order, GRAM / 10n, split);
        const lastTx = txOf(last, order, OP.text);
        assertOk(lastTx);
        assert.deepEqual(lastTx.out.map(o => [o.to, o.op]), [[t[2].address.toRawString(), OP.approveAccepted], [ms.toRawString(), OP.execute]]);
        assertOk(txOf(last, ms, OP.execute));
        assert.equal(txOf(last, ms, OP.execute).out[0].to, dest1.address.toRawString());
        const d = await orderData(order);
        assert.equal(d.approvalsMask, (1n << 4n) | 1n | 4n);
        assert.equal(d.approvalsNum, 3);
        assert.equal(d.sentForExecution, true);
    });

    test('proposers propose (no approval) but cannot approve; unknown signers 106, wrong sender 1007', async () => {
        const signers = [t[0].address, t[1].address, t[2].address];
        const ms = await deploy({ threshold: 2, signers, proposers: [t[3].address, proposer.address], allowArbitrarySeqno: false });
        const order = multisigOrderAddress(ms, 0n);
        const proposal = await propose(proposer, ms, { isSigner: false, index: 1, order: [sendAction(dest1.address, GRAM / 10n, 1)] });
        assertOk(txOf(proposal, order, OP.init));
        const d = await orderData(order);
        assert.equal(d.approvalsMask, 0n);
        assert.equal(d.approvalsNum, 0);

        // a proposer approving: by op with any index, or by text: 106
        for (const index of [0, 1]) {
            assertExit(txOf(await send(proposer, order, GRAM / 10n, multisigApproveBody(index)), order, OP.approve), MULTISIG_EXIT.unauthorizedSign);
        }
        assertExit(txOf(await send(proposer, order, GRAM / 10n, multisigTextApproveBody()), order, OP.text), MULTISIG_EXIT.unauthorizedSign);
        // an index with no signer: 106
        assertExit(txOf(await send(t[0], order, GRAM / 10n, multisigApproveBody(7)), order, OP.approve), MULTISIG_EXIT.unauthorizedSign);
        // a signer giving another signer's index: 106
        assertExit(txOf(await send(t[0], order, GRAM / 10n, multisigApproveBody(1)), order, OP.approve), MULTISIG_EXIT.unauthorizedSign);
        assert.equal((await orderData(order)).approvalsNum, 0);

        // new_order: a proposer claiming a signer index, a stranger, a missing index: 1007
        assertExit(txOf(await propose(proposer, ms, { isSigner: true, index: 1, order: [sendAction(dest1.address, 1n, 1)] }), ms, OP.newOrder), MULTISIG_EXIT.unauthorizedNewOrder);
        assertExit(txOf(await propose(stranger, ms, { isSigner: false, index: 0, order: [sendAction(dest1.address, 1n, 1)] }), ms, OP.newOrder), MULTISIG_EXIT.unauthorizedNewOrder);
        assertExit(txOf(await propose(t[0], ms, { isSigner: false, index: 2, order: [sendAction(dest1.address, 1n, 1)] }), ms, OP.newOrder), MULTISIG_EXIT.unauthorizedNewOrder);
        assert.equal((await multisigData(ms)).nextOrderSeqno, 1n, 'refused proposals do not take a seqno');

        // two signers approve the proposer's order: executed
        assertOk(txOf(await send(t[2], order, GRAM / 10n, multisigApproveBody(2)), order, OP.approve));
        const last = await send(t[0], order, GRAM / 10n, multisigApproveBody(0));
        assertOk(txOf(last, ms, OP.execute));
        assert.equal((await orderData(order)).approvalsMask, 5n);
    });

    test('order seqnos: next or 2^256-1, otherwise 1008; arbitrary mode takes any and a second init is an approval', async () => {
        const signers = [t[0].address, t[1].address, t[2].address];
        const ms = await deploy({ threshold: 3, signers, proposers: [], allowArbitrarySeqno: false });
        const actions = [sendAction(dest1.address, GRAM / 10n, 1)];
        assertExit(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: actions, orderSeqno: 1n }), ms, OP.newOrder), MULTISIG_EXIT.invalidNewOrder);
        assertOk(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: actions, orderSeqno: 0n }), ms, OP.newOrder));
        assertOk(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: actions }), multisigOrderAddress(ms, 1n), OP.init));
        assertExit(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: actions, orderSeqno: 0n }), ms, OP.newOrder), MULTISIG_EXIT.invalidNewOrder);
        assertExit(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: actions, orderSeqno: 7n }), ms, OP.newOrder), MULTISIG_EXIT.invalidNewOrder);
        assert.equal((await multisigData(ms)).nextOrderSeqno, 2n);

        const arbitrary = await deploy({ threshold: 3, signers, proposers: [proposer.address], allowArbitrarySeqno: true });
        const order = multisigOrderAddress(arbitrary, 42n);
        const expirationDate = UTIME + 7200;
        const first = await propose(t[0], arbitrary, { isSigner: true, index: 0, order: actions, orderSeqno: 42n, expirationDate });
        assertOk(txOf(first, order, OP.init));
        assert.equal((await multisigData(arbitrary)).nextOrderSeqno, -1n);
        // the same order from signer 2: the second init is its approval, answered to the signer
        const second = await propose(t[2], arbitrary, { isSigner: true, index: 2, order: actions, orderSeqno: 42n, expirationDate, queryId: 9n });
        const secondInit = txOf(second, order, OP.init);
        assertOk(secondInit);
        assert.deepEqual(secondInit.out.map(o => [o.to, o.op]), [[t[2].address.toRawString(), OP.approveAccepted]]);
        assert.equal(queryIdOf(secondInit.out[0].body), 9n);
        assert.equal((await orderData(order)).approvalsMask, 5n);
        // again from signer 2: approve_rejected 107 to the signer
        const repeat = txOf(await propose(t[2], arbitrary, { isSigner: true, index: 2, order: actions, orderSeqno: 42n, expirationDate }), order, OP.init);
        assertOk(repeat);
        assert.equal(rejectedCode(repeat.out[0].body), MULTISIG_EXIT.alreadyApproved);
        // other parameters, or a proposer's (no approval): 105, bounced to the multisig
        const otherExpiry = await propose(t[1], arbitrary, { isSigner: true, index: 1, order: actions, orderSeqno: 42n, expirationDate: expirationDate + 1 });
        assertExit(txOf(otherExpiry, order, OP.init), MULTISIG_EXIT.alreadyInited);
        assert.equal(txsOf(otherExpiry, arbitrary).length, 2, 'new_order, then the bounce');
        const otherOrder = await propose(t[1], arbitrary, { isSigner: true, index: 1, order: [sendAction(dest2.address, 1n, 1)], orderSeqno: 42n, expirationDate });
        assertExit(txOf(otherOrder, order, OP.init), MULTISIG_EXIT.alreadyInited);
        const byProposer = await propose(proposer, arbitrary, { isSigner: false, index: 0, order: actions, orderSeqno: 42n, expirationDate });
        assertExit(txOf(byProposer, order, OP.init), MULTISIG_EXIT.alreadyInited);
        assert.equal((await orderData(order)).approvalsNum, 2);
        // signer 1 completes it by a second init
        const done = await propose(t[1], arbitrary, { isSigner: true, index: 1, order: actions, orderSeqno: 42n, expirationDate });
        assert.deepEqual(txOf(done, order, OP.init).out.map(o => o.op), [OP.approveAccepted, OP.execute]);
        assertOk(txOf(done, arbitrary, OP.execute));
    });

    test('not enough value: 100 below get_order_estimate, accepted at it', async () => {
        const signers = [t[0].address, t[1].address];
        const ms = await deploy({ threshold: 2, signers, proposers: [], allowArbitrarySeqno: false });
        const orderCell = multisigOrderCell([sendAction(dest1.address, GRAM / 10n, 1, 'pay')]);
        const expirationDate = UTIME + 86_400;
        const estimate = (await get(ms, 'get_order_estimate', [{ type: 'cell', cell: orderCell }, { type: 'int', value: BigInt(expirationDate) }])).stackReader.readBigNumber();
        assert.ok(estimate > GRAM / 1000n && estimate < GRAM / 10n, `estimate ${estimate}`);
        // (new_order's own count is a little cheaper than the getter's: it has already loaded the signers' cells)
        for (const value of [estimate / 2n, estimate - estimate / 10n]) {
            const short = await propose(t[0], ms, { isSigner: true, index: 0, order: orderCell, expirationDate, value });
            assertExit(txOf(short, ms, OP.newOrder), MULTISIG_EXIT.notEnoughTon);
        }
        const exact = await propose(t[0], ms, { isSigner: true, index: 0, order: orderCell, expirationDate, value: estimate });
        assertOk(txOf(exact, ms, OP.newOrder));
        const order = multisigOrderAddress(ms, 0n);
        assertOk(txOf(exact, order, OP.init));
        const done = await send(t[1], order, GRAM / 10n, multisigApproveBody(1));
        assertOk(txOf(done, ms, OP.execute));
    });

    test('update_multisig_params: new threshold/signers/proposers; outdated orders fail with 102; invalid params 109/103', async () => {
        const signers = [t[0].address, t[1].address, t[2].address];
        const ms = await deploy({ threshold: 2, signers, proposers: [t[4].address], allowArbitrarySeqno: false });
        const payA = [sendAction(dest1.address, GRAM / 10n, 1)];
        const orderA = multisigOrderAddress(ms, 0n);
        assertOk(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: payA }), orderA, OP.init));

        // same signers, threshold 3: an order approved by 2 is outdated (102)
        const orderB = multisigOrderAddress(ms, 1n);
        assertOk(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: [{ type: 'update_multisig_params', threshold: 3, signers, proposers: [proposer.address] }] }), orderB, OP.init));
        assertOk(txOf(await send(t[1], orderB, GRAM / 10n, multisigApproveBody(1)), ms, OP.execute));
        let data = await multisigData(ms);
        assert.equal(data.threshold, 3);
        assert.ok(data.signers.equals(multisigSignersCell(signers)));
        assert.deepEqual(addressesOf(data.proposers), [proposer.address.toRawString()]);
        assert.equal(data.nextOrderSeqno, 2n);
        const outdatedA = await send(t[1], orderA, GRAM / 10n, multisigApproveBody(1));
        assertExit(txOf(outdatedA, ms, OP.execute), MULTISIG_EXIT.signersOutdated);
        assert.equal(txsOf(outdatedA, dest1.address).length, 0);

        // an order made now (threshold 3) replaces the signers and lowers the threshold to 1
        const newSigners = [t[3].address, t[0].address];
        const orderC = multisigOrderAddress(ms, 2n);
        const orderD = multisigOrderAddress(ms, 3n);
        assertOk(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: [{ type: 'update_multisig_params', threshold: 1, signers: newSigners, proposers: [] }] }), orderC, OP.init));
        assertOk(txOf(await propose(proposer, ms, { isSigner: false, index: 0, order: payA }), orderD, OP.init));
        assertOk(txOf(await send(t[1], orderC, GRAM / 10n, multisigApproveBody(1)), orderC, OP.approve));
        assertOk(txOf(await send(t[2], orderC, GRAM / 10n, multisigTextApproveBody()), ms, OP.execute));
        data = await multisigData(ms);
        assert.equal(data.threshold, 1);
        assert.ok(data.signers.equals(multisigSignersCell(newSigners)));
        assert.equal(data.proposers, null);
        // orderD was made with the old signers: 3 old approvals, still outdated (signers hash)
        for (const i of [0, 1]) assertOk(txOf(await send(t[i], orderD, GRAM / 10n, multisigApproveBody(i)), orderD, OP.approve));
        const outdatedD = await send(t[2], orderD, GRAM / 10n, multisigApproveBody(2));
        assertExit(txOf(outdatedD, ms, OP.execute), MULTISIG_EXIT.signersOutdated);
        // the old signer 1 can no longer propose; the proposer list is empty
        assertExit(txOf(await propose(t[1], ms, { isSigner: true, index: 1, order: payA }), ms, OP.newOrder), MULTISIG_EXIT.unauthorizedNewOrder);
        assertExit(txOf(await propose(proposer, ms, { isSigner: false, index: 0, order: payA }), ms, OP.newOrder), MULTISIG_EXIT.unauthorizedNewOrder);
        // with threshold 1 the new signer 0 (t[3]) executes on proposal, at init
        const orderE = multisigOrderAddress(ms, 4n);
        const instant = await propose(t[3], ms, { isSigner: true, index: 0, order: payA });
        assert.deepEqual(txOf(instant, orderE, OP.init).out.map(o => o.op), [OP.execute]);
        assertOk(txOf(instant, ms, OP.execute));
        assert.equal(txsOf(instant, dest1.address).length, 1);

        // invalid parameters fail the execution and leave the multisig as it was
        const badParams = (threshold: number, signersCell: Cell, proposersDict: Cell | null): Cell => {
            const action = beginCell().storeUint(0x1d0cfbd3, 32).storeUint(threshold, 8).storeRef(signersCell).storeMaybeRef(proposersDict).endCell();
            return beginCell().storeDictDirect(Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell()).set(0, action)).endCell();
        };
        const gapDict = (keys: number[]) => {
            const d = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
            keys.forEach((k, i) => d.set(k, t[i].address));
            return beginCell().storeDictDirect(d).endCell();
        };
        const cases: Array<[Cell, number]> = [
            [badParams(0, multisigSignersCell(newSigners), null), MULTISIG_EXIT.invalidThreshold],
            [badParams(3, multisigSignersCell(newSigners), null), MULTISIG_EXIT.invalidThreshold],
            [badParams(1, gapDict([0, 2]), null), MULTISIG_EXIT.invalidDictionarySequence],
            [badParams(1, gapDict([1]), null), MULTISIG_EXIT.invalidDictionarySequence],
            [badParams(1, multisigSignersCell(newSigners), gapDict([0, 5])), MULTISIG_EXIT.invalidDictionarySequence],
        ];
        let seqno = 5n;
        for (const [orderCell, exit] of cases) {
            const r = await propose(t[3], ms, { isSigner: true, index: 0, order: orderCell });
            assertExit(txOf(r, ms, OP.execute), exit);
            assert.ok(txOf(r, multisigOrderAddress(ms, seqno++), OP.init).success);
        }
        data = await multisigData(ms);
        assert.equal(data.threshold, 1);
        assert.ok(data.signers.equals(multisigSignersCell(newSigners)));
        assert.equal(data.nextOrderSeqno, seqno);
    });

    test('execute / execute_internal only from the order / the multisig itself (101); init only from the multisig (104)', async () => {
        const signers = [t[0].address];
        const ms = await deploy({ threshold: 1, signers, proposers: [], allowArbitrarySeqno: false });
        const orderCell = multisigOrderCell([sendAction(dest1.address, GRAM / 10n, 1)]);
        const forged = beginCell().storeUint(OP.execute, 32).storeUint(0, 64).storeUint(0, 256).storeUint(UTIME + 100, 48)
            .storeUint(1, 8).storeBuffer(multisigSignersCell(signers).hash()).storeRef(orderCell).endCell();
        assertExit(txOf(await send(t[0], ms, GRAM, forged), ms, OP.execute), MULTISIG_EXIT.unauthorizedExecute);
        const internalExec = beginCell().storeUint(OP.executeInternal, 32).storeUint(0, 64).storeRef(orderCell).endCell();
        assertExit(txOf(await send(t[0], ms, GRAM, internalExec), ms, OP.executeInternal), MULTISIG_EXIT.unauthorizedExecute);

        // an order chained through execute_internal: its last action is a message to the multisig itself
        const tail = multisigOrderCell([sendAction(dest2.address, GRAM / 20n, 1)]);
        const chained = multisigOrderCell([
            sendAction(dest1.address, GRAM / 20n, 1),
            { type: 'send_message', mode: 1, message: internal({ to: ms, value: GRAM / 100n, body: beginCell().storeUint(OP.executeInternal, 32).storeUint(0, 64).storeRef(tail).endCell() }) },
        ]);
        const run = await propose(t[0], ms, { isSigner: true, index: 0, order: chained });
        assertOk(txOf(run, ms, OP.execute));
        assertOk(txOf(run, ms, OP.executeInternal));
        assert.equal(txsOf(run, dest2.address).length, 1);

        // init from someone else than the multisig, with the order's StateInit: 104
        const order = multisigOrderAddress(ms, 5n);
        const init = beginCell().storeUint(OP.init, 32).storeUint(0, 64).storeUint(1, 8).storeRef(multisigSignersCell(signers))
            .storeUint(UTIME + 100, 48).storeRef(orderCell).storeBit(true).storeUint(0, 8).endCell();
        const forgedInit = await send(stranger, order, GRAM / 10n, init, multisigOrderStateInit(ms, 5n) as { code: Cell; data: Cell });
        assertExit(txOf(forgedInit, order, OP.init), MULTISIG_EXIT.unauthorizedInit);
        // (the StateInit still deploys the account, as on mainnet: an order that its multisig never initialized)
        const st = (await chain.getContract(order)).accountState;
        assert.equal(st?.type, 'active');
        const d = await orderData(order);
        assert.deepEqual(d.types, ['slice', 'int', 'null', 'null', 'null', 'null', 'null', 'null', 'null']);
        assert.equal(d.orderSeqno, 5n);
    });

    test('get_order_data before init; top-ups and unknown ops', async () => {
        const ms = await deploy({ threshold: 1, signers: [t[4].address], proposers: [], allowArbitrarySeqno: false });
        const order = multisigOrderAddress(ms, 3n);
        const init = multisigOrderStateInit(ms, 3n);
        await chain.setShardAccount(order, createShardAccount({ address: order, code: init.code!, data: init.data!, balance: GRAM }));
        const d = await orderData(order);
        assert.deepEqual(d.types, ['slice', 'int', 'null', 'null', 'null', 'null', 'null', 'null', 'null']);
        assert.ok(d.multisig.equals(ms));
        assert.equal(d.orderSeqno, 3n);
        // an uninitialized order: approvals are refused (106), unknown ops 0xffff
        assertExit(txOf(await send(t[4], order, GRAM / 10n, multisigApproveBody(0)), order, OP.approve), MULTISIG_EXIT.unauthorizedSign);
        assertExit(txOf(await send(t[4], order, GRAM / 10n, multisigTextApproveBody()), order, OP.text), MULTISIG_EXIT.unauthorizedSign);
        assertExit(txOf(await send(t[4], order, GRAM / 10n, beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell()), order, 0x12345678), MULTISIG_EXIT.unknownOp);

        // the multisig accepts empty bodies, text comments and unknown ops as top-ups
        const before = (await multisigData(ms));
        for (const body of [undefined, commentCell('hello'), beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell()]) {
            const txs = await send(stranger, ms, GRAM / 10n, body);
            const tx = txsOf(txs, ms)[0];
            assertOk(tx);
            assert.deepEqual(tx.out, []);
        }
        const after = await multisigData(ms);
        assert.equal(after.nextOrderSeqno, before.nextOrderSeqno);
        assert.ok(after.signers.equals(before.signers));
        assert.equal(await getExitCode(ms, 'get_multisig_data'), 0);
    });

    test('the multisig\'s data is checked by get_multisig_data (108 for a wrong signers_num)', async () => {
        const config: MultisigConfig = { threshold: 1, signers: [t[0].address, t[1].address], proposers: [], allowArbitrarySeqno: false };
        const s = multisigStateInit(config).data!.beginParse();
        const head = beginCell().storeUint(s.loadUintBig(256), 256).storeUint(s.loadUint(8), 8).storeRef(s.loadRef());
        assert.equal(s.loadUint(8), 2, 'signers_num');
        const bad = head.storeUint(3, 8).storeSlice(s).endCell();
        const fake = new Address(0, Buffer.alloc(32, 0x42));
        await chain.setShardAccount(fake, createShardAccount({ address: fake, code: multisigStateInit(config).code!, data: bad, balance: GRAM }));
        assert.equal(await getExitCode(fake, 'get_multisig_data'), MULTISIG_EXIT.inconsistentData);
    });
    test('expiration: 111 at new_order and at execute (the order\'s balance stays with the multisig)', async () => {
        const signers = [t[0].address, t[1].address];
        const ms = await deploy({ threshold: 2, signers, proposers: [t[2].address], allowArbitrarySeqno: false });
        const actions = [sendAction(dest1.address, GRAM / 10n, 1)];
        assertExit(txOf(await propose(t[0], ms, { isSigner: true, index: 0, order: actions, expirationDate: UTIME - 1 }), ms, OP.newOrder), MULTISIG_EXIT.expired);
        const order = multisigOrderAddress(ms, 0n);
        const proposal = await propose(t[0], ms, { isSigner: true, index: 0, order: actions, expirationDate: UTIME + 100 });
        assertOk(txOf(proposal, order, OP.init));
        const before = (await chain.getContract(ms)).balance;
        chain.now = UTIME + 101; // (the last test: time only moves forward on the sandbox)
        // the order still takes the approval (it no longer checks expiry), the multisig refuses
        const late = await send(t[1], order, GRAM / 10n, multisigApproveBody(1));
        assertOk(txOf(late, order, OP.approve));
        const execute = txOf(late, ms, OP.execute);
        assertExit(execute, MULTISIG_EXIT.expired);
        assert.equal(txsOf(late, dest1.address).length, 0);
        assert.ok((await chain.getContract(ms)).balance > before, 'execute is non-bounceable: its value stays');
        assert.equal((await orderData(order)).sentForExecution, true);
    });
});
