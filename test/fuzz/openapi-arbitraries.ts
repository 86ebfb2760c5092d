import fc from 'fast-check';
import { Address } from '@ton/core';
import { openapiDocument } from '../../src/api/openapi/document.ts';
import { mutatedBocArbitrary, type RealBoc } from './boc-mutations.ts';

/**
 * Requests for every operation of the OpenAPI document, generated from its parameter and request
 * body schemas: valid values (real addresses, hashes, block ids, logical times of the running
 * index), boundary values (edges of every range, int64 around ±2^63 and 2^64, lengths at their
 * limits) and invalid ones (garbage, unicode, huge strings, wrong types, missing required fields,
 * extra fields, malformed JSON). BOC fields get real bags of cells, mutated (boc-mutations.ts).
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = Record<string, any>;
export type Mode = 'valid' | 'boundary' | 'invalid';

/** Real values from the index the server runs on. */
export interface FuzzContext {
    /** Raw addresses of indexed accounts. */
    addresses: string[];
    multisigOrders: string[];
    txHashes: string[];
    /** Trace ids and hashes of messages, which getTrace also takes. */
    traceIds: string[];
    blockIds: string[];
    lts: bigint[];
    utimes: number[];
    masterSeqnos: number[];
    electionIds: number[];
    publicKeys: string[];
    metadataDocuments: string[];
    /** Bags of cells for the emulation operations. */
    bocs: RealBoc[];
    /** Bags of cells for sendBlockchainMessage, signed by other wallets (a sent transfer makes its wallet's later ones stale). */
    sendBocs: RealBoc[];
}

export interface FuzzOperation {
    operationId: string;
    method: string;
    path: string;
    parameters: Array<{ name: string; in: string; required: boolean; schema: Schema }>;
    body?: { required: boolean; schema: Schema };
    /** Body fields that take a bag of cells. */
    bocFields: string[];
}

export interface FuzzRequest {
    operationId: string;
    mode: Mode;
    method: string;
    /** Path and query, as sent. */
    url: string;
    headers: Record<string, string>;
    body?: string;
    /** How the request was made (BOC mutation, the malformed part), for the report. */
    note: string;
}

function resolveRef(ref: string): Schema {
    return ref.replace(/^#\//, '').split('/').reduce((node: Schema, part) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')], openapiDocument);
}

/** The component name a schema refers to (`AccountIdInput`), if it is a reference. */
function refName(schema: Schema): string | undefined {
    return typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
}

function deref(schema: Schema): Schema {
    let node = schema;
    while (typeof node.$ref === 'string') node = resolveRef(node.$ref);
    return node;
}

const HTTP_METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** Every operation of the document with its parameters and JSON body schema resolved. */
export function documentOperations(): FuzzOperation[] {
    const operations: FuzzOperation[] = [];
    for (const [path, item] of Object.entries<Schema>(openapiDocument.paths)) {
        for (const method of HTTP_METHODS) {
            const op = item[method];
            if (!op?.operationId) continue;
            const parameters = (op.parameters ?? []).map((p: Schema) => deref(p)).map((p: Schema) => ({
                name: p.name, in: p.in, required: p.required === true || p.in === 'path', schema: p.schema,
            }));
            let body: FuzzOperation['body'];
            if (op.requestBody) {
                const requestBody = deref(op.requestBody);
                const schema = requestBody.content?.['application/json']?.schema;
                if (schema) body = { required: requestBody.required === true, schema };
            }
            const properties = body ? deref(body.schema).properties ?? {} : {};
            const bocFields = Object.entries<Schema>(properties).filter(([, s]) => refName(s) === 'BocInput').map(([name]) => name);
            operations.push({ operationId: op.operationId, method: method.toUpperCase(), path, parameters, body, bocFields });
        }
    }
    return operations;
}

// ---- values ------------------------------------------------------------------------------------

const INT64_EDGES = [0n, -1n, 1n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n,
    2n ** 63n - 2n, 2n ** 63n - 1n, 2n ** 63n, 2n ** 63n + 1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 64n + 1n, -(2n ** 63n), -(2n ** 63n) - 1n, -(2n ** 64n), 10n ** 30n, -(10n ** 30n)];

const NUMBERISH_GARBAGE = ['', ' ', 'NaN', 'Infinity', '-Infinity', '1e5', '1.5', '0x10', '-0', '+1', ' 1', '1 ', '٣', '１', '1_000', '00000000000000000000000001', '9'.repeat(400), '-'];

const STRING_GARBAGE = ['', ' ', 'null', 'undefined', '[object Object]', '../../etc/passwd', '%00', '\u0000', '\n', '\r\n', '\\', '"', "'", '<script>', '😀', '\u202e', '\ud800', 'é', 'ＡＢＣ', '{}', '[]', '0:', ':', '-1:', '0:xyz'];

function hexString(min: number, max: number): fc.Arbitrary<string> {
    return fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: min, maxLength: max });
}

