/**
 * Interface inheritance as contract detection names it: a contract declared `wallet_v4r2` is also
 * a `wallet`, a `jetton_wallet_governed` also a `jetton_wallet`, and so on.
 */
const PARENTS: ReadonlyArray<{ parent: string; implementedBy: (name: string) => boolean }> = [
    { parent: 'wallet', implementedBy: (n) => n.startsWith('wallet_') || n === 'multisig_v2' },
    { parent: 'jetton_wallet', implementedBy: (n) => n.startsWith('jetton_wallet_') },
    { parent: 'nft_sale', implementedBy: (n) => n.startsWith('nft_sale_') },
    { parent: 'nft_sale_v2', implementedBy: (n) => n.startsWith('nft_sale_getgems_') },
    { parent: 'nft_auction_v1', implementedBy: (n) => n === 'nft_auction_getgems_v3' },
    { parent: 'stonfi_pool_v2', implementedBy: (n) => n.startsWith('stonfi_pool_v2_') },
    { parent: 'stonfi_router_v2', implementedBy: (n) => n.startsWith('stonfi_router_v2_') },
    { parent: 'cron', implementedBy: (n) => n === 'subscription_v2' },
];

export function implementsInterface(interfaces: readonly string[], name: string): boolean {
    if (interfaces.includes(name)) return true;
    const rule = PARENTS.find((p) => p.parent === name);
    return rule !== undefined && interfaces.some(rule.implementedBy);
}
