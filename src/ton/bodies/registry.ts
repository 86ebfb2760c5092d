import type { Cell } from '@ton/core';
import { peekOp } from './common.ts';
import { cellJson, formatOpCode, pascalName } from './json.ts';
import { BOUNCE_BODIES } from './registry/bounce.ts';
import { COMMENT_BODIES } from './registry/comment.ts';
import type { AnyBodyEntry, BodyEntry, JsonContext } from './registry/entry.ts';
import { JETTON_BODIES } from './registry/jetton.ts';
import { NFT_BODIES } from './registry/nft.ts';
import { WALLET_BODIES } from './registry/wallet.ts';

/**
 * The known bodies, assembled from the families that declare them (each entry: where the body is
 * recognised, its name, loader and JSON), and what the rest of the code asks of them.
 */
const BODIES = [...COMMENT_BODIES, ...JETTON_BODIES, ...NFT_BODIES, ...BOUNCE_BODIES, ...WALLET_BODIES] as const;

export interface BodyHint {
    /** interfaces of the message's destination account, e.g. ['wallet_v4r2'] (see wallet-interfaces.ts) */
    destinationInterfaces?: string[];
    /** true for an inbound external message; false for an internal one; undefined when unknown */
    external?: boolean;
}

export interface DecodedBody {
    /** first 32 bits, when present */
    opCode?: number;
    name: string;
    /** JSON-safe: no bigint, no Buffer */
    value: unknown;
}

type Parsed<E> = E extends BodyEntry<infer N, infer V> ? { name: N; value: V } : never;

/** A known body, parsed into its typed form (bigint amounts, @ton/core Address values). */
export type ParsedBody = { opCode?: number } & Parsed<(typeof BODIES)[number]>;

/** Body names (TonAPI's decoded_op_name: tongo's message names in snake case). */
export type BodyName = ParsedBody['name'];

/** Every body name by its upper-case key, e.g. BODY_NAMES.JETTON_TRANSFER = 'jetton_transfer'. */
export const BODY_NAMES = Object.fromEntries(BODIES.map((e) => [e.name.toUpperCase(), e.name])) as { readonly [N in BodyName as Uppercase<N>]: N };

function byOp(external: boolean): Map<number, AnyBodyEntry[]> {
    const m = new Map<number, AnyBodyEntry[]>();
    for (const e of BODIES as readonly AnyBodyEntry[]) {
        if (e.key.by !== 'op' || e.key.external !== external) continue;
        const list = m.get(e.key.op) ?? [];
        list.push(e);
        m.set(e.key.op, list);
    }
    return m;
}

const INTERNAL_BY_OP = byOp(false);
const EXTERNAL_BY_OP = byOp(true);
const BY_INTERFACES = (BODIES as readonly AnyBodyEntry[]).flatMap((entry) => (entry.key.by === 'interfaces' ? [{ entry, interfaces: entry.key.interfaces }] : []));
const BY_NAME = new Map<string, AnyBodyEntry>();
for (const e of BODIES as readonly AnyBodyEntry[]) if (!BY_NAME.has(e.name)) BY_NAME.set(e.name, e);

/** Every (op, name) pair decodeBody recognises by op. */
export const KNOWN_OPS: ReadonlyArray<{ op: number; name: BodyName; external: boolean }> = (BODIES as readonly AnyBodyEntry[]).flatMap((e) =>
    e.key.by === 'op' ? [{ op: e.key.op, name: e.name as BodyName, external: e.key.external }] : [],
);

function tryEntry(e: AnyBodyEntry, body: Cell, opCode: number | undefined): ParsedBody | null {
    try {
        return { name: e.name, opCode, value: e.load(body.beginParse()) } as ParsedBody;
    } catch {
        // not this layout
        return null;
    }
}

function tryEntries(list: AnyBodyEntry[] | undefined, body: Cell, opCode: number): ParsedBody | null {
    for (const e of list ?? []) {
        const parsed = tryEntry(e, body, opCode);
        if (parsed) return parsed;
    }
    return null;
}

/** The first 32 bits of a body, when it has that many. */
export function readOpCode(body: Cell): number | undefined {
    return peekOp(body);
}

export { formatOpCode };

/**
 * Parses a known body into its typed form; null when unknown or malformed. Never throws.
 * - `hint.external === true`: ext-in decoders only (wallet v5 signed external by op; v3/v4/highload-v3
 *   when `destinationInterfaces` names them, since those bodies have no op).
 * - `hint.external === false`: internal-message decoders only.
 * - no hint: internal decoders, then the ext-in ones that carry an op.
 */
