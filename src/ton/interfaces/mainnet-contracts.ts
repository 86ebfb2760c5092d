import { interfacesByCodeHash } from './known-code.ts';

/**
 * Mainnet protocol contracts that are one account each (routers, factories, a staking pool), by
 * address. Contracts with many instances are recognised by code hash (`known-code.ts`).
 */
interface Singleton {
    readonly interfaces: readonly string[];
    /** where the address is published */
    readonly source: string;
}

const SINGLETONS = new Map<string, Singleton>([
    // STON.fi v1 router (EQB3ncyBUTjZUA5EnFKR5_EnOMI9V1tTEAAPaiU71gc4TiUt): STON.fi's documentation and SDK (ston-fi/sdk, ROUTER_V1)
    ['0:779dcc815138d9500e449c5291e7f12738c23d575b5310000f6a253bd607384e', { interfaces: ['stonfi_router'], source: 'ston-fi/sdk' }],
    // Tonstakers liquid staking pool (EQCkWxfyhAkim3g2DjKQQg8T5P4g-Q1-K_jErGcDJZ4i-vqR): tonstakers.com documentation
    ['0:a45b17f28409229b78360e3290420f13e4fe20f90d7e2bf8c4ac6703259e22fa', { interfaces: ['tonstake_pool'], source: 'tonstakers documentation' }],
]);

/** Interfaces of a singleton contract at this raw address (`wc:hex`, any case). */
export function interfacesByAddress(address: string): string[] {
    return [...(SINGLETONS.get(address.toLowerCase())?.interfaces ?? [])];
}

/** What the tables say of an account: by its address (singletons) and by its code hash. */
export function knownInterfaces(address: string, codeHash: string | null | undefined): string[] {
    return [...new Set([...interfacesByAddress(address), ...interfacesByCodeHash(codeHash)])];
}
