/**
 * Wallet interface names, as used in `BodyHint.destinationInterfaces` (and by tongo / TonAPI).
 * Wallet v3/v4/highload-v3 external bodies carry no op prefix, so they are only decoded when the
 * caller says which of these interfaces the destination account implements.
 */
export const WALLET_V3R1 = 'wallet_v3r1';
export const WALLET_V3R2 = 'wallet_v3r2';
export const WALLET_V4R1 = 'wallet_v4r1';
export const WALLET_V4R2 = 'wallet_v4r2';
export const WALLET_V5R1 = 'wallet_v5r1';
export const WALLET_HIGHLOAD_V3 = 'wallet_highload_v3';

/** Interfaces whose external body is `wallet_signed_v3` (signature, subwallet, valid_until, seqno, messages). */
export const WALLET_V3_INTERFACES: readonly string[] = [WALLET_V3R1, WALLET_V3R2];
/** Interfaces whose external body is `wallet_signed_v4` (v3 layout plus an op byte). */
export const WALLET_V4_INTERFACES: readonly string[] = [WALLET_V4R1, WALLET_V4R2];