export function parseBody(body: Cell, hint?: BodyHint): ParsedBody | null {
    try {
        const opCode = readOpCode(body);
        const external = hint?.external;
        if (external === true) {
            const ifaces = hint?.destinationInterfaces ?? [];
            for (const { entry, interfaces } of BY_INTERFACES) {
                if (!ifaces.some((i) => interfaces.includes(i))) continue;
                const parsed = tryEntry(entry, body, opCode);
                if (parsed) return parsed;
            }
        }
        if (opCode === undefined) return null;
        if (external === true) return tryEntries(EXTERNAL_BY_OP.get(opCode), body, opCode);
        const internal = tryEntries(INTERNAL_BY_OP.get(opCode), body, opCode);
        if (internal || external === false) return internal;
        return tryEntries(EXTERNAL_BY_OP.get(opCode), body, opCode);
    } catch {
        return null;
    }
}

// ---------------------------------------------------------------- JSON

const MAX_DEPTH = 16;

function context(depth: number): JsonContext {
    return { depth, payload: (cell) => payloadJson(cell, { depth }) };
}

/**
 * A nested payload (forward payload, custom payload, inner message body) in TonAPI's shape:
 * `{}` when empty; `{ sum_type: 'JettonNotify', op_code: 0x7362d09c, value: {...} }` when known;
 * `{ sum_type: 'Cell', op_code?: n, value: '<hex boc>' }` otherwise.
 */
export function payloadJson(cell: Cell | null | undefined, ctx: { depth: number } = { depth: 0 }): Record<string, unknown> {
    if (!cell || (cell.bits.length === 0 && cell.refs.length === 0)) return {};
    const op = peekOp(cell);
    if (op === undefined) return { sum_type: 'Cell', value: cellJson(cell) };
    if (ctx.depth < MAX_DEPTH) {
        const parsed = tryEntries(INTERNAL_BY_OP.get(op), cell, op);
        if (parsed) {
            try {
                return { sum_type: pascalName(parsed.name), op_code: op, value: valueJson(parsed, { depth: ctx.depth + 1 }) };
            } catch {
                // fall through to the raw cell
            }
        }
    }
    return { sum_type: 'Cell', op_code: op, value: cellJson(cell) };
}

/** The JSON form of a parsed body (snake_case keys, big integers as decimal strings, cells as hex BoC). */
export function valueJson(p: ParsedBody, ctx: { depth: number } = { depth: 0 }): unknown {
    return BY_NAME.get(p.name)!.json(p.value, context(ctx.depth));
}

/**
 * How an inbound external body decodes for every possible set of destination interfaces, without
 * knowing the set: `variants` are the layouts picked by interfaces (in the order decodeBody tries
 * them) that parse this body, each with its decoding (null when it parses but has no JSON form);
 * `byOp` is what decodes when none of them applies. decodeBody(body, { external: true,
 * destinationInterfaces: d }) is the first variant whose interfaces meet d, else byOp.
 */
export function externalBodyVariants(body: Cell): { variants: Array<{ interfaces: readonly string[]; decoded: DecodedBody | null }>; byOp: DecodedBody | null } {
    const variants: Array<{ interfaces: readonly string[]; decoded: DecodedBody | null }> = [];
    let opCode: number | undefined;
    try {
        opCode = readOpCode(body);
    } catch {
        return { variants, byOp: null };
    }
    for (const { entry, interfaces } of BY_INTERFACES) {
        const parsed = tryEntry(entry, body, opCode);
        if (parsed) variants.push({ interfaces, decoded: decodedOf(parsed, opCode) });
    }
    return { variants, byOp: decodeBody(body, { external: true, destinationInterfaces: [] }) };
}

function decodedOf(parsed: ParsedBody, opCode: number | undefined): DecodedBody | null {
    try {
        const out: DecodedBody = { name: parsed.name, value: valueJson(parsed) };
        if (opCode !== undefined) out.opCode = opCode;
        return out;
    } catch {
        return null;
    }
}

/** decodeBody: parseBody + valueJson. Null when the body is unknown or malformed; never throws. */
export function decodeBody(body: Cell, hint?: BodyHint): DecodedBody | null {
    try {
        const parsed = parseBody(body, hint);
        return parsed ? decodedOf(parsed, readOpCode(body)) : null;
    } catch {
        return null;
    }
}