/** Any text, from short unicode to over a hundred kilobytes. */
function garbageText(): fc.Arbitrary<string> {
    return fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...STRING_GARBAGE, ...NUMBERISH_GARBAGE) },
        { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
        { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '0', 'é', '😀', 'A/+', 'te6cc'), fc.integer({ min: 1_000, max: 120_000 })).map(([s, n]) => s.repeat(Math.ceil(n / s.length))) },
    );
}

function friendly(raw: string, options: { bounceable: boolean; urlSafe: boolean; testOnly: boolean }): string {
    return Address.parseRaw(raw).toString(options);
}

function addressArbitrary(ctx: FuzzContext, mode: Mode, pool: string[]): fc.Arbitrary<string> {
    const known = fc.constantFrom(...pool);
    if (mode === 'valid') {
        return fc.oneof(
            known,
            fc.tuple(known, fc.boolean(), fc.boolean()).map(([raw, bounceable, urlSafe]) => friendly(raw, { bounceable, urlSafe, testOnly: false })),
            known.map(raw => raw.toUpperCase().replace(/^(-?\d+):/, '$1:')),
        );
    }
    if (mode === 'boundary') {
        return fc.oneof(
            fc.tuple(fc.constantFrom('0', '-1', '127', '-128', '128', '-129', '2147483647', '9999999999', '00', '-0'), hexString(64, 64)).map(([wc, hex]) => `${wc}:${hex}`),
            fc.tuple(fc.constantFrom('0', '-1'), hexString(1, 63)).map(([wc, hex]) => `${wc}:${hex}`),
            fc.constantFrom(`0:${'0'.repeat(64)}`, `-1:${'f'.repeat(64)}`, `0:${'F'.repeat(64)}`, `-1:${'5'.repeat(64)}`),
            fc.tuple(hexString(64, 64), fc.boolean(), fc.boolean(), fc.boolean()).map(([hex, bounceable, urlSafe, testOnly]) => friendly(`0:${hex}`, { bounceable, urlSafe, testOnly })),
            fc.tuple(known, fc.boolean()).map(([raw, bounceable]) => friendly(raw, { bounceable, urlSafe: true, testOnly: true })),
        );
    }
    return fc.oneof(
        garbageText(),
        hexString(64, 64).map(hex => `0:${hex}0`),
        fc.tuple(known, fc.nat({ max: 47 })).map(([raw, at]) => {
            const text = friendly(raw, { bounceable: true, urlSafe: true, testOnly: false });
            return `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`; // checksum no longer matches
        }),
        fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 48, maxLength: 48 }),
        known.map(raw => ` ${raw}`),
    );
}

function hashArbitrary(pool: string[], mode: Mode): fc.Arbitrary<string> {
    const known = fc.constantFrom(...pool);
    if (mode === 'valid') {
        return fc.oneof(
            { weight: 4, arbitrary: known },
            { weight: 1, arbitrary: known.map(h => `0x${h}`) },
            { weight: 1, arbitrary: known.map(h => h.toUpperCase()) },
            { weight: 1, arbitrary: known.map(h => Buffer.from(h, 'hex').toString('base64')) },
            { weight: 1, arbitrary: known.map(h => Buffer.from(h, 'hex').toString('base64url')) },
        );
    }
    if (mode === 'boundary') return fc.oneof(hexString(64, 64), fc.constantFrom('0'.repeat(64), 'f'.repeat(64), `0X${'0'.repeat(64)}`, `${'A'.repeat(43)}=`, 'A'.repeat(43)));
    return fc.oneof(garbageText(), hexString(63, 63), hexString(65, 65), known.map(h => `${h} `), fc.constant('_'.repeat(43) + '=='));
}

