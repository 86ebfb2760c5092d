import { Address } from '@ton/core';

export function workchainAddress(workchain: number, hash: bigint): Address {
    return new Address(workchain, Buffer.from(hash.toString(16).padStart(64, '0'), 'hex'));
}

/** Raw form `wc:64hex`, lowercase: how every address leaves the API and sits in the index. */
export function formatRawAddress(address: Address): string {
    return `${address.workChain}:${address.hash.toString('hex')}`;
}
