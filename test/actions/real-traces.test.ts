import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Address, beginCell } from '@ton/core';
import type { ActionDraft, Asset } from '../../src/actions/action.ts';
import { PROTOCOL_CODE, interfacesByAddress } from '../../src/ton/interfaces/mainnet-contracts.ts';
import { knownInterfaces, protocolInterfaces } from '../../src/ton/interfaces/known-code.ts';
import { ACCOUNT_CODE } from './real-traces/account-code.ts';
import { actionsOfTrace, measure, score } from './real-traces/measure.ts';
import { REAL_TRACES_DIR, readTraceFile, realTracesAvailable, replayTrace, traceFiles } from './real-traces/replay.ts';

/**
 * The action engine on real mainnet traces (`../shared/fixtures/real-traces`): each trace rebuilt
 * from its rows and read by our own transaction parser, account interfaces from our detection
 * only (code the traces deploy, the mainnet table, and the test's account table for code they do
 * not carry), the actions compared field by field with what another indexer's classifier expects.
 */

const available = realTracesAvailable();
if (!available && process.env.CI === 'true') throw new Error(`CI needs the real traces beside the clone: ${REAL_TRACES_DIR} is missing`);
const skip = available ? false : `the real traces are not beside this clone (${REAL_TRACES_DIR}): skipped`;

/** A trace by the first characters of its id (its file name). */
function trace(prefix: string) {
    const file = traceFiles().find((f) => f.startsWith(prefix));
    assert.ok(file, `no trace ${prefix}`);
    return readTraceFile(file.replace(/\.json$/, '').replace(/-/g, '+').replace(/_/g, '/'));
}

function drafts(prefix: string): ActionDraft[] {
    return actionsOfTrace(trace(prefix)).actions.map((a) => a.draft);
}

function only<T extends ActionDraft['type']>(list: ActionDraft[], type: T): Extract<ActionDraft, { type: T }>[] {
    return list.filter((d): d is Extract<ActionDraft, { type: T }> => d.type === type);
}

const raw = (upperHex: string) => upperHex.toLowerCase();
const jetton = (master: string, amount: bigint): Asset => ({ kind: 'jetton', master: raw(master), amount });
const native = (amount: bigint): Asset => ({ kind: 'native', amount });

describe('real mainnet traces: replay', { skip }, () => {
    test('every internal message is rebuilt to its recorded hash, and every trace replays as one tree', () => {
        let messages = 0;
        for (const file of traceFiles()) {
            const t = readTraceFile(file.replace(/\.json$/, '').replace(/-/g, '+').replace(/_/g, '/'));
            const replayed = replayTrace(t);
            assert.deepEqual(replayed.inexactMessages, [], file);
            assert.equal(replayed.nodes.size, t.transactions.length, `${file}: every transaction is in the tree`);
            messages += Object.values(t.messages).filter((m) => m.source !== null && m.destination !== null).length;
        }
        assert.ok(messages > 500, `${messages} internal messages`);
    });

    test('the expected actions of our kinds: ≥ 95 % found by kind and ≥ 90 % with all their fields, with our own detection', () => {
        const m = measure();
        const s = score(m.results);
        const line = `${s.compared} compared (${s.total - s.compared} model differences): ${s.byKind} by kind, ${s.full} with all fields`;
        console.log(`real traces: ${line}`);
        const wrong = m.results.filter((r) => r.outcome === 'missed' || r.outcome === 'kind').map((r) => `${r.outcome} ${r.file} ${r.name}: ${r.wrong.join('; ')}`);
        assert.equal(s.total, 37, 'the 37 expected actions of our kinds');
        assert.equal(s.total - s.compared, 2, 'the two named model differences');
        assert.ok(s.byKind >= Math.ceil(0.95 * s.compared), `${line}\n${wrong.join('\n')}`);
        assert.ok(s.full >= Math.ceil(0.90 * s.compared), `${line}\n${wrong.join('\n')}`);
    });

    test('without the test-side account table (singletons, deployed code and the facts only) most actions are still found', () => {
        const s = score(measure(REAL_TRACES_DIR, false).results);
        assert.ok(s.byKind >= Math.ceil(0.9 * s.compared), `${s.byKind} of ${s.compared}`);
    });

    test('protocols without an action kind (EVAA, JVault, tgBTC, LayerZero, Cocoon, vesting) give generic actions, and nothing throws', () => {
        const named: Record<string, string> = {
            '02lXjywHna': 'JvaultReceiveJettons', '1OrxQbhicq': 'TgbtcPeginTxInitialize', KEbatIe0U3: 'LzEndpointSend',
            '-5SK3b3jO5': 'CocoonRegisterProxy', '03XZQ1CkN3': 'VestingAddWhitelist',
        };
        for (const prefix of ['j-5yrT2HRD', ...Object.keys(named)]) {
            const list = drafts(prefix);
            const calls = only(list, 'SmartContractExec');
            assert.ok(calls.length > 0, `${prefix}: ${list.map((d) => d.type).join(', ')}`);
            // the operation's name where its protocol publishes one
            if (named[prefix]) assert.ok(calls.some((c) => c.operation === named[prefix]), `${prefix}: ${calls.map((c) => c.operation).join(', ')}`);
        }
    });
});