function blockIdArbitrary(ctx: FuzzContext, mode: Mode): fc.Arbitrary<string> {
    if (mode === 'valid') return fc.oneof(fc.constantFrom(...ctx.blockIds), fc.constantFrom(...ctx.blockIds).map(id => id.toUpperCase()));
    const shard = fc.constantFrom('8000000000000000', '0000000000000000', 'ffffffffffffffff', '4000000000000000', 'c000000000000000');
    const seqno = fc.constantFrom('0', '1', '4294967295', '4294967296', '9999999999', String(ctx.masterSeqnos.at(-1) ?? 1));
    const workchain = fc.constantFrom('0', '-1', '1', '-2', '2147483647', '-2147483648', '9999999999', '-9999999999');
    if (mode === 'boundary') return fc.tuple(workchain, shard, seqno).map(([w, s, n]) => `(${w},${s},${n})`);
    return fc.oneof(garbageText(), fc.tuple(workchain, shard, seqno).map(([w, s, n]) => `${w},${s},${n}`), fc.constant('(0,8000000000000000,)'), fc.constant('(0,800000000000000,1)'));
}

function publicKeyArbitrary(ctx: FuzzContext, mode: Mode): fc.Arbitrary<string> {
    if (mode === 'valid') return fc.oneof(fc.constantFrom(...ctx.publicKeys), fc.constantFrom(...ctx.publicKeys).map(k => k.toUpperCase()));
    if (mode === 'boundary') return fc.oneof(hexString(64, 64), fc.constantFrom('0'.repeat(64), 'f'.repeat(64)));
    return fc.oneof(garbageText(), hexString(62, 62), hexString(66, 66), fc.constant(`0x${'a'.repeat(62)}`));
}

function bocArbitrary(ctx: FuzzContext, mode: Mode): fc.Arbitrary<{ text: string; mutation: string }> {
    const real = fc.constantFrom(...ctx.bocs).chain(seed => fc.constantFrom('base64', 'hex').map(enc => ({ text: seed.bytes.toString(enc as BufferEncoding), mutation: `unchanged ${seed.label}` })));
    if (mode === 'valid') return fc.oneof({ weight: 1, arbitrary: real }, { weight: 1, arbitrary: mutatedBocArbitrary(ctx.bocs) });
    if (mode === 'boundary') return mutatedBocArbitrary(ctx.bocs);
    return fc.oneof(
        garbageText().map(text => ({ text, mutation: 'garbage text' })),
        mutatedBocArbitrary(ctx.bocs).map(b => ({ text: ` ${b.text}\n`, mutation: `${b.mutation}, in whitespace` })),
        fc.constantFrom('te6cc', 'te6cc==', 'b5ee9c72', 'B5EE9C7', 'te6cc' + '/'.repeat(60), 'b5ee9c72' + '00'.repeat(30)).map(text => ({ text, mutation: 'magic only' })),
    );
}

/** Values a parameter's name suggests, from the index (valid mode). */
function hintedIntegers(ctx: FuzzContext, name: string): fc.Arbitrary<bigint> | undefined {
    if (name === 'before_lt' || name.endsWith('_lt')) return fc.oneof(fc.constantFrom(...ctx.lts), fc.constantFrom(...ctx.lts).map(lt => lt + 1n));
    if (name === 'from' || name === 'to' || name === 'unixtime') return fc.oneof(fc.constantFrom(...ctx.utimes).map(BigInt), fc.tuple(fc.constantFrom(...ctx.utimes), fc.integer({ min: -700, max: 700 })).map(([t, d]) => BigInt(t + d)));
    if (name === 'election_id') return ctx.electionIds.length > 0 ? fc.constantFrom(...ctx.electionIds).map(BigInt) : undefined;
    if (name === 'block') return fc.constantFrom(...ctx.masterSeqnos).map(BigInt);
    return undefined;
}

function integerArbitrary(schema: Schema, name: string, ctx: FuzzContext, mode: Mode): fc.Arbitrary<bigint | string> {
    const format = schema.format as string | undefined;
    const min = schema.minimum !== undefined ? BigInt(schema.minimum) : format === 'int64' ? -(2n ** 63n) : format === 'uint32' ? 0n : format === 'int32' ? -(2n ** 31n) : -(2n ** 63n);
    const max = schema.maximum !== undefined ? BigInt(schema.maximum) : format === 'uint32' ? 2n ** 32n - 1n : format === 'int32' ? 2n ** 31n - 1n : 2n ** 63n - 1n;
    if (mode === 'valid') {
        const hinted = hintedIntegers(ctx, name);
        const small = fc.bigInt({ min: min > 0n ? min : 0n, max: max < 1000n ? max : 1000n });
        return hinted ? fc.oneof({ weight: 3, arbitrary: hinted }, { weight: 1, arbitrary: small }) : fc.oneof(small, fc.bigInt({ min, max }));
    }
    if (mode === 'boundary') return fc.constantFrom(min, max, min - 1n, max + 1n, ...INT64_EDGES);
    return fc.oneof(garbageText(), fc.constantFrom(...NUMBERISH_GARBAGE));
}

