/**
 * Decoders for known message bodies, in the manner of TonAPI (tongo's ABI names and field names).
 *
 * - `decodeBody(body, hint)`: `{ opCode, name, value }` with a JSON-safe value, for the API's
 *   `decoded_op_name` / `decoded_body`.
 * - `parseBody(body, hint)`: the same bodies as typed objects (bigint amounts, @ton/core Address),
 *   for the indexer and the action engine.
 * - one module per family with `loadX(slice)` parsers that take the whole body (op included)
 *   and throw `BodyParseError` (or a @ton/core read error) on malformed input. The standard
 *   families (comments, jettons, NFTs, bounces, wallets) are also decoded by op: `registry/`
 *   holds their entries; the protocols' bodies (DEXes, staking, oracles …) are read by the
 *   action patterns only.
 */
export { decodeBody, externalBodyVariants, formatOpCode, readOpCode, parseBody, payloadJson, BODY_NAMES, KNOWN_OPS } from './registry.ts';
export type { BodyHint, DecodedBody, ParsedBody } from './registry.ts';
export * from './wallet-interfaces.ts';
export * from './common.ts';
export * from './comment.ts';
export * from './jetton.ts';
export * from './nft.ts';
export * from './bounce.ts';
export * from './wallet.ts';
export * from './coffee.ts';
export * from './dedust.ts';
export * from './stonfi.ts';
export * from './pton.ts';
export * from './tonco.ts';
export * from './tonstakers.ts';
export * from './bidask.ts';
export * from './whales.ts';
export * from './ffvault.ts';
export * from './affluent.ts';
export * from './pyth.ts';
export * from './xtr.ts';
export * from './dns.ts';
export * from './invoice.ts';