describe('real mainnet traces: the patterns each failure class needed', { skip }, () => {
    test('DeDust liquidity: each leg a deposit of its side; the completing leg the deposit through the pool; one other-side leg joins it', () => {
        // Two 3.5 gram legs and two jetton legs into one deposit contract: the first jetton leg completes it.
        const legs = only(drafts('WyDZqNoT4Y'), 'LiquidityDeposit');
        assert.equal(legs.length, 4);
        assert.ok(legs.every((d) => d.protocol.name === 'dedust' && d.from === raw('0:A6658615EBE101A2D39E81A3B2DADBBDFE915F2EEBD2B42459EAE33F7460A792') && d.success));
        assert.deepEqual(legs.map((d) => d.tokens.map((t) => t.asset)).sort((a, b) => String(a[0].kind).localeCompare(String(b[0].kind))), [
            [jetton('0:65AAC9B5E380EAE928DB3C8E238D9BC0D61A9320FDC2BC7A2F6C87D6FEDF9208', 51504594962n)],
            [jetton('0:65AAC9B5E380EAE928DB3C8E238D9BC0D61A9320FDC2BC7A2F6C87D6FEDF9208', 51504594962n)],
            [native(3500000000n)], [native(3500000000n)],
        ]);
        // Two jetton legs, the pool rejects: one failed deposit of both sides.
        const [rejected, ...rest] = only(drafts('OcT5DRJbqO'), 'LiquidityDeposit');
        assert.equal(rest.length, 0);
        assert.equal(rejected.success, false);
        assert.deepEqual(rejected.tokens.map((t) => t.asset), [
            jetton('0:F83F7D94D74B2736821ABE8ABA7183D3411F367B00233B6D1EA6282B59102EA7', 25998968n),
            jetton('0:B298B457A75418C5929E9380932277240757B2E539320094293C094D7AD88EE7', 24334470584513n),
        ]);
        // A single gram leg that completes an earlier one: the amount deposited, not the value with the gas.
        assert.deepEqual(only(drafts('BD_4YMGJ9v'), 'LiquidityDeposit').map((d) => [d.success, d.tokens.map((t) => t.asset)]), [[true, [native(822575606n)]]]);
    });

    test('Coffee: a swap after another DEX (the aggregator its sender) and both legs of a deposit', () => {
        const swaps = only(drafts('c8jOrHqyuJ'), 'JettonSwap');
        const coffee = swaps.find((s) => s.dex === 'coffee')!;
        assert.deepEqual([coffee.success, coffee.userWallet, coffee.in, coffee.out], [
            true, raw('0:A17D0198E066C9103BDB66A63BF898E6A5141389AA53CBBE936B678445ED99E2'),
            jetton('0:CD0EFE78BFF4C4539B76EAB17293296C74F42CBF99EC499687FEFEC94893ED32', 4666275916n), native(4712371036n),
        ]);
        // The DeDust swap before it pays the aggregator its request names: still the sender's swap.
        const dedust = swaps.find((s) => s.dex === 'dedust')!;
        assert.deepEqual([dedust.success, dedust.in, dedust.out], [
            true, jetton('0:896E9D240693F03E8046F94E42F9C59F3FF8E792CBE8B467C0ACF179D10F508A', 185867644473n),
            jetton('0:CD0EFE78BFF4C4539B76EAB17293296C74F42CBF99EC499687FEFEC94893ED32', 4666275916n),
        ]);
        const deposits = only(drafts('NVBb_A--g2'), 'LiquidityDeposit');
        assert.deepEqual(deposits.map((d) => [d.protocol.name, d.success, d.tokens.map((t) => [t.asset, t.vault])]), [
            ['coffee', true, [[native(3129892658n), raw('0:66D21112F25EDD14BBD3E21E6F3539550CBB537B15CE6F96C5F8C3832FD34E47')]]],
            ['coffee', true, [[jetton('0:A5D12E31BE87867851A28D3CE271203C8FA1A28AE826256E73C506D94D49EDAD', 13876673279n), raw('0:3935D9DA614B3283413B319B8845DBDD0857ECB5D06BEC2428A697EF86AA8691')]]],
        ]);
    });

    test('STON.fi v1 through pTON v1 (no ton_transfer step): TON in, refunded, the asked-for jetton kept as the output', () => {
        const [swap] = only(drafts('jwYkEIdwbH'), 'JettonSwap');
        assert.equal(swap.dex, 'stonfi');
        assert.equal(swap.success, false);
        assert.equal(swap.in.kind, 'native');
        assert.equal(swap.out.kind, 'jetton');
        assert.equal((swap.out as { master: string }).master, raw('0:2F956143C461769579BAEF2E32CC2D7BC18283F40D20BB03E432CD603AC33FFC'));
        // jetton → TON: the payout is the swap's, not a transfer beside it
        const out = drafts('4PNVGQkZJU');
        assert.deepEqual(only(out, 'JettonSwap').map((s) => [s.success, s.out]), [[true, native(392421171n)]]);
        assert.deepEqual(only(out, 'JettonTransfer'), []);
    });

    test('TONCO: a two-hop swap through pTON is one swap, first token in, last out; a failed one keeps the token it asked for', () => {
        const [hop] = only(drafts('CjtIXjqazb'), 'JettonSwap');
        assert.deepEqual([hop.success, hop.in, hop.out], [
            true, jetton('0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE', 10000000n),
            jetton('0:6CA2C99C66B0FA1478A303BA9618BC39C28FDA1FC50DE37E618BDDF98C9FD24C', 541070180798n),
        ]);
        const [failed] = only(drafts('02TsVcC_MO'), 'JettonSwap');
        assert.deepEqual([failed.success, failed.in, failed.out], [
            false, native(952556061547n), jetton('0:B113A994B5024A16719F69139328EB759596C38A25F59028B146FECDC3621DFE', 2856642750n),
        ]);
    });

    test('mints: op 0x15 of a custom master, a non-TEP-74 mint body (holder from the wallet), a failed mint', () => {
        assert.deepEqual(only(drafts('SVotcOQBV7'), 'JettonMint').map((m) => [m.success, m.recipient, m.amount]), [
            [true, raw('0:A35884719E3B78E40800FC85E15E74DFCD6C41B0D386BCCD020B7F063AE4BAA1'), 1000000000n],
        ]);
        assert.deepEqual(only(drafts('uXA5LQpf_4'), 'JettonMint').map((m) => [m.success, m.recipient, m.amount]), [
            [true, raw('0:A8B9A93F49CC467E91138F62FFDCC5F037B5E28B7F985DAA800AFC703AA32691'), 4853188593690n],
        ]);
        assert.deepEqual(only(drafts('MyrAUqqz_X'), 'JettonMint').map((m) => [m.success, m.recipient]), [
            [false, raw('0:3D6497F533E6771EFA6B09D9672F4A6E1708893FAC76CFB2525E1A8F31D1CE2A')],
        ]);
    });

    test('Tonstakers: an immediate withdrawal is what the pool paid less the gas it returned; a pending one mints the bill', () => {
        assert.deepEqual(only(drafts('oND3Z5gMq1'), 'WithdrawStake').map((w) => [w.success, w.amount, w.implementation]), [[true, 477298994n, 'liquidTF']]);
        assert.deepEqual(only(drafts('GO-NI0EjOu'), 'WithdrawStakeRequest').map((w) => [w.success, w.stakeMeta?.amount]), [[true, 67599n]]);
    });

    test('NFT sales: an auction settled by its own message, and a Telegram item bought from the item', () => {
        assert.deepEqual(only(drafts('F73aJsg-E-'), 'NftPurchase').map((p) => [p.buyer, p.seller, p.amount]), [
            [raw('0:3414B3FBBD4AB895E9D510603920668B8909DAD18F3BBFFED738E103C46EB067'), raw('0:C002333C4C4873FB77E57A00A6B8E4F4874FCF76E9C73A09EB837E6990440A34'), 103000000000n],
        ]);
        assert.deepEqual(only(drafts('aMUaDa0Ml9'), 'NftPurchase').map((p) => [p.buyer, p.seller, p.amount]), [
            [raw('0:DED65AF00FB7799ED490B803ED436914A7F0526BC6B8B4D30C35A936D734173D'), raw('0:C21FABD3D0CBD5A746C160D8E838DA6481BE7534C3CD3895C54161B9E17A0802'), 111000000000n],
        ]);
    });
});

