import type { JettonOperation, StoredJettonOperation } from '../../store/read/jettons.ts';
import type { AccountView } from '../account-address.ts';
import { MemberHole, RawJson, asciiJson, toJsonTemplate } from '../../json/json.ts';
import { holeMarks, readTemplateHoles, storeTemplate, templateVersion, type StoredTemplate } from '../../json/template.ts';

/**
 * The text of an operation as its history shows it, made once when it is indexed, stored as every
 * text with holes is (json/template.ts): what may change later is left as holes — its parties'
 * `is_wallet` (`["w", "source"]`, `["w", "destination"]`, as the index learns their code) and its
 * jetton's preview (`["j"]`, as the master's metadata is read). The holes name the row's own columns,
 * so a history holds a handful of distinct hole lists, each parsed once. Written in ASCII
 * (`asciiJson`), so a page is put together as Latin-1 strings.
 */
export function jettonOperationTemplate(op: JettonOperation): StoredTemplate {
    const parties = { accountAddress: (address: string) => ({ address, is_scam: false, is_wallet: new MemberHole(['w', address === op.source ? 'source' : 'destination'] satisfies OperationHole) }) };
    const { text, holes } = toJsonTemplate(presentOperation(op, parties, new MemberHole(['j'] satisfies OperationHole)));
    return storeTemplate(OPERATION_TEXT_VERSION, Buffer.from(asciiJson(text.toString('utf8')), 'latin1'), holes);
}

/** Whether a stored text's holes are of the version this presenter fills (`jettonHistory` decodes the others' columns instead). */
export function isCurrentOperationText(holes: string): boolean {
    return templateVersion(holes) === OPERATION_TEXT_VERSION;
}

/**
 * Bumped whenever `presentOperation` changes what a stored text would hold, or its holes change:
 * texts of other versions are not used (their operations are presented from their columns).
 */
const OPERATION_TEXT_VERSION = 2;

type OperationHole = ['w', 'source' | 'destination'] | ['j'];

/** Hole lists as parsed, by their stored text: a history has a handful of them. */
const parsedHoles = new Map<string, OperationHole[]>();

function operationHoles(stored: string): OperationHole[] {
    let holes = parsedHoles.get(stored);
    if (!holes) {
        holes = readTemplateHoles(stored).holes as OperationHole[];
        if (parsedHoles.size < 64) parsedHoles.set(stored, holes);
    }
    return holes;
}

const IS_WALLET = ',"is_wallet":true';
const NOT_WALLET = ',"is_wallet":false';
const JETTON_MEMBER = ',"jetton":';

export function presentOperation(op: JettonOperation, parties: Pick<AccountView, 'accountAddress'>, jetton: RawJson | MemberHole) {
    return {
        operation: op.operation,
        utime: op.utime,
        lt: op.lt,
        transaction_hash: op.transactionHash,
        source: op.source !== null ? parties.accountAddress(op.source) : undefined,
        destination: op.destination !== null ? parties.accountAddress(op.destination) : undefined,
        amount: op.amount.toString(),
        jetton,
        trace_id: op.traceId,
        query_id: op.queryId.toString(),
        payload: op.payloadJson !== null ? new RawJson(op.payloadJson) : undefined,
    };
}

/** The operation's stored text with its holes filled, appended to `out` as Latin-1 strings. */
export function addFilledText(out: string[], op: StoredJettonOperation, accounts: { isWallet(address: string): boolean }, previewOf: (master: string) => string): void {
    const holes = operationHoles(op.holes);
    const text = typeof op.text === 'string' ? op.text : op.text.toString('latin1');
    const marks = holeMarks(text, holes.length);
    if (!marks) throw new Error(`the stored text of jetton operation ${op.transactionHash} does not hold as many holes as it lists`);
    let start = 0;
    for (let i = 0; i < marks.length; i++) {
        out.push(text.slice(start, marks[i]));
        const hole = holes[i];
        const party = hole[0] === 'w' ? op[hole[1]] : null;
        if (hole[0] === 'j') out.push(JETTON_MEMBER, previewOf(op.master));
        else if (party === null) throw new Error(`the stored text of jetton operation ${op.transactionHash} has a hole for a ${hole[1]} it does not have`);
        else out.push(accounts.isWallet(party) ? IS_WALLET : NOT_WALLET);
        start = marks[i] + 1;
    }
    out.push(text.slice(start));
}
