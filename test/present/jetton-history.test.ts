import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { presentJettonHistory } from '../../src/present/jetton-history.ts';
import { isCurrentOperationText, jettonOperationTemplate } from '../../src/present/stored/jetton-operation-text.ts';
import { asciiJson, toJsonBody } from '../../src/json/json.ts';
import { stringRepresentation } from '../helpers/string-representation.ts';
import type { JettonHistoryPage, JettonOperation } from '../../src/store/read/jettons.ts';

const MASTER = `0:${'11'.repeat(32)}`;
const ALICE = `0:${'aa'.repeat(32)}`;
const BOB = `0:${'bb'.repeat(32)}`;

const transfer: JettonOperation = {
    operation: 'transfer', utime: 1_700_000_000, lt: 2n ** 63n - 1n, transactionHash: 'cd'.repeat(32), traceId: 'ef'.repeat(32),
    master: MASTER, amount: 2n ** 120n, source: ALICE, destination: BOB, queryId: 2n ** 64n - 1n,
    payloadJson: JSON.stringify({ text: 'за кофе ☕ — merci \u{1F600}' }),
};
const mint: JettonOperation = { ...transfer, operation: 'mint', lt: 5n, transactionHash: '01'.repeat(32), source: null, payloadJson: null };

function page(operations: JettonHistoryPage['operations']): JettonHistoryPage {
    return {
        operations,
        nextFrom: 5n,
        jettons: new Map([[MASTER, { name: 'Öl Token ✓', symbol: 'ÖL', decimals: '6' }]]),
        interfaces: new Map([[ALICE, ['wallet_v4r2']]]),
    };
}

const stored = (op: JettonOperation) => ({ lt: op.lt, transactionHash: op.transactionHash, master: op.master, source: op.source, destination: op.destination, ...jettonOperationTemplate(op) });

describe('jetton history answers', () => {
    it('shows a stored text as the operation\'s columns show it, non-ASCII text and exact integers included, in ASCII bytes', () => {
        const fromColumns = toJsonBody(presentJettonHistory(page([transfer, mint])));
        const fromTexts = toJsonBody(presentJettonHistory(page([stored(transfer), stored(mint)])));
        const mixed = toJsonBody(presentJettonHistory(page([stored(transfer), mint])));
        assert.deepEqual(Buffer.from(fromTexts), Buffer.from(fromColumns));
        assert.deepEqual(Buffer.from(mixed), Buffer.from(fromColumns));
        const bytes = Buffer.from(fromTexts);
        assert.ok(bytes.every(byte => byte < 0x80), 'the answer is ASCII');
        const text = bytes.toString('utf8');
        assert.match(text, /"lt":9223372036854775807,/);
        assert.match(text, /"next_from":5}$/);
        const answer = JSON.parse(text);
        assert.deepEqual(answer.operations[0].payload, { text: 'за кофе ☕ — merci \u{1F600}' });
        assert.equal(answer.operations[0].amount, (2n ** 120n).toString());
        assert.equal(answer.operations[0].query_id, '18446744073709551615');
        assert.deepEqual(answer.operations[0].source, { address: ALICE, is_scam: false, is_wallet: true });
        assert.deepEqual(answer.operations[0].destination, { address: BOB, is_scam: false, is_wallet: false });
        assert.deepEqual([answer.operations[0].jetton.name, answer.operations[0].jetton.symbol, answer.operations[0].jetton.decimals], ['Öl Token ✓', 'ÖL', 6]);
        assert.equal(answer.operations[1].source, undefined);
        assert.equal(answer.operations[1].payload, undefined);
        assert.deepEqual(answer.operations[1].destination, { address: BOB, is_scam: false, is_wallet: false });
    });

    it('stores texts as every text with holes is stored, of the current version only, and refuses to fill one whose marks do not match its holes', () => {
        const template = jettonOperationTemplate(transfer);
        assert.ok(template.text.every(byte => byte < 0x80), 'an ASCII text');
        assert.equal(template.text.filter(byte => byte === 0).length, 3, 'a NUL mark for each party and the jetton');
        assert.deepEqual(JSON.parse(template.holes), [2, ['w', 'source'], ['w', 'destination'], ['j']]);
        assert.deepEqual(JSON.parse(jettonOperationTemplate(mint).holes), [2, ['w', 'destination'], ['j']]);
        assert.ok(isCurrentOperationText(template.holes));
        assert.ok(!isCurrentOperationText(template.holes.replace(/^\[2,/, '[1,')));
        assert.ok(!isCurrentOperationText('[20,["j"]]'));
        const broken = { ...stored(transfer), text: Buffer.from(template.text.filter(byte => byte !== 0)) };
        assert.throws(() => presentJettonHistory(page([broken])), /does not hold as many holes/);
    });

    it('escapes only what is outside ASCII, each UTF-16 unit as JSON does', () => {
        assert.equal(asciiJson('{"a":"plain"}'), '{"a":"plain"}');
        assert.equal(asciiJson('"é☕\u{1F600}"'), '"\\u00e9\\u2615\\ud83d\\ude00"');
        assert.equal(JSON.parse(asciiJson(JSON.stringify('é☕\u{1F600}'))), 'é☕\u{1F600}');
        // Escaped, the text is ASCII, and held as such: the page joins its pieces and copies them out as Latin-1.
        assert.equal(stringRepresentation(asciiJson('{"description":"café ☕"}')), 'one-byte');
    });
});