describe('mainnet contract table', () => {
    test('every code hash of the table is checked: against code a real trace deploys or a published npm build', { skip }, async () => {
        const verified = new Set<string>();
        for (const file of traceFiles()) {
            const replayed = replayTrace(readTraceFile(file.replace(/\.json$/, '').replace(/-/g, '+').replace(/_/g, '/')));
            for (const code of replayed.deployedCode.values()) verified.add(code.hash().toString('hex'));
        }
        const tonco = await import('@toncodex/sdk');
        const dedust = await import('@dedust/sdk');
        for (const cell of [tonco.POOLV3_CODE, tonco.ACCOUNTV3_CODE, tonco.POSITIONV3_CODE, dedust.BLANK_CODE] as Array<{ hash(): Buffer }>) {
            verified.add(cell.hash().toString('hex'));
        }
        assert.deepEqual([...PROTOCOL_CODE.keys()].filter((hash) => !verified.has(hash)), []);
        // and each names the contract that code is
        assert.ok(PROTOCOL_CODE.get(tonco.POOLV3_CODE.hash().toString('hex'))?.interfaces.includes('tonco_pool'));
        assert.ok(PROTOCOL_CODE.get(dedust.BLANK_CODE.hash().toString('hex'))?.interfaces.includes('dedust_blank'));
    });

    test('code hashes of published builds: TONCO (@toncodex/sdk) and DeDust (@dedust/sdk) hash to the table, and their singletons are the table\'s', async () => {
        const tonco = await import('@toncodex/sdk');
        const dedust = await import('@dedust/sdk');
        const hash = (cell: { hash(): Buffer }) => cell.hash().toString('hex');
        assert.deepEqual(PROTOCOL_CODE.get(hash(tonco.POOLV3_CODE))?.interfaces, ['tonco_pool']);
        assert.deepEqual(PROTOCOL_CODE.get(hash(tonco.ACCOUNTV3_CODE))?.interfaces, ['tonco_account']);
        assert.deepEqual(PROTOCOL_CODE.get(hash(tonco.POSITIONV3_CODE))?.interfaces, ['tonco_position_nft']);
        assert.deepEqual(PROTOCOL_CODE.get(hash(dedust.BLANK_CODE))?.interfaces, ['dedust_blank']);
        assert.deepEqual(interfacesByAddress(Address.parse(String(tonco.ROUTER)).toRawString()), ['tonco_router']);
        assert.deepEqual(interfacesByAddress(dedust.MAINNET_FACTORY_ADDR.toRawString()), ['dedust_factory']);
    });

    test('table interfaces add to what probing finds, by code hash or a library cell pointing at that code', () => {
        const [hash] = [...PROTOCOL_CODE.keys()];
        assert.deepEqual(knownInterfaces('0:' + '1'.repeat(64), hash), [...PROTOCOL_CODE.get(hash)!.interfaces]);
        // a singleton by address, whatever its code
        assert.deepEqual(knownInterfaces('0:779DCC815138D9500E449C5291E7F12738C23D575B5310000F6A253BD607384E', null), ['stonfi_router']);
        // a library cell whose library is the TONCO pool's code
        const library = beginCell().storeUint(2, 8).storeBuffer(Buffer.from('bc947d16346c2fdc845b7a446382f59c86acb075e2a31dbfa956cd0c9e54678e', 'hex')).endCell({ exotic: true });
        assert.deepEqual(protocolInterfaces(library), ['tonco_pool']);
        assert.deepEqual(protocolInterfaces(beginCell().storeUint(1, 8).endCell()), []);
    });

    test("the test's account table binds accounts to hashes the table knows", () => {
        for (const [account, { codeHash }] of ACCOUNT_CODE) assert.ok(knownInterfaces(account, codeHash).length > 0, account);
    });
});
