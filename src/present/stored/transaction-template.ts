import { decodeBody, externalBodyVariants, type DecodedBody } from '../../ton/bodies/index.ts';
import { exitCodeDependsOnInterfaces, exitCodeDescription } from '../../ton/exit-codes.ts';
import { isWalletInterface } from '../../ton/interfaces/known-code.ts';
import type { EcPreviewJson } from '../../ton/extra-currencies.ts';
import type { ParsedTransaction, TransactionMessage } from '../../ton/transaction.ts';
import { ByteText } from '../../json/byte-text.ts';
import { MemberHole, toJson, toJsonTemplate } from '../../json/json.ts';
import { holeMarks, readTemplateHoles, storeTemplate, type StoredTemplate } from '../../json/template.ts';
import type { AccountView } from '../account-address.ts';
import { presentTransaction } from '../transaction.ts';

/**
 * A transaction's text (spec 2.13) made once, when its block is read, and stored with it: the
 * members that depend on what the index knows of the accounts when the text is read (their
 * interfaces: `is_wallet`, a wallet's exit-code descriptions, a wallet's external body) are holes
 * filled in then, and so is `raw`, from the BOC stored beside the text.
 *
 * Stored as json/template.ts stores every text with holes, led by TEXT_VERSION; a text of another
 * version is not used (made again from the BOC).
 */

/** A stored text as read back (store/read/transactions.ts): its version, and the holes in order. */
export interface TextTemplate {
    version: number;
    text: Buffer;
    holes: TextHole[];
    /** The accounts the holes read, once each, when stored with them (a list's). */
    accounts?: string[];
}

/** A template without its text: what its holes need is known before the text (megabytes, for a list) is read. */
export type ListHoles = Omit<TextTemplate, 'text'>;

/**
 * Bumped whenever the presenters (transaction.ts, message.ts, the bodies' JSON) change what a stored
 * text would hold: texts of other versions are then made again from their BOCs when read.
 */
export const TEXT_VERSION = 1;

export type TextHole =
    | ['w', string]
    | ['x', string, number]
    /** A wallet's external body: the members by each layout that parses it (layout's interfaces, text), then the members by op. */
    | ['d', string, Array<[readonly string[], string]>, string]
    | ['r'];

/** The template of a transaction read from its block; null when it cannot have one (extra currencies, whose previews are the service's). */
export function transactionTemplate(parsed: ParsedTransaction, block: string, endBalance: bigint | null): StoredTemplate | null {
    const template = transactionTextTemplate(parsed, block, endBalance);
    return template && storedTemplate(template);
}

/** `transactionTemplate` before it is put in its stored form. */
export function transactionTextTemplate(parsed: ParsedTransaction, block: string, endBalance: bigint | null): TextTemplate | null {
    if ([parsed.inMsg, ...parsed.outMsgs].some(m => m?.extraCurrencies)) return null;
    const { text, holes } = toJsonTemplate(presentTransaction(parsed, { block, endBalance, raw: new MemberHole(['r']) }, TEMPLATE_DIRECTORY));
    return { version: TEXT_VERSION, text, holes: holes as TextHole[] };
}

/** A template in the form the index stores it. */
export function storedTemplate(template: TextTemplate): StoredTemplate {
    return storeTemplate(template.version, template.text, template.holes);
}

/**
 * A block's list (the JSON array of its transactions, in the order given) as one template, stored
 * with the block: each transaction's `raw` written in (it never changes), the holes that depend on
 * the accounts' interfaces kept. Reading a list is then one row and one pass over it. Null when a
 * template does not hold as many holes as it lists.
 */
export function listTemplate(items: ReadonlyArray<{ template: TextTemplate; boc: Buffer }>): TextTemplate | null {
    const out = new ByteText().string('[');
    const holes: TextHole[] = [];
    for (let i = 0; i < items.length; i++) {
        const { template, boc } = items[i];
        const marks = holeMarks(template.text, template.holes.length);
        if (!marks) return null;
        if (i > 0) out.string(',');
        let start = 0;
        template.holes.forEach((hole, h) => {
            if (hole[0] !== 'r') {
                holes.push(hole);
                return;
            }
            appendHole(out.bytes(template.text, start, marks[h]), hole, boc, NO_INTERFACES);
            start = marks[h] + 1;
        });
        out.bytes(template.text, start);
    }
    return { version: TEXT_VERSION, text: out.string(']').toBuffer(), holes };
}

const TEMPLATE_DIRECTORY: AccountView = {
    accountAddress(address: string) {
        return { address, is_scam: false, is_wallet: new MemberHole(['w', address] satisfies TextHole) };
    },
    exitCodeDescription(account: string, code: number) {
        return exitCodeDependsOnInterfaces(code) ? new MemberHole(['x', account, code] satisfies TextHole) : exitCodeDescription(code, []);
    },
    decodedBody(m: TransactionMessage) {
        // Only an inbound external body decodes by the destination's interfaces (decodeBody).
        if (m.msgType !== 'ext_in_msg') return decodeBody(m.body, { external: false });
        const { variants, byOp } = externalBodyVariants(m.body);
        if (variants.length === 0) return byOp;
        const hole: TextHole = ['d', m.destination!, variants.map(v => [v.interfaces, decodedMembers(v.decoded)]), decodedMembers(byOp)];
        return { name: new MemberHole(hole) };
    },
    extraCurrency(): EcPreviewJson {
        throw new Error('a transaction with extra currencies has no template');
    },
};

