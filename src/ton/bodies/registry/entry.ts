import type { Cell, Slice } from '@ton/core';
import type { EitherPayload } from '../common.ts';

/** Rendering a body as JSON: how deep it is nested, and how to render the payloads nested in it. */
export interface JsonContext {
    depth: number;
    /** A nested payload (forward payload, custom payload, inner message body) in TonAPI's shape. */
    payload(cell: Cell | null | undefined): Record<string, unknown>;
}

/**
 * Where a body is recognised: by the op it starts with, in internal or in inbound external
 * messages; or, for signed wallet requests that carry no op, by the destination's interfaces.
 */
export type BodyKey =
    | { by: 'op'; op: number; external: boolean }
    | { by: 'interfaces'; interfaces: readonly string[] };

/** One known body, declared by its family: where it is recognised, its name (TonAPI's decoded_op_name), loader and JSON. */
export interface BodyEntry<N extends string, V> {
    key: BodyKey;
    name: N;
    load: (s: Slice) => V;
    /** the JSON-safe value: snake_case keys, big integers as decimal strings, cells as hex BoC */
    json: (value: V, ctx: JsonContext) => unknown;
}

/** An entry of any family, as the registry holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyBodyEntry = BodyEntry<string, any>;

type Json<V> = (value: V, ctx: JsonContext) => unknown;

/** A body of internal messages, known by its op. */
export function internalBody<const N extends string, V>(op: number, name: N, load: (s: Slice) => V, json: Json<V>): BodyEntry<N, V> {
    return { key: { by: 'op', op, external: false }, name, load, json };
}

/** A body of inbound external messages that carries an op. */
export function externalBody<const N extends string, V>(op: number, name: N, load: (s: Slice) => V, json: Json<V>): BodyEntry<N, V> {
    return { key: { by: 'op', op, external: true }, name, load, json };
}

/** A signed request of wallets with one of `interfaces` (inbound external, no op). */
export function signedRequest<const N extends string, V>(interfaces: readonly string[], name: N, load: (s: Slice) => V, json: Json<V>): BodyEntry<N, V> {
    return { key: { by: 'interfaces', interfaces }, name, load, json };
}

/** `Either X ^X` as TonAPI shows it. */
export function eitherJson(p: EitherPayload, ctx: JsonContext): { is_right: boolean; value: Record<string, unknown> } {
    return { is_right: p.isRight, value: ctx.payload(p.value) };
}

/** `Maybe ^Cell`: null when absent. */
export function maybePayloadJson(c: Cell | null, ctx: JsonContext): Record<string, unknown> | null {
    return c === null ? null : ctx.payload(c);
}
