/**
 * Decoders for known message bodies, in the manner of TonAPI (tongo's ABI names and field names).
 *
 * - `decodeBody(body, hint)`: `{ opCode, name, value }` with a JSON-safe value, for the API's
 *   `decoded_op_name` / `decoded_body`.
 * - `parseBody(body, hint)`: the same bodies as typed objects (bigint amounts, @ton/core Address),
 *   for the indexer and the action engine.
 * - one module per family with `loadX(slice)` parsers that take the whole body (op included)
 *   and throw `BodyParseError` (or a @ton/core read error) on malformed input.
 */
export { decodeBody, formatOpCode, readOpCode, parseBody, valueJson, payloadJson, walletMessageJson, BODY_NAMES, KNOWN_OPS } from './registry.ts';
export type { BodyHint, DecodedBody, ParsedBody, BodyName } from './registry.ts';
export * from './wallet-interfaces.ts';
export * from './common.ts';
export * from './comment.ts';
export * from './jetton.ts';
export * from './nft.ts';
export * from './bounce.ts';
export * from './wallet.ts';
export * from './dedust.ts';