/** `,"decoded_op_name":…,"decoded_body":…` as presentMessage writes them, or nothing. */
function decodedMembers(decoded: DecodedBody | null): string {
    if (!decoded) return '';
    const text = toJson({ decoded_op_name: decoded.name, decoded_body: decoded.value });
    return `,${text.slice(1, -1)}`;
}

/**
 * The text of a stored template with its holes filled from the interfaces the index now knows of
 * its accounts; null when it was made by another version (or does not hold as many holes as it lists).
 */
export function fillTemplate(stored: TextTemplate, boc: Buffer, interfaces: Map<string, string[]>): Buffer | null {
    const text = new ByteText();
    return appendFilledTemplate(text, stored, boc, interfaces) ? text.toBuffer() : null;
}

/** `fillTemplate` appended to `out`; false, with nothing appended, when the template cannot be filled. */
export function appendFilledTemplate(out: ByteText, stored: TextTemplate, boc: Buffer | null, interfaces: Map<string, string[]>): boolean {
    if (stored.version !== TEXT_VERSION) return false;
    const marks = holeMarks(stored.text, stored.holes.length);
    if (!marks || (!boc && stored.holes.some(hole => hole[0] === 'r'))) return false;
    let start = 0;
    for (let i = 0; i < marks.length; i++) {
        out.bytes(stored.text, start, marks[i]);
        appendHole(out, stored.holes[i], boc, interfaces);
        start = marks[i] + 1;
    }
    out.bytes(stored.text, start);
    return true;
}

/**
 * A list's template as the index stores it (block_texts): its holes name their accounts by their
 * place in a table of the accounts, led by the version and that table, and an `is_wallet` hole is
 * that number alone. A block's list has thousands of holes over a few hundred accounts, and reading
 * them back is part of every list read.
 */
export function storedListTemplate(list: TextTemplate): StoredTemplate {
    const accounts = templateAccounts(list) ?? [];
    const place = new Map(accounts.map((account, i) => [account, i]));
    const holes = list.holes.map(hole => {
        switch (hole[0]) {
            case 'w': return place.get(hole[1])!;
            case 'x': return ['x', place.get(hole[1])!, hole[2]];
            case 'd': return ['d', place.get(hole[1])!, hole[2], hole[3]];
            case 'r': return hole;
        }
    });
    return storeTemplate(list.version, list.text, [accounts, ...holes]);
}

/** The accounts whose interfaces a stored text's holes read, once each; null when it was made by another version. */
export function templateAccounts(stored: ListHoles): string[] | null {
    if (stored.version !== TEXT_VERSION) return null;
    if (stored.accounts) return [...stored.accounts];
    const accounts = new Set<string>();
    for (const hole of stored.holes) if (hole[0] !== 'r') accounts.add(hole[1]);
    return [...accounts];
}

const NO_INTERFACES = new Map<string, string[]>();
const IS_WALLET = Buffer.from(',"is_wallet":true');
const NOT_WALLET = Buffer.from(',"is_wallet":false');

function appendHole(out: ByteText, hole: TextHole, boc: Buffer | null, interfaces: Map<string, string[]>): void {
    switch (hole[0]) {
        case 'w':
            out.bytes((interfaces.get(hole[1]) ?? []).some(isWalletInterface) ? IS_WALLET : NOT_WALLET);
            return;
        case 'x': {
            const description = exitCodeDescription(hole[2], interfaces.get(hole[1]) ?? []);
            if (description !== undefined) out.string(`,"exit_code_description":${JSON.stringify(description)}`);
            return;
        }
        case 'd': {
            const known = interfaces.get(hole[1]) ?? [];
            const variant = hole[2].find(([layout]) => layout.some(i => known.includes(i)));
            out.string(variant ? variant[1] : hole[3]);
            return;
        }
        case 'r':
            out.string(',"raw":"').hex(boc!).string('"');
    }
}

/** A stored text as its columns hold it (`text_holes`: the version, then the holes). */
export function readTextTemplate(stored: StoredTemplate): TextTemplate {
    const { version, holes } = readTemplateHoles(stored.holes);
    return { version, text: stored.text, holes: holes as TextHole[] };
}

/** A list's template as `storedListTemplate` stores it, read back; a text of another version keeps only its version. */
export function readListTemplate(stored: StoredTemplate): TextTemplate {
    return { ...readListHoles(stored.holes), text: stored.text };
}

/** A list template's holes as stored beside its text. */
export function readListHoles(stored: string): ListHoles {
    const { version, holes: [accounts, ...holes] } = readTemplateHoles(stored) as { version: number; holes: [string[], ...unknown[]] };
    if (version !== TEXT_VERSION) return { version, holes: [] };
    return {
        version,
        accounts,
        holes: holes.map((hole): TextHole => {
            if (typeof hole === 'number') return ['w', accounts[hole]];
            const [kind, at, ...rest] = hole as [string, number, ...unknown[]];
            if (kind === 'x') return ['x', accounts[at], rest[0] as number];
            if (kind === 'd') return ['d', accounts[at], rest[0] as Array<[readonly string[], string]>, rest[1] as string];
            return ['r'];
        }),
    };
}
