import { jettonPreview } from '../../ton/jetton/jetton-preview.ts';
import type { JettonHistoryPage, JettonOperation, StoredJettonOperation } from '../../store/read/jettons.ts';
import { AccountDirectory, type AccountView } from './account-address.ts';
import { HOLE_MARK, MemberHole, RawJson, asciiJson, oneByteString, toJson, toJsonTemplate } from '../json.ts';

/**
 * AccountJettonsHistory (spec 2.10): operations newest first, `next_from` the `before_lt` of the next page.
 * An operation the indexer stored a text for is that text with its holes filled; one indexed before
 * texts were stored is presented from its columns. Every piece is ASCII (`asciiJson`), so the whole
 * answer is its pieces joined and copied out as Latin-1, never UTF-8 encoded character by character.
 */
export function presentJettonHistory(page: JettonHistoryPage): RawJson {
    const accounts = new AccountDirectory(page.interfaces);
    // A page's operations mostly share a jetton or two: each preview is written once, and held one
    // byte a character (`oneByteString`): one two-byte piece would make the whole joined page two-byte.
    const previews = new Map<string, string>();
    const previewOf = (master: string) => {
        let preview = previews.get(master);
        if (preview === undefined) previews.set(master, preview = oneByteString(asciiJson(toJson(jettonPreview(master, page.jettons.get(master))))));
        return preview;
    };
    const pieces: string[] = ['{"operations":['];
    for (let i = 0; i < page.operations.length; i++) {
        const op = page.operations[i];
        if (i > 0) pieces.push(',');
        if ('text' in op) addFilledText(pieces, op, accounts, previewOf(op.master));
        else pieces.push(asciiJson(toJson(presentOperation(op, accounts, new RawJson(previewOf(op.master))))));
    }
    pieces.push(page.nextFrom !== undefined ? `],"next_from":${page.nextFrom}}` : ']}');
    // Joined, the pieces are copied once into one flat string and once out of it: 2–3 times faster than
    // writing each of a page's ~900 pieces into a buffer (presenting and writing a page took 112–134 µs
    // against 198–303 µs, in-process over 300 pages).
    return new RawJson(Buffer.from(pieces.join(''), 'latin1'));
}

/** Whether `text` is an operation text this version of the presenter can fill (`jettonHistory` decodes the others' columns instead). */
export function isCurrentOperationText(text: string): boolean {
    return text.startsWith(TEXT_PREFIX);
}

/**
 * The text of an operation as its history shows it, made once when it is indexed: what may change
 * later (its parties' `is_wallet`, as the index learns their code; its jetton's preview, as the
 * master's metadata is read) is left as holes, marked by HOLE, in that order: the source's, the
 * destination's (each where the operation has one), the jetton. Written in ASCII (`asciiJson`).
 */
export function jettonOperationText(op: JettonOperation): string {
    const { text } = toJsonTemplate(presentOperation(op, TEMPLATE_PARTIES, JETTON_HOLE));
    // PostgreSQL's text holds no NUL, which marks a template's holes: HOLE (never raw in JSON either) marks them.
    for (let i = 0; i < text.length; i++) if (text[i] === HOLE_MARK) text[i] = HOLE_CODE;
    return TEXT_PREFIX + asciiJson(text.toString('utf8'));
}

/**
 * Bumped whenever `presentOperation` changes what a stored text would hold, or the text's form
 * (ASCII, HOLE marks, this prefix) changes: texts of other
 * versions are not used (their operations are presented from their columns).
 */
const OPERATION_TEXT_VERSION = 1;
const TEXT_PREFIX = `${OPERATION_TEXT_VERSION}:`;
const HOLE_CODE = 1;
const HOLE = String.fromCharCode(HOLE_CODE);

const JETTON_HOLE = new MemberHole('jetton');
const TEMPLATE_PARTIES = {
    accountAddress: (address: string) => ({ address, is_scam: false, is_wallet: new MemberHole('is_wallet') }),
};

const IS_WALLET = ',"is_wallet":true';
const NOT_WALLET = ',"is_wallet":false';
const JETTON_MEMBER = ',"jetton":';

function presentOperation(op: JettonOperation, parties: Pick<AccountView, 'accountAddress'>, jetton: RawJson | MemberHole) {
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

function addFilledText(out: string[], op: StoredJettonOperation, accounts: AccountDirectory, preview: string): void {
    const text = op.text;
    let start = TEXT_PREFIX.length;
    // The holes in their order: the source's is_wallet, the destination's (each where there is one), the jetton.
    for (let hole = op.source !== null ? 0 : 1; hole < 3; hole++) {
        if (hole === 1 && op.destination === null) continue;
        const at = text.indexOf(HOLE, start);
        if (at < 0) throw new Error(`the stored text of jetton operation ${op.transactionHash} has fewer holes than its parties and jetton`);
        out.push(text.slice(start, at));
        if (hole === 2) out.push(JETTON_MEMBER, preview);
        else out.push(accounts.isWallet(hole === 0 ? op.source! : op.destination!) ? IS_WALLET : NOT_WALLET);
        start = at + 1;
    }
    out.push(text.slice(start));
}