function stringArbitrary(schema: Schema, mode: Mode): fc.Arbitrary<string> {
    if (schema.enum) return mode === 'valid' ? fc.constantFrom(...schema.enum as string[]) : garbageText();
    if (mode === 'valid') return typeof schema.pattern === 'string' ? fc.stringMatching(new RegExp(schema.pattern)) : fc.string({ maxLength: 20 });
    if (mode === 'boundary') {
        const long = fc.constantFrom(63, 64, 65, 1024).map(n => 'a'.repeat(n));
        return fc.oneof(fc.constant(''), long, fc.constantFrom('.', '..', '-', '_'));
    }
    return garbageText();
}

/**
 * A value for `schema`: a string for special identifiers, bigint for integers (written exactly in
 * JSON bodies), otherwise JSON values. `name` hints which real values fit.
 */
export function valueArbitrary(schema: Schema, name: string, ctx: FuzzContext, mode: Mode, notes: string[]): fc.Arbitrary<unknown> {
    const named = refName(schema);
    if (named === 'AccountIdInput') return addressArbitrary(ctx, mode, name === 'account_id' ? [...ctx.addresses, ...ctx.multisigOrders] : ctx.addresses);
    if (named === 'HashInput') return hashArbitrary([...ctx.traceIds, ...ctx.txHashes], mode);
    if (named === 'BlockIdInput') return blockIdArbitrary(ctx, mode);
    if (named === 'PublicKeyInput') return publicKeyArbitrary(ctx, mode);
    if (named === 'BocInput') return bocArbitrary(ctx, mode).map(b => { notes.push(b.mutation); return b.text; });
    const node = deref(schema);
    if (node.$ref === undefined && node.type === undefined && node.properties) return objectArbitrary(node, ctx, mode, notes);
    switch (node.type) {
        case 'integer': return integerArbitrary(node, name, ctx, mode);
        case 'number': return mode === 'valid' ? fc.double({ noNaN: true, noDefaultInfinity: true }) : fc.constantFrom(1e308, -1e308, 5e-324, 0.5);
        case 'boolean': return mode === 'valid' ? fc.boolean() : mode === 'boundary' ? fc.constantFrom('1', '0', 'TRUE', 'False') : garbageText();
        case 'string':
            if (mode === 'valid' && name === 'currency') return fc.constantFrom('usd', 'USD', 'eur', 'XYZ', 'rub');
            if (mode === 'valid' && name === 'document' && ctx.metadataDocuments.length > 0) return fc.oneof(fc.constantFrom(...ctx.metadataDocuments), stringArbitrary(node, mode));
            return stringArbitrary(node, mode);
        case 'array': return arrayArbitrary(node, name, ctx, mode, notes);
        case 'object': return objectArbitrary(node, ctx, mode, notes);
        default: return garbageText();
    }
}

function arrayArbitrary(schema: Schema, name: string, ctx: FuzzContext, mode: Mode, notes: string[]): fc.Arbitrary<unknown[]> {
    const minItems = schema.minItems ?? 0;
    const maxItems = Math.min(schema.maxItems ?? 10, 200);
    const item = (itemMode: Mode) => valueArbitrary(schema.items ?? {}, name, ctx, itemMode, notes);
    if (mode === 'valid') return fc.array(item('valid'), { minLength: minItems, maxLength: Math.min(maxItems, minItems + 5) });
    if (mode === 'boundary') {
        return fc.oneof(
            fc.array(item('valid'), { minLength: maxItems, maxLength: maxItems }),
            fc.array(item('valid'), { minLength: maxItems + 1, maxLength: maxItems + 1 }),
            fc.constant<unknown[]>([]),
            fc.array(item('boundary'), { minLength: minItems, maxLength: minItems + 3 }),
        );
    }
    return fc.oneof(fc.array(item('invalid'), { minLength: 1, maxLength: 5 }), fc.array(fc.constant(null), { minLength: 1, maxLength: 3 }), fc.array(item('valid'), { minLength: 1000, maxLength: 1000 }));
}

