import { Address } from '@ton/core';

/** Raw form `wc:64hex`, lowercase: how every address leaves the API and sits in the index. */
export function formatRawAddress(address: Address): string {
    return `${address.workChain}:${address.hash.toString('hex')}`;
}