/** Some values of the wrong JSON type. */
const WRONG_TYPES: unknown[] = [null, true, 0, -1, 1.5, 2n ** 64n, '', 'x', [], {}, [1, 2], { a: 1 }];

function objectArbitrary(schema: Schema, ctx: FuzzContext, mode: Mode, notes: string[]): fc.Arbitrary<Record<string, unknown>> {
    const node = deref(schema);
    const properties = Object.entries<Schema>(node.properties ?? {});
    const required = new Set<string>(node.required ?? []);
    const fields = properties.map(([name, propertySchema]) => {
        // Boundary and invalid objects carry each value in that mode or, half the time, a valid one,
        // so a single bad field is often the only problem in the request.
        const value = mode === 'valid' ? valueArbitrary(propertySchema, name, ctx, 'valid', notes)
            : fc.oneof(valueArbitrary(propertySchema, name, ctx, mode, notes), valueArbitrary(propertySchema, name, ctx, 'valid', notes),
                ...(mode === 'invalid' ? [fc.constantFrom(...WRONG_TYPES)] : []));
        const present = required.has(name) && mode !== 'invalid' ? fc.constant(true) : fc.boolean();
        return fc.tuple(fc.constant(name), present, value);
    });
    const extra = mode === 'valid' ? fc.constant([] as Array<[string, unknown]>) : fc.array(fc.tuple(fc.constantFrom('extra', '__proto__', 'constructor', 'boc ', 'BOC', ''), fc.constantFrom(...WRONG_TYPES)), { maxLength: 2 });
    return fc.tuple(fc.tuple(...fields), extra).map(([chosen, extras]) => {
        const out: Record<string, unknown> = {};
        for (const [name, present, value] of chosen) if (present) out[name] = value;
        for (const [name, value] of extras) Object.defineProperty(out, name, { value, enumerable: true, configurable: true, writable: true });
        return out;
    });
}

// ---- requests ----------------------------------------------------------------------------------

/** JSON text with bigints written exactly (as the API reads and writes them). */
export function jsonText(value: unknown): string {
    if (typeof value === 'bigint') return value.toString();
    if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
    if (value && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
    return JSON.stringify(value) ?? 'null';
}

/** Percent-encoded; a lone surrogate (which no URL can carry) becomes U+FFFD first. */
function uri(text: string): string {
    return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

function queryText(value: unknown): string {
    return typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : jsonText(value);
}

/** Bodies that are not what any operation takes, whatever its schema. */
function malformedBody(): fc.Arbitrary<{ text: string; note: string; contentType?: string }> {
    return fc.oneof(
        fc.constantFrom('', ' ', '{', '{"boc":', 'null', '[]', '"boc"', '0', 'true', '{"boc":"te6cc"}}', '\u0000', '{"a":1,"a":2}', `{"boc":${'9'.repeat(500)}}`)
            .map(text => ({ text, note: `malformed JSON ${JSON.stringify(text.slice(0, 30))}` })),
        fc.integer({ min: 1_000, max: 200_000 }).map(depth => ({ text: '['.repeat(depth) + ']'.repeat(depth), note: `arrays nested ${depth} deep` })),
        fc.integer({ min: 1_000, max: 100_000 }).map(depth => ({ text: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), note: `objects nested ${depth} deep` })),
        fc.constant({ text: `{"boc":"${'A'.repeat(1_100_000)}"}`, note: 'body over 1 MB' }),
        fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1', 'application/jsonx', 'multipart/form-data; boundary=x')
            .map(contentType => ({ text: '{"boc":"te6cc"}', note: `content type ${contentType}`, contentType })),
    );
}

const ACCEPT_LANGUAGES = ['en', 'ru', 'ru-RU,ru;q=0.5', 'de;q=1, ru;q=0.8, en;q=0.5', '*', '', ';q=', 'en;q=abc', 'x'.repeat(4000), '😀', 'en;q=1e400', ',,,'];

/** Arbitrary request of `op` in `mode`. */
export function requestArbitrary(op: FuzzOperation, fullCtx: FuzzContext, mode: Mode): fc.Arbitrary<FuzzRequest> {
    const ctx = op.operationId === 'sendBlockchainMessage' ? { ...fullCtx, bocs: fullCtx.sendBocs } : fullCtx;
    const notes: string[] = [];
    const params = op.parameters.map(p => {
        const value = mode === 'valid' ? valueArbitrary(p.schema, p.name, ctx, 'valid', notes)
            : fc.oneof(valueArbitrary(p.schema, p.name, ctx, mode, notes), valueArbitrary(p.schema, p.name, ctx, 'valid', notes));
        const present = p.required && mode !== 'invalid' ? fc.constant(true) : fc.boolean();
        return fc.tuple(fc.constant(p), present, value);
    });
    const body = op.body
        ? (mode === 'invalid' ? fc.oneof({ weight: 3, arbitrary: valueArbitrary(op.body.schema, 'body', ctx, mode, notes).map(v => ({ text: jsonText(v), note: '' as string, contentType: undefined as string | undefined })) }, { weight: 1, arbitrary: malformedBody() })
            : valueArbitrary(op.body.schema, 'body', ctx, mode, notes).map(v => ({ text: jsonText(v), note: '', contentType: undefined as string | undefined })))
        : fc.constant(undefined);
    const strays = mode === 'invalid'
        ? fc.array(fc.tuple(fc.constantFrom('limit', 'before_lt', 'shallow', 'x', 'boc', 'account_id', ''), fc.constantFrom('1', '', 'a', '-1', '%zz', '[]')), { maxLength: 2 })
        : fc.constant([] as Array<[string, string]>);
    // One invalid request in seven gets a path segment no encoder writes; as many use another method.
    const rarely = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
    const rawPath = mode === 'invalid' ? rarely(fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..%2f..', '%2F', 'a%20b', '((', `${'x'.repeat(1000)}`)) : fc.constant(null);
    const language = fc.option(fc.constantFrom(...ACCEPT_LANGUAGES), { freq: 2 });
    // Another method on the same path: 405, a CORS preflight (OPTIONS) or HEAD of a GET.
    const method = mode === 'invalid' ? rarely(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD')) : fc.constant(null);
    return fc.tuple(fc.tuple(...params), body, strays, rawPath, language, method).map(([chosen, bodyValue, strayParams, raw, acceptLanguage, otherMethod]) => {
        let path = op.path;
        const query: string[] = [];
        const headers: Record<string, string> = {};
        for (const [p, present, value] of chosen) {
            if (p.in === 'path') path = path.replace(`{${p.name}}`, raw ?? uri(queryText(value)));
            else if (!present) continue;
            else if (p.in === 'query') query.push(`${uri(p.name)}=${uri(queryText(value))}`);
            else if (p.in === 'header') headers[p.name.toLowerCase()] = queryText(value).replace(/[^\t\x20-\x7e]/g, '?');
        }
        for (const [name, value] of strayParams) query.push(`${name}=${value}`);
        if (acceptLanguage !== null && headers['accept-language'] === undefined) headers['accept-language'] = acceptLanguage.replace(/[^\t\x20-\x7e]/g, '?');
        let text: string | undefined;
        const requestNotes = notes.splice(0);
        const requestMethod = otherMethod ?? op.method;
        if (otherMethod) requestNotes.push(`method ${otherMethod}`);
        if (bodyValue && requestMethod !== 'GET' && requestMethod !== 'HEAD') {
            text = bodyValue.text;
            headers['content-type'] = bodyValue.contentType ?? 'application/json';
            if (bodyValue.note) requestNotes.push(bodyValue.note);
        }
        return {
            operationId: op.operationId,
            mode,
            method: requestMethod,
            url: query.length > 0 ? `${path}?${query.join('&')}` : path,
            headers,
            body: text,
            note: requestNotes.join('; '),
        };
    });
}

/** Any request to any operation: half valid, a quarter boundary, a quarter invalid; BOC-taking operations twice as often. */
export function anyRequestArbitrary(operations: FuzzOperation[], ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
    return fc.oneof(...operations.map(op => ({
        weight: op.bocFields.length > 0 ? 2 : 1,
        arbitrary: fc.oneof(
            { weight: 2, arbitrary: requestArbitrary(op, ctx, 'valid') },
            { weight: 1, arbitrary: requestArbitrary(op, ctx, 'boundary') },
            { weight: 1, arbitrary: requestArbitrary(op, ctx, 'invalid') },
        ),
    })));
}
